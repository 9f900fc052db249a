import { describe, expect, it } from 'vitest';
import { priceBandCheck } from '../../framework/risk/price-band-check.js';
import { book, config, place, spotInstrument, spotState } from './risk-fixtures.js';

describe('priceBandCheck', () => {
  // Book 2000.00 / 2000.10: mid 2000.05; 5 % of it is 100.0025.
  const state = spotState();
  const cfg = config({ priceBand: '0.05' });

  it('passes exactly at the band on both sides and denies one tick beyond', () => {
    state.books.set('ETHUSDT', book(spotInstrument(), [['2000.10', '1']], [['2000.00', '1']]));
    const band = config({ priceBand: '0.0005' }); // 0.0005 x 2000.05 = 1.000025
    expect(priceBandCheck(place({ side: 'buy', quantity: '1', price: '2001.05' }), state, band)).toBeUndefined();
    expect(priceBandCheck(place({ side: 'sell', quantity: '1', price: '1999.05' }), state, band)).toBeUndefined();
    const at = config({ priceBand: '0.00025' }); // 0.50001250: 2000.55 is 0.5 away, inside
    expect(priceBandCheck(place({ side: 'buy', quantity: '1', price: '2000.55' }), state, at)).toBeUndefined();
    expect(priceBandCheck(place({ side: 'buy', quantity: '1', price: '2000.56' }), state, at)?.check).toBe('price-band');
  });

  it('is inclusive at an exact band edge', () => {
    state.books.set('ETHUSDT', book(spotInstrument(), [['2000.10', '1']], [['1999.90', '1']])); // mid 2000
    const band = config({ priceBand: '0.05' }); // 100 exactly
    expect(priceBandCheck(place({ side: 'buy', quantity: '1', price: '2100' }), state, band)).toBeUndefined();
    expect(priceBandCheck(place({ side: 'sell', quantity: '1', price: '1900' }), state, band)).toBeUndefined();
    expect(priceBandCheck(place({ side: 'buy', quantity: '1', price: '2100.01' }), state, band)?.reason)
      .toBe('ETHUSDT: price 2100.01 is 5 % from mid 2000, band 5 %');
    expect(priceBandCheck(place({ side: 'sell', quantity: '1', price: '1899.99' }), state, band)?.check).toBe('price-band');
  });

  it('ignores market orders and denies a priced order without a book', () => {
    expect(priceBandCheck(place({ side: 'buy', type: 'market', quantity: '1' }), state, cfg)).toBeUndefined();
    state.books.delete('ETHUSDT');
    expect(priceBandCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state, cfg)?.reason).toMatch(/no valid book mid/);
  });
});
