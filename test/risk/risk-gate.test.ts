import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../framework/model/errors.js';
import { RiskGate } from '../../framework/risk/risk-gate.js';
import { cancel, d, place, spotState } from './risk-fixtures.js';

describe('RiskGate', () => {
  it('passes and reserves, so the next intent cannot spend the same funds', () => {
    const state = spotState({ USDT: '3000' });
    const gate = new RiskGate({}, state.ledger, state.rateWindow);
    const first = gate.evaluate(place({ side: 'buy', quantity: '1', price: '2000' }), state);
    expect(first.kind).toBe('passed');
    expect(state.ledger.reserved('USDT').toFixed()).toBe('2005');
    const second = gate.evaluate(place({ side: 'buy', quantity: '1', price: '2000' }), state);
    expect(second).toMatchObject({ kind: 'denied', check: 'balance', time: state.now });
    expect(state.ledger.reserved('USDT').toFixed()).toBe('2005');
    expect(state.ordersSentAfter(state.now - 1)).toBe(1);
  });

  it('returns the first denial in the fixed order, as a report, without reserving', () => {
    const state = spotState({ USDT: '0' });
    const gate = new RiskGate({ priceBand: '0.01' }, state.ledger, state.rateWindow);
    // Off-grid, out of band and unfunded: the grid check runs first.
    const report = gate.evaluate(place({ side: 'buy', quantity: '1', price: '3000.001' }), state);
    expect(report).toMatchObject({ kind: 'denied', check: 'grid' });
    expect(gate.evaluate(place({ side: 'buy', quantity: '1', price: '3000' }), state)).toMatchObject({ check: 'price-band' });
    expect(state.ledger.reserved('USDT').isZero()).toBe(true);
    expect(state.ordersSentAfter(0)).toBe(0);
  });

  it('rolls back the legs already reserved when a later leg cannot be', () => {
    const state = spotState({ USDT: '2005', ETH: '0' });
    // The balance check is off, the ledger is not: the second leg fails at reservation time.
    const gate = new RiskGate({ checks: ['grid', 'market-buy-reserve'] }, state.ledger, state.rateWindow);
    const leg = (price: string) => ({ symbol: 'ETHUSDT', side: 'buy' as const, type: 'limit' as const, quantity: d('1'), price: d(price) });
    const report = gate.evaluate({ kind: 'orderList', intentId: 'l', strategyId: 's', contingencyType: 'allOrNone', orders: [leg('2000'), leg('2000')] }, state);
    expect(report).toMatchObject({ kind: 'denied', check: 'balance' });
    expect(state.ledger.reserved('USDT').isZero()).toBe(true);
  });

  it('lets cancels through and reserves nothing for them', () => {
    const state = spotState({ USDT: '0' });
    const gate = new RiskGate({}, state.ledger, state.rateWindow);
    expect(gate.evaluate(cancel(), state)).toMatchObject({ kind: 'passed', reservations: [] });
  });

  it('validates its config, naming the field', () => {
    const state = spotState();
    expect(() => new RiskGate({ priceBand: '-1' }, state.ledger, state.rateWindow)).toThrow(ValidationError);
    expect(() => new RiskGate({ checks: ['balance', 'nope'] }, state.ledger, state.rateWindow)).toThrow(/risk.checks\[1\]/);
  });
});
