import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPORTIONAL_QUEUE, TRADES_ONLY_QUEUE } from '../../../../backtest/venue/matching/queue-model.js';

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
});
