import { describe, expect, it } from 'vitest';
import { gridCheck } from '../../framework/risk/grid-check.js';
import { config, d, place, spotState } from './risk-fixtures.js';

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
