import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPORTIONAL_QUEUE, TRADES_ONLY_QUEUE, queueModelNamed } from '../../../../backtest/venue/matching/queue-model.js';

const lots = fc.integer({ min: 0, max: 2 ** 40 });

describe('queue models', () => {
  it('both join behind the whole level', () => {
    for (const model of [TRADES_ONLY_QUEUE, PROPORTIONAL_QUEUE]) {
      expect(model.aheadOnArrival(0)).toBe(0);
      expect(model.aheadOnArrival(17)).toBe(17);
    }
  });

  it('trades-only moves us only when the level becomes smaller than the lots ahead', () => {
    expect(TRADES_ONLY_QUEUE.aheadAfterDepthChange(10, 20, 12, 0)).toBe(10);
    expect(TRADES_ONLY_QUEUE.aheadAfterDepthChange(10, 20, 4, 0)).toBe(4);
    expect(TRADES_ONLY_QUEUE.aheadAfterDepthChange(10, 20, 30, 0)).toBe(10);
  });

  it('proportional spreads unexplained cancels over the level, rounding against us', () => {
    // 10 ahead of 30: a third of 9 cancelled lots come from ahead.
    expect(PROPORTIONAL_QUEUE.aheadAfterDepthChange(10, 30, 21, 0)).toBe(7);
    // 10 ahead of 30, 10 cancelled: 3.33 from ahead, rounded down to 3.
    expect(PROPORTIONAL_QUEUE.aheadAfterDepthChange(10, 30, 20, 0)).toBe(7);
    // Trades explain 6 of the 9-lot drop: only 3 are cancels, 1 of them ahead.
    expect(PROPORTIONAL_QUEUE.aheadAfterDepthChange(10, 30, 21, 6)).toBe(9);
    // More trades than the drop: the feed lags; only clamp.
    expect(PROPORTIONAL_QUEUE.aheadAfterDepthChange(10, 30, 28, 6)).toBe(10);
    // Cancels beyond what stands behind us come from ahead.
    expect(PROPORTIONAL_QUEUE.aheadAfterDepthChange(10, 12, 3, 0)).toBe(3);
    // Products beyond 2^53 stay exact.
    expect(PROPORTIONAL_QUEUE.aheadAfterDepthChange(2 ** 40, 2 ** 41, 2 ** 40, 0)).toBe(2 ** 39);
  });

  it('results are integers within [0, min(ahead, next)], proportional never behind trades-only', () => {
    fc.assert(fc.property(lots, lots, lots, lots, (a, p, n, t) => {
      const ahead = Math.min(a, p);
      const conservative = TRADES_ONLY_QUEUE.aheadAfterDepthChange(ahead, p, n, t);
      const proportional = PROPORTIONAL_QUEUE.aheadAfterDepthChange(ahead, p, n, t);
      for (const v of [conservative, proportional]) {
        expect(Number.isSafeInteger(v) && v >= 0 && v <= Math.min(ahead, n)).toBe(true);
      }
      expect(proportional).toBeLessThanOrEqual(conservative);
    }));
  });

  it('power and log weights put cancels where their function says, rounding against us', () => {
    // 10 ahead, 20 behind, 9 cancelled. power:2: 100 / (100 + 400) = 0.2 of 9 -> 1.8 -> 1 from ahead.
    expect(queueModelNamed('power:2').aheadAfterDepthChange(10, 30, 21, 0)).toBe(9);
    // log: ln 11 / (ln 11 + ln 21) = 0.4406 of 9 -> 3.97 -> 3 from ahead.
    expect(queueModelNamed('log').aheadAfterDepthChange(10, 30, 21, 0)).toBe(7);
    // power:1 is the proportional model.
    expect(queueModelNamed('power:1').aheadAfterDepthChange(10, 30, 21, 0)).toBe(PROPORTIONAL_QUEUE.aheadAfterDepthChange(10, 30, 21, 0));
    // 10 ahead, 2 behind, 9 cancelled: power:3 gives 1000 / 1008 of 9 -> 8.93 -> 8 from ahead, 1 behind.
    expect(queueModelNamed('power:3').aheadAfterDepthChange(10, 12, 3, 0)).toBe(2);
    // power:0.5: sqrt 10 / (sqrt 10 + sqrt 2) = 0.691 of 9 -> 6 from ahead, 3 behind (only 2 there): 7 from ahead.
    expect(queueModelNamed('power:0.5').aheadAfterDepthChange(10, 12, 3, 0)).toBe(3);
  });

  it('probabilistic models stay within [0, min(ahead, next)] and never behind trades-only', () => {
    const models = ['power:0.5', 'power:2', 'log'].map((name) => queueModelNamed(name));
    fc.assert(fc.property(lots, lots, lots, lots, (a, p, n, t) => {
      const ahead = Math.min(a, p);
      const conservative = TRADES_ONLY_QUEUE.aheadAfterDepthChange(ahead, p, n, t);
      for (const model of models) {
        const v = model.aheadAfterDepthChange(ahead, p, n, t);
        expect(Number.isSafeInteger(v) && v >= 0 && v <= Math.min(ahead, n)).toBe(true);
        expect(v).toBeLessThanOrEqual(conservative);
      }
    }));
  });

  it('names a model by config text, and refuses anything else naming the field', () => {
    expect(queueModelNamed('trades-only')).toBe(TRADES_ONLY_QUEUE);
    expect(queueModelNamed('power:1.5').name).toBe('power:1.5');
    expect(() => queueModelNamed('power:0', 'backtest.queueModel')).toThrow(/^backtest\.queueModel: must be trades-only, proportional, log or power:N/);
    expect(() => queueModelNamed('fifo', 'backtest.queueModel')).toThrow(/must be trades-only/);
  });
});
