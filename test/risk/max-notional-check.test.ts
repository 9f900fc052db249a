import { describe, expect, it } from 'vitest';
import { maxNotionalCheck } from '../../framework/risk/max-notional-check.js';
import { config, place, spotState } from './risk-fixtures.js';

describe('maxNotionalCheck', () => {
  const state = spotState();
  const cfg = config({ symbolLimits: { ETHUSDT: { maxOrderNotional: '4000' } } });

  it('passes exactly at the limit and denies above', () => {
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '2', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '2', price: '2000.01' }), state, cfg))
      .toEqual({ check: 'max-notional', reason: 'ETHUSDT: notional 4000.02 exceeds max order notional 4000' });
  });

  it('values market orders at the touch and falls back to the default limits', () => {
    // best ask 2000.10 x 2 = 4000.2
    expect(maxNotionalCheck(place({ side: 'buy', type: 'market', quantity: '2' }), state, cfg)?.reason).toMatch(/4000.2 exceeds/);
    // best bid 2000.00 x 2 = 4000
    expect(maxNotionalCheck(place({ side: 'sell', type: 'market', quantity: '2' }), state, cfg)).toBeUndefined();
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '100', price: '2000' }), state, config())).toBeUndefined();
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state, config({ defaultLimits: { maxOrderNotional: '1999.99' } }))?.check).toBe('max-notional');
  });
});
