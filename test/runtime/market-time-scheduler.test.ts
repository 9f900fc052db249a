import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketTimeScheduler } from '../../framework/runtime/market-time-scheduler.js';
import { StrategyTimers } from '../../framework/runtime/strategy-timers.js';
import { MarketClock } from '../../framework/time/market-clock.js';

// Strategy timers of a paper bot replaying at 10x: delays are market milliseconds, and the clock
// the handler reads is market time, not the wall clock's date.

const START = Date.UTC(2024, 7, 8, 12, 0, 0);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function tenTimesFaster(): { clock: MarketClock; timers: StrategyTimers; fired: { id: string; at: number }[] } {
  const clock = new MarketClock({ start: START, rate: 10, wallNow: () => Date.now() });
  const fired: { id: string; at: number }[] = [];
  const timers = new StrategyTimers(new MarketTimeScheduler(clock, 10), (id) => fired.push({ id, at: clock.now() }));
  return { clock, timers, fired };
}

describe('MarketTimeScheduler', () => {
  it('fires a 60 s timer after 60 s of market time: 6 s of wall time at 10x', () => {
    const { timers, fired } = tenTimesFaster();
    timers.set('candle', 60_000, false);
    vi.advanceTimersByTime(5_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([{ id: 'candle', at: START + 60_000 }]);
  });

  it('repeats at the market period', () => {
    const { timers, fired } = tenTimesFaster();
    timers.set('tick', 1_000, true);
    vi.advanceTimersByTime(350);
    expect(fired.map((f) => f.at)).toEqual([START + 1_000, START + 2_000, START + 3_000]);
  });

  it('a cleared timer does not fire', () => {
    const { timers, fired } = tenTimesFaster();
    timers.set('once', 1_000, false);
    timers.clear('once');
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual([]);
  });

  it('tells market time as now', () => {
    const clock = new MarketClock({ start: START, rate: 10, wallNow: () => Date.now() });
    const scheduler = new MarketTimeScheduler(clock, 10);
    vi.advanceTimersByTime(100);
    expect(scheduler.now()).toBe(START + 1_000);
  });
});
