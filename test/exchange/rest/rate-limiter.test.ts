import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DOCUMENTED_RATE_LIMITS, RateLimiter } from '../../../framework/exchange/rest/rate-limiter.js';
import type { RateScope } from '../../../framework/exchange/rest/rest-request.js';
import { ConnectionStateError } from '../../../framework/exchange/errors.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { VirtualTimers, flushMicrotasks } from '../../support/virtual-timers.js';

let limiters: RateLimiter[] = [];
afterEach(() => {
  for (const limiter of limiters) limiter.close();
  limiters = [];
});

function setup(options: Partial<ConstructorParameters<typeof RateLimiter>[0]> = {}) {
  const timers = new VirtualTimers();
  const limiter = new RateLimiter({ clock: timers.clock, timers, ...options });
  limiters.push(limiter);
  const admitted: Array<{ label: string; at: number }> = [];
  const take = (scope: RateScope, label: string = scope): Promise<void> =>
    limiter.acquire(scope).then(() => {
      admitted.push({ label, at: timers.clock.now() });
    }).catch(() => undefined);
  return { timers, limiter, admitted, take };
}

describe('RateLimiter', () => {
  it('has the documented budgets', () => {
    expect(DOCUMENTED_RATE_LIMITS).toEqual({
      public: { requests: 30, perMs: 1000 },
      trading: { requests: 300, perMs: 1000 },
      other: { requests: 20, perMs: 1000 },
    });
  });

  it('admits the budget at once, then waits one window for the next, in FIFO order', async () => {
    const { timers, admitted, take } = setup({ limits: { other: { requests: 3, perMs: 1000 } } });
    for (const label of ['a', 'b', 'c', 'd', 'e']) void take('other', label);
    await flushMicrotasks();
    expect(admitted.map((a) => a.label)).toEqual(['a', 'b', 'c']);
    await timers.advanceBy(999);
    expect(admitted).toHaveLength(3);
    await timers.advanceBy(1);
    expect(admitted.map((a) => `${a.label}@${a.at}`)).toEqual(['a@0', 'b@0', 'c@0', 'd@1000', 'e@1000']);
  });

  it('keeps scopes apart', async () => {
    const { admitted, take } = setup({ limits: { other: { requests: 1, perMs: 1000 } } });
    void take('other', 'o1');
    void take('other', 'o2');
    void take('public', 'p1');
    await flushMicrotasks();
    expect(admitted.map((a) => a.label)).toEqual(['o1', 'p1']);
  });

  it('waits on one timer, not by polling', async () => {
    const { timers, admitted, take } = setup({ limits: { trading: { requests: 2, perMs: 1000 } } });
    for (let i = 0; i < 10; i++) void take('trading');
    await timers.advanceBy(10_000);
    expect(admitted).toHaveLength(10);
    // Ten admissions, two per window: four waits in all, each a single timer.
    expect(timers.scheduled).toBe(4);
  });

  it('pauses a scope for Retry-After after a 429', async () => {
    const { timers, limiter, admitted, take } = setup();
    expect(limiter.pause('public', 2500)).toBe(2500);
    void take('public');
    await timers.advanceBy(2499);
    expect(admitted).toHaveLength(0);
    await timers.advanceBy(1);
    expect(admitted.map((a) => a.at)).toEqual([2500]);
  });

  it('backs off exponentially after 429s without Retry-After, and resets on success', () => {
    const { limiter } = setup({ backoff: { baseMs: 100, maxMs: 500 } });
    expect([1, 2, 3, 4, 5].map(() => limiter.pause('other'))).toEqual([100, 200, 400, 500, 500]);
    limiter.noteSuccess('other');
    expect(limiter.pause('other')).toBe(100);
  });

  it('extends the wait of callers already queued when a pause arrives', async () => {
    const { timers, limiter, admitted, take } = setup({ limits: { other: { requests: 1, perMs: 1000 } } });
    void take('other', 'first');
    void take('other', 'second');
    await flushMicrotasks();
    limiter.pause('other', 3000);
    await timers.advanceBy(2999);
    expect(admitted.map((a) => a.label)).toEqual(['first']);
    await timers.advanceBy(1);
    expect(admitted.map((a) => `${a.label}@${a.at}`)).toEqual(['first@0', 'second@3000']);
  });

  it('admits at once only within the budget and behind nobody', async () => {
    const { limiter, timers } = setup({ limits: { other: { requests: 2, perMs: 1000 } } });
    expect([limiter.tryAcquire('other'), limiter.tryAcquire('other'), limiter.tryAcquire('other')]).toEqual([true, true, false]);
    // A request queued for the next slot keeps its turn: a later one is not let through before it.
    const queued = limiter.acquire('other');
    await timers.advanceBy(1000);
    await queued;
    expect(limiter.tryAcquire('other')).toBe(true);
    expect(limiter.tryAcquire('other')).toBe(false);
    limiter.close();
    await timers.advanceBy(5000);
    expect(limiter.tryAcquire('other')).toBe(false);
  });

  it('rejects waiters when closed', async () => {
    const { limiter } = setup({ limits: { other: { requests: 1, perMs: 1000 } } });
    await limiter.acquire('other');
    const waiting = limiter.acquire('other');
    limiter.close();
    await expect(waiting).rejects.toBeInstanceOf(ConnectionStateError);
  });

  it('refuses a budget that is not a positive integer', () => {
    const timers = new VirtualTimers();
    expect(() => new RateLimiter({ clock: timers.clock, timers, limits: { public: { requests: 0, perMs: 1000 } } })).toThrow(ValidationError);
    expect(() => new RateLimiter({ clock: timers.clock, timers, limits: { public: { requests: 2, perMs: -1 } } })).toThrow(/perMs/);
  });

  it('never admits more than the budget in any window, whatever the schedule', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 50, max: 1000 }),
        fc.array(
          fc.record({ gap: fc.nat({ max: 700 }), burst: fc.integer({ min: 1, max: 12 }), pauseMs: fc.option(fc.nat({ max: 1500 })) }),
          { minLength: 1, maxLength: 25 },
        ),
        async (requests, perMs, schedule) => {
          const { timers, limiter, admitted, take } = setup({ limits: { trading: { requests, perMs } } });
          let asked = 0;
          for (const step of schedule) {
            await timers.advanceBy(step.gap);
            if (step.pauseMs !== null) limiter.pause('trading', step.pauseMs);
            for (let i = 0; i < step.burst; i++) void take('trading', String(asked++));
          }
          await timers.advanceBy(perMs * asked + 5000);
          expect(admitted).toHaveLength(asked);
          expect(admitted.map((a) => a.label)).toEqual(admitted.map((_, i) => String(i)));
          const times = admitted.map((a) => a.at);
          for (let i = 0; i + requests < times.length; i++) {
            // requests+1 consecutive admissions always span at least one full window.
            expect((times[i + requests] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(perMs);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
