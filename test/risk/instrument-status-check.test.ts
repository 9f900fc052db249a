import { describe, expect, it } from 'vitest';
import { instrumentStatusCheck } from '../../framework/risk/instrument-status-check.js';
import { cancel, config, place, spotInstrument, spotState } from './risk-fixtures.js';

describe('instrumentStatusCheck', () => {
  it('passes a working symbol and cancels', () => {
    const state = spotState();
    expect(instrumentStatusCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state, config())).toBeUndefined();
    expect(instrumentStatusCheck(cancel(), state, config())).toBeUndefined();
  });

  it('denies unknown and suspended symbols', () => {
    const state = spotState();
    expect(instrumentStatusCheck(place({ symbol: 'XRPUSDT', side: 'buy', quantity: '1', price: '1' }), state, config())?.reason).toBe('XRPUSDT: unknown symbol');
    state.instruments.set('ETHUSDT', spotInstrument({ status: 'suspended' }));
    const denial = instrumentStatusCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state, config());
    expect(denial).toEqual({ check: 'instrument-status', reason: 'ETHUSDT: status is suspended, orders need working' });
  });
});
