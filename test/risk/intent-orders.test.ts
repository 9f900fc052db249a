import { describe, expect, it } from 'vitest';
import { ordersOf } from '../../framework/risk/intent-orders.js';
import { RiskEvaluation, evaluationOf } from '../../framework/risk/risk-evaluation.js';
import { config, place, spotState } from './risk-fixtures.js';

describe('RiskEvaluation', () => {
  it('builds the intent\'s orders once and prices each of them once; each evaluation starts afresh', () => {
    const state = spotState({ USDT: '5000' });
    const intent = place({ side: 'buy', quantity: '1', price: '2000' });
    const evaluation = new RiskEvaluation(intent, state, config());
    const order = evaluation.orders[0];
    if (order === undefined) throw new Error('no order');
    const first = evaluation.netFunds(order);
    expect(first).toBeDefined();
    expect(evaluation.netFunds(order)).toBe(first);
    // An order that is not the evaluation's is priced each time.
    const other = ordersOf(place({ side: 'sell', quantity: '1', price: '2000' }), state)[0]!;
    expect(evaluation.netFunds(other)).not.toBe(evaluation.netFunds(other));
    const next = new RiskEvaluation(intent, state, config());
    expect(next.orders).not.toBe(evaluation.orders);
    expect(next.netFunds(next.orders[0]!)).not.toBe(first);
  });

  it('is what a check builds when called on its own, and what it reuses when given one', () => {
    const state = spotState();
    const intent = place({ side: 'buy', quantity: '1', price: '2000' });
    const evaluation = new RiskEvaluation(intent, state, config());
    expect(evaluationOf(intent, state, config(), evaluation)).toBe(evaluation);
    expect(evaluationOf(intent, state, config())).not.toBe(evaluation);
    expect(evaluationOf(place({ side: 'buy', quantity: '2', price: '2000' }), state, config(), evaluation)).not.toBe(evaluation);
  });
});
