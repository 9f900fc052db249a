import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridCheck, onLotGrid, onTickGrid } from '../../framework/risk/grid-check.js';
import { config, d, place, spotInstrument, spotState } from './risk-fixtures.js';

describe('gridCheck', () => {
  const state = spotState();
  it('passes prices and quantities on the grid', () => {
    expect(gridCheck(place({ side: 'buy', quantity: '0.0001', price: '0.01' }), state, config())).toBeUndefined();
    expect(gridCheck(place({ side: 'sell', type: 'market', quantity: '1.2345' }), state, config())).toBeUndefined();
  });

  it('denies off-grid price, quantity and stop price, naming the value and the step', () => {
    expect(gridCheck(place({ side: 'buy', quantity: '1', price: '2000.005' }), state, config())?.reason)
      .toBe('ETHUSDT: price 2000.005 is not a positive multiple of tick_size 0.01');
    expect(gridCheck(place({ side: 'buy', quantity: '0.00015', price: '2000' }), state, config())?.reason)
      .toBe('ETHUSDT: quantity 0.00015 is not a positive multiple of quantity_increment 0.0001');
    expect(gridCheck(place({ side: 'buy', quantity: '0', price: '2000' }), state, config())?.check).toBe('grid');
    expect(gridCheck(place({ side: 'buy', type: 'stopLimit', quantity: '1', price: '2000', stopPrice: d('1999.999') }), state, config())?.reason)
      .toMatch(/stop price 1999.999/);
  });

  it('denies limit and stop types without their prices', () => {
    expect(gridCheck(place({ side: 'buy', quantity: '1' }), state, config())?.reason).toBe('ETHUSDT: limit order without a price');
    expect(gridCheck(place({ side: 'sell', type: 'stopMarket', quantity: '1' }), state, config())?.reason).toBe('ETHUSDT: stopMarket order without a stop price');
  });
});

describe('onTickGrid and onLotGrid', () => {
  const steps = ['0.01', '0.05', '1', '10', '0.0001', '0.25'];
  const value = fc.tuple(fc.constantFrom('', '-'), fc.stringMatching(/^[0-9]{1,5}$/), fc.stringMatching(/^[0-9]{0,6}$/))
    .map(([sign, whole, fraction]) => d(`${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`));

  it('agree with the instrument\'s Decimal tests for any value and step', () => {
    fc.assert(fc.property(fc.constantFrom(...steps), fc.constantFrom(...steps), value, (tick, lot, v) => {
      const instrument = spotInstrument({ tick_size: tick, quantity_increment: lot });
      expect(onTickGrid(instrument, v)).toBe(instrument.isValidPrice(v));
      expect(onLotGrid(instrument, v)).toBe(instrument.isValidQuantity(v));
    }), { numRuns: 3000 });
  });

  it('agree with them beyond 2^53 units too (the integer test gives way to the Decimal one)', () => {
    const big = fc.tuple(fc.bigInt({ min: 10n ** 12n, max: 10n ** 20n }), fc.stringMatching(/^[0-9]{0,4}$/))
      .map(([whole, fraction]) => d(`${whole}${fraction === '' ? '' : `.${fraction}`}`));
    fc.assert(fc.property(fc.constantFrom(...steps), big, (step, v) => {
      const instrument = spotInstrument({ tick_size: step, quantity_increment: step });
      expect(onTickGrid(instrument, v)).toBe(instrument.isValidPrice(v));
      expect(onLotGrid(instrument, v)).toBe(instrument.isValidQuantity(v));
    }), { numRuns: 1000 });
  });
});
