import { describe, expect, it } from 'vitest';
import { msToNanos } from '../../../../backtest/venue/futures/position-history.js';

describe('msToNanos', () => {
  it('converts whole ms exactly, beyond 2^53 nanoseconds', () => {
    expect(msToNanos(1_704_067_200_000)).toBe(1_704_067_200_000_000_000n);
  });

  it('keeps the fraction of a receive time (to the nearest ns the double holds) instead of failing on it', () => {
    expect(msToNanos(1_704_066_962_953.5)).toBe(1_704_066_962_953_500_000n);
    expect(msToNanos(0.25)).toBe(250_000n);
    // 1704066962953.558 is held as 1704066962953.55810546875: 558 105 ns after the whole ms.
    expect(msToNanos(1_704_066_962_953.558)).toBe(1_704_066_962_953_558_105n);
  });
});
