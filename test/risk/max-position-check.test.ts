import { describe, expect, it } from 'vitest';
import { maxPositionCheck } from '../../framework/risk/max-position-check.js';
import { config, d, place, spotState } from './risk-fixtures.js';

describe('maxPositionCheck', () => {
  const cfg = config({ symbolLimits: { ETHUSDT: { maxPosition: '10' } } });

  it('counts position + open orders on the same side + the order; exactly at the limit passes', () => {
    const state = spotState();
    state.positionsBySymbol.set('ETHUSDT', d('6'));
    state.orders.set('o1', { clientOrderId: 'o1', symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: d('3'), quantityCumulative: d('1'), price: d('1990') });
    state.orders.set('o2', { clientOrderId: 'o2', symbol: 'ETHUSDT', side: 'sell', type: 'limit', quantity: d('50'), quantityCumulative: d('0'), price: d('2010') });
    expect(maxPositionCheck(place({ side: 'buy', quantity: '2', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxPositionCheck(place({ side: 'buy', quantity: '2.0001', price: '2000' }), state, cfg)?.reason)
      .toBe('ETHUSDT: long exposure 10.0001 (position 6, open 2, order 2.0001) exceeds max position 10');
  });

  it('measures sells on the short side, so reducing orders pass', () => {
    const state = spotState();
    state.positionsBySymbol.set('ETHUSDT', d('12'));
    expect(maxPositionCheck(place({ side: 'sell', quantity: '12', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxPositionCheck(place({ side: 'sell', quantity: '22', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxPositionCheck(place({ side: 'sell', quantity: '22.0001', price: '2000' }), state, cfg)?.reason).toMatch(/short exposure 10.0001/);
    expect(maxPositionCheck(place({ side: 'buy', quantity: '0.0001', price: '2000' }), state, cfg)?.check).toBe('max-position');
  });
});
