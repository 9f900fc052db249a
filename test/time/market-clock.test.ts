import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketClock } from '../../framework/time/market-clock.js';

/** A wall clock the test moves by hand. */
function wall(start = 1_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('MarketClock', () => {
  it('runs on from its start at rate times the wall clock', () => {
    const w = wall();
    const clock = new MarketClock({ start: 1_700_000_000_000, rate: 10, wallNow: w.now });
    w.advance(250);
    expect(clock.now()).toBe(1_700_000_002_500);
  });

  it('follows an exchange time ahead of it and runs on from there', () => {
    const w = wall();
    const clock = new MarketClock({ start: 5_000, wallNow: w.now });
    clock.observe(9_000);
    expect(clock.now()).toBe(9_000);
    w.advance(40);
    expect(clock.now()).toBe(9_040);
  });

  it('ignores an exchange time behind it: market time never goes back', () => {
    const w = wall();
    const clock = new MarketClock({ start: 5_000, wallNow: w.now });
    w.advance(100);
    clock.observe(4_000);
    expect(clock.now()).toBe(5_100);
  });

  it('waiting for the market, stands at its start until the first exchange time, then runs from it', () => {
    const w = wall();
    const clock = new MarketClock({ start: 1_723_075_200_000, rate: 20, waitForMarket: true, wallNow: w.now });
    w.advance(3_000); // the bot's start-up: no market time passes
    expect(clock.now()).toBe(1_723_075_200_000);
    clock.observe(1_723_075_199_990); // the first frame, stamped a little before the replay's start
    expect(clock.now()).toBe(1_723_075_200_000);
    w.advance(50);
    expect(clock.now()).toBe(1_723_075_201_000);
  });

  it('never goes back, whatever the exchange times and the wall steps', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: -5_000, max: 5_000 })), { maxLength: 50 }),
      (steps) => {
        const w = wall();
        const clock = new MarketClock({ start: 100_000, rate: 3, wallNow: w.now });
        let previous = clock.now();
        for (const [wallStep, offset] of steps) {
          w.advance(wallStep);
          clock.observe(previous + offset);
          const now = clock.now();
          expect(now).toBeGreaterThanOrEqual(previous);
          expect(now).toBeGreaterThanOrEqual(previous + offset);
          previous = now;
        }
      },
    ));
  });

  it('refuses a rate that is not a finite positive number', () => {
    expect(() => new MarketClock({ start: 0, rate: 0 })).toThrow(/rate/);
    expect(() => new MarketClock({ start: 0, rate: Infinity })).toThrow(/rate/);
  });
});
