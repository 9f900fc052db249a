import { describe, expect, it } from 'vitest';
import type { Intent } from '../../framework/model/intent.js';
import { flattenIntents, killSwitchCheck, shouldFlatten } from '../../framework/risk/kill-switch.js';
import { cancel, config, d, futuresInstrument, place, spotState } from './risk-fixtures.js';

const cfg = config({ killSwitch: { maxDrawdown: '0.2', maxDailyLoss: '150', flatten: true } });

function halted(current: string, dayStart = '1000') {
  const state = spotState();
  state.equity = { current: d(current), peak: d('1000'), dayStart: d(dayStart) };
  state.positionsBySymbol.set('ETHUSDT', d('1'));
  return state;
}

describe('killSwitchCheck', () => {
  const buy = place({ side: 'buy', quantity: '1', price: '2000' });

  it('engages exactly at the max drawdown', () => {
    expect(killSwitchCheck(buy, halted('800.01', '900'), cfg)).toBeUndefined();
    expect(killSwitchCheck(buy, halted('800', '900'), cfg)).toEqual({
      check: 'kill-switch',
      reason: 'halted: drawdown 200 from peak 1000 reached max drawdown 20 %; only cancels and reducing orders pass',
    });
  });

  it('follows the equity as it is revalued, with one config and one view across intents', () => {
    const state = halted('900');
    expect(killSwitchCheck(buy, state, cfg)).toBeUndefined();
    state.equity = { current: d('800'), peak: d('1000'), dayStart: d('900') };
    expect(killSwitchCheck(buy, state, cfg)?.reason).toMatch(/drawdown 200 from peak 1000/);
    state.equity = { current: d('800'), peak: d('1000'), dayStart: d('950') };
    expect(killSwitchCheck(buy, state, cfg)?.reason).toMatch(/drawdown 200 from peak 1000/);
    state.equity = { current: d('900'), peak: d('1000'), dayStart: d('950') };
    expect(killSwitchCheck(buy, state, cfg)).toBeUndefined();
    state.equity = { current: d('900'), peak: d('1000'), dayStart: d('1050') };
    expect(killSwitchCheck(buy, state, cfg)?.reason).toMatch(/daily loss 150/);
  });

  it('engages exactly at the max daily loss', () => {
    expect(killSwitchCheck(buy, halted('900', '1049.99'), cfg)).toBeUndefined();
    expect(killSwitchCheck(buy, halted('900', '1050'), cfg)?.reason).toMatch(/daily loss 150 reached max daily loss 150/);
  });

  it('when halted, lets cancels, closes and reducing orders through', () => {
    const state = halted('700');
    const close: Intent = { kind: 'closePosition', intentId: 'x', strategyId: 's', symbol: 'ETHUSDT' };
    expect(killSwitchCheck(cancel(), state, cfg)).toBeUndefined();
    expect(killSwitchCheck({ kind: 'cancelAll', intentId: 'y', strategyId: 's' }, state, cfg)).toBeUndefined();
    expect(killSwitchCheck(close, state, cfg)).toBeUndefined();
    expect(killSwitchCheck(place({ side: 'sell', quantity: '1', price: '2000' }), state, cfg)).toBeUndefined();
    expect(killSwitchCheck(place({ side: 'sell', quantity: '1.0001', price: '2000' }), state, cfg)?.check).toBe('kill-switch');
    expect(killSwitchCheck(place({ side: 'buy', quantity: '1', price: '2000', reduceOnly: true }), state, cfg)).toBeUndefined();
  });

  it('flattens on request: cancel all, sell spot holdings, close futures positions', () => {
    const state = halted('700');
    const perp = futuresInstrument();
    state.instruments.set(perp.symbol, perp);
    state.positionsBySymbol.set('ETHUSDT', d('1.23456'));
    state.positionsBySymbol.set(perp.symbol, d('-2'));
    expect(shouldFlatten(state, cfg)).toBe(true);
    expect(shouldFlatten(halted('900'), cfg)).toBe(false);
    const intents = flattenIntents(state);
    expect(intents.map((i) => i.kind)).toEqual(['cancelAll', 'place', 'closePosition']);
    const sell = intents[1];
    expect(sell?.kind === 'place' && sell.side === 'sell' && sell.type === 'market' && sell.quantity.toFixed()).toBe('1.2345');
    expect(new Set(intents.map((i) => i.intentId)).size).toBe(3);
  });
});
