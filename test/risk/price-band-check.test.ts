import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
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

describe('priceBandCheck over changing books', () => {
  it('property: the verdict is |price - mid| <= mid x band for every book, however often a mid comes back', () => {
    const state = spotState();
    const cfg = config({ priceBand: '0.001' });
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 199_000, max: 199_020 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: -300, max: 300 })), { maxLength: 40 }), (steps) => {
      for (const [bidTicks, spread, offset] of steps) {
        const bid = new Decimal(bidTicks).dividedBy(100);
        const ask = bid.plus(new Decimal(spread).dividedBy(100));
        state.books.set('ETHUSDT', book(spotInstrument(), [[ask.toFixed(), '1']], [[bid.toFixed(), '1']]));
        const mid = bid.plus(ask).dividedBy(2);
        const price = mid.plus(new Decimal(offset).dividedBy(100)).toDecimalPlaces(2);
        const passes = !price.minus(mid).abs().greaterThan(mid.times('0.001'));
        expect(priceBandCheck(place({ side: 'buy', quantity: '1', price: price.toFixed() }), state, cfg) === undefined).toBe(passes);
      }
    }));
  });

  it('property: the integer test decides as |price - mid| <= mid x band in Decimals, at any scale, band and size', () => {
    const state = spotState();
    const scaled = (units: bigint, scale: number): string => {
      const digits = units.toString().padStart(scale + 1, '0');
      return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    };
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 4 }), fc.bigInt({ min: 1n, max: 10n ** 17n }), fc.bigInt({ min: 1n, max: 1000n }),
      fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: 0, max: 2 }), fc.constantFrom('0.05', '0.001', '0.0125', '1', '0.333333'),
      (scale, bidUnits, spread, offset, extraDecimals, band) => {
        const bid = scaled(bidUnits, scale);
        const ask = scaled(bidUnits + spread, scale);
        const instrument = spotInstrument({ tick_size: scaled(1n, scale) });
        state.books.set('ETHUSDT', book(instrument, [[ask, '1']], [[bid, '1']]));
        const mid = new Decimal(bid).plus(ask).dividedBy(2);
        const price = mid.plus(new Decimal(offset).dividedBy(10 ** (scale + extraDecimals))).toDecimalPlaces(scale + extraDecimals);
        if (!price.isPositive() || price.isZero()) return;
        const passes = !price.minus(mid).abs().greaterThan(mid.times(band));
        const verdict = priceBandCheck(place({ side: 'buy', quantity: '1', price: price.toFixed() }), state, config({ priceBand: band }));
        expect(verdict === undefined).toBe(passes);
      },
    ), { numRuns: 2000 });
  });
});
