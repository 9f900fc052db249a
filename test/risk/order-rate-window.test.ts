import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderRateWindow } from '../../framework/risk/order-rate-window.js';

describe('OrderRateWindow', () => {
  it('property: counts what a list of every request says, forgets only times no later window holds, and counting changes nothing', () => {
    const steps = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 50 }), requests: fc.integer({ min: 0, max: 3 }), askAgo: fc.integer({ min: 0, max: 400 }) }), { maxLength: 200 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 300 }), steps, (windowMs, list) => {
      const window = new OrderRateWindow(2);
      const all: number[] = [];
      let now = 1_000;
      for (const { gap, requests, askAgo } of list) {
        now += gap;
        const since = now - Math.min(askAgo, windowMs);
        const expected = all.filter((t) => t > since).length;
        expect(window.countAfter(since)).toBe(expected);
        expect(window.countAfter(since)).toBe(expected);
        window.record(now, requests, now - windowMs);
        for (let i = 0; i < requests; i++) all.push(now);
      }
    }), { numRuns: 200 });
  });

  it('keeps every time when told to forget nothing', () => {
    const window = new OrderRateWindow(1);
    for (let t = 0; t < 100; t++) window.record(t);
    expect(window.countAfter(-1)).toBe(100);
    expect(window.countAfter(49)).toBe(50);
    expect(window.countAfter(-1)).toBe(100);
  });
});
