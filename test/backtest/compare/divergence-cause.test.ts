import { describe, expect, it } from 'vitest';
import { judgePair } from '../../../backtest/compare/divergence-cause.js';
import type { RunFill } from '../../../backtest/compare/run-folder.js';
import { frame, runFill } from './support/run-fill.js';

const judge = (a: RunFill | undefined, b: RunFill | undefined, toleranceMs = 0) => judgePair({ a, b, matchedBy: 'intent' }, { toleranceMs });
const cause = (a: RunFill | undefined, b: RunFill | undefined, toleranceMs = 0): string => {
  const verdict = judge(a, b, toleranceMs);
  return verdict.identical ? 'identical' : verdict.cause;
};

describe('judgePair', () => {
  const a = runFill(1, { orderCreatedAt: 900 });

  it('finds fills identical when time, side, price, quantity, fee and maker/taker agree', () => {
    expect(cause(a, runFill(1, { orderCreatedAt: 900, clientOrderId: 'other', tradeId: 'other' }))).toBe('identical');
    // Times within the tolerance are equal; beyond it they are not.
    expect(cause(a, runFill(1, { time: 1_003 }), 3)).toBe('identical');
    expect(cause(a, runFill(1, { time: 1_004 }), 3)).not.toBe('identical');
  });

  it('names a fill one run lacks as missing, saying which run has it', () => {
    expect(judge(a, undefined)).toEqual({ identical: false, cause: 'missing', detail: 'only in A: buy 1 BTCUSDT @ 100' });
    expect(judge(undefined, runFill(2, { side: 'sell', price: '101.5' }))).toEqual({ identical: false, cause: 'missing', detail: 'only in B: sell 1 BTCUSDT @ 101.5' });
  });

  it('names a later decision frame in B a late frame, an earlier or other one a different frame', () => {
    expect(cause(a, runFill(1, { decision: frame(12), price: '99' }))).toBe('late-frame');
    expect(cause(a, runFill(1, { decision: frame(8), time: 1_500 }))).toBe('different-frame');
    expect(cause(a, runFill(1, { decision: frame(12, { symbol: 'ETHUSDT' }), time: 1_500 }))).toBe('different-frame');
    // Without sequences, frames compare by exchange time, then receive time.
    const noSeq = (exchangeTime: number | undefined, receivedAt: number) => ({ symbol: 'BTCUSDT', receivedAt, index: 1, ...(exchangeTime === undefined ? {} : { exchangeTime }) });
    expect(cause(runFill(1, { decision: noSeq(400, 500) }), runFill(1, { decision: noSeq(401, 500), price: '99' }))).toBe('late-frame');
    expect(cause(runFill(1, { decision: noSeq(undefined, 500) }), runFill(1, { decision: noSeq(undefined, 499), price: '99' }))).toBe('different-frame');
    expect(judge(a, runFill(1, { decision: frame(12), price: '99' }))).toMatchObject({ detail: 'B decided on BTCUSDT seq 12 at 412, A on BTCUSDT seq 10 at 410' });
  });

  it('on the same frame, names a price difference first', () => {
    expect(judge(a, runFill(1, { price: '100.5', time: 1_700 }))).toEqual({ identical: false, cause: 'price', detail: 'price 100 in A, 100.5 in B' });
    // A fill without a decision frame (an adopted order) is judged on the rest.
    expect(cause(a, runFill(1, { decision: undefined, price: '99' }))).toBe('price');
  });

  it('names an order that reached the venue at another time latency', () => {
    expect(judge(a, runFill(1, { orderCreatedAt: 950, time: 1_050 }))).toEqual({
      identical: false, cause: 'latency', detail: 'order reached the venue at 900 in A, 950 in B (+50 ms)',
    });
  });

  it('names a resting order that filled at another time or for another quantity, having arrived alike, queue position', () => {
    expect(judge(a, runFill(1, { orderCreatedAt: 900, time: 1_250 }))).toEqual({ identical: false, cause: 'queue-position', detail: 'resting order filled time +250 ms in B' });
    expect(cause(a, runFill(1, { orderCreatedAt: 900, quantity: '0.5' }))).toBe('queue-position');
    // Without the orders' arrival times, a taker fill at another time is put down to latency.
    expect(cause(runFill(1, { liquidity: 'taker' }), runFill(1, { liquidity: 'taker', time: 1_020 }))).toBe('latency');
    expect(cause(a, runFill(1, { liquidity: 'taker', orderCreatedAt: 900 }))).toBe('latency');
  });

  it('names a difference of fee alone fee', () => {
    expect(judge(a, runFill(1, { fee: '0.2' }))).toEqual({ identical: false, cause: 'fee', detail: 'fee 0.1 in A, 0.2 in B' });
  });
});

describe('judgePair times', () => {
  it('compares times in whole milliseconds: a backtest clock\'s fraction is no difference', () => {
    expect(judgePair({ a: runFill(1, { time: 1_000.75 }), b: runFill(1, { time: 1_000 }), matchedBy: 'intent' }, { toleranceMs: 0 })).toEqual({ identical: true });
    expect(judgePair({ a: runFill(1, { time: 1_000.75 }), b: runFill(1, { time: 1_001 }), matchedBy: 'intent' }, { toleranceMs: 0 }).identical).toBe(false);
  });
});
