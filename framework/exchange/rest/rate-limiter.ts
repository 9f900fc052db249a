import type { Clock } from '../../time/clock.js';
import { ValidationError } from '../../model/errors.js';
import { ConnectionStateError } from '../errors.js';
import type { RateScope } from './rest-request.js';

/** An opaque handle returned by {@link Timers.set}. */
export type TimerHandle = unknown;

/**
 * The one timer primitive the REST transport needs, injectable so that tests run the limiter and
 * the retry backoff on virtual time (see test/support/virtual-timers.ts).
 */
export interface Timers {
  set(callback: () => void, ms: number): TimerHandle;
  clear(handle: TimerHandle): void;
}

/** Node's own timers. */
export const realTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` on `timers`. */
export function sleep(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => {
    timers.set(resolve, Math.max(0, ms));
  });
}

/** A budget: at most `requests` admissions in any window of `perMs` milliseconds. */
export interface RateBudget {
  readonly requests: number;
  readonly perMs: number;
}

/** One budget per {@link RateScope}. */
export type RateLimits = Readonly<Record<RateScope, RateBudget>>;

/** Document 000, Limits: public 30/s per IP, trading 300/s per user, other authenticated 20/s per user. */
export const DOCUMENTED_RATE_LIMITS: RateLimits = {
  public: { requests: 30, perMs: 1000 },
  trading: { requests: 300, perMs: 1000 },
  other: { requests: 20, perMs: 1000 },
};

/** Options of {@link RateLimiter}. */
export interface RateLimiterOptions {
  readonly clock: Clock;
  readonly timers?: Timers;
  /** Overrides of the documented budgets (for example a lower share when several bots use one key). */
  readonly limits?: Partial<RateLimits>;
  /** Pause after a 429 that carries no Retry-After: `baseMs * 2^(n-1)` for the n-th 429 in a row, capped. */
  readonly backoff?: { readonly baseMs: number; readonly maxMs: number };
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

interface ScopeState {
  readonly budget: RateBudget;
  /** Times of the last `budget.requests` admissions, a ring; `next` is the oldest once full. */
  readonly spent: number[];
  next: number;
  pausedUntil: number;
  consecutiveRateLimits: number;
  /** FIFO queue; entries before `head` are served and cleared. */
  readonly waiters: Array<Waiter | undefined>;
  head: number;
  timer: TimerHandle | undefined;
  timerDue: number;
}

const SCOPES: readonly RateScope[] = ['public', 'trading', 'other'];

/**
 * Client-side rate limiter that keeps normal use clear of the exchange's 429s.
 *
 * Each scope is a token bucket of `requests` tokens where a spent token comes back exactly
 * `perMs` after it was spent (a sliding-window log). Unlike a bucket refilled continuously, this
 * guarantees that no window of `perMs` ever admits more than the budget, whatever the burst
 * pattern. Callers wait in FIFO order on a single timer per scope (no polling). After a 429 the
 * scope is paused for Retry-After, or for an exponential backoff when the exchange gave none.
 */
export class RateLimiter {
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly backoff: { readonly baseMs: number; readonly maxMs: number };
  private readonly scopes: Record<RateScope, ScopeState>;
  private closed = false;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.timers = options.timers ?? realTimers;
    this.backoff = options.backoff ?? { baseMs: 1000, maxMs: 30_000 };
    checkPositive('backoff.baseMs', this.backoff.baseMs);
    checkPositive('backoff.maxMs', this.backoff.maxMs);
    const limits = { ...DOCUMENTED_RATE_LIMITS, ...options.limits };
    const state = (scope: RateScope): ScopeState => {
      const budget = limits[scope];
      if (!Number.isSafeInteger(budget.requests) || budget.requests < 1) {
        throw new ValidationError(`limits.${scope}.requests`, 'must be a positive integer', budget.requests);
      }
      checkPositive(`limits.${scope}.perMs`, budget.perMs);
      return {
        budget, spent: [], next: 0, pausedUntil: -Infinity, consecutiveRateLimits: 0,
        waiters: [], head: 0, timer: undefined, timerDue: Infinity,
      };
    };
    this.scopes = { public: state('public'), trading: state('trading'), other: state('other') };
  }

  /** The budget in force for `scope`. */
  budget(scope: RateScope): RateBudget {
    return this.scopes[scope].budget;
  }

  /**
   * Admits a request of `scope` at once when the budget allows it and nobody waits before it:
   * true. False when it would have to wait (or the limiter is closed): {@link acquire} then queues it.
   */
  tryAcquire(scope: RateScope): boolean {
    if (this.closed) return false;
    const s = this.scopes[scope];
    const now = this.clock.now();
    if (s.head !== s.waiters.length || readyAt(s) > now) return false;
    admit(s, now);
    return true;
  }

  /** Resolves when a request of `scope` may be sent; callers are served first come, first served. */
  acquire(scope: RateScope): Promise<void> {
    if (this.closed) return Promise.reject(new ConnectionStateError('rate limiter is closed'));
    if (this.tryAcquire(scope)) return Promise.resolve();
    const s = this.scopes[scope];
    return new Promise<void>((resolve, reject) => {
      s.waiters.push({ resolve, reject });
      this.schedule(s, this.clock.now());
    });
  }

  /** When `scope` could next admit a request, were nobody queued (UNIX ms; may be in the past). */
  readyAt(scope: RateScope): number {
    return readyAt(this.scopes[scope]);
  }

  /**
   * Records a 429 on `scope` and pauses it for `retryAfterMs`, or for the exponential backoff
   * when the exchange gave no Retry-After. Returns the pause applied, in ms.
   */
  pause(scope: RateScope, retryAfterMs?: number): number {
    const s = this.scopes[scope];
    s.consecutiveRateLimits += 1;
    const backoff = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (s.consecutiveRateLimits - 1));
    const pauseMs = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : backoff;
    const now = this.clock.now();
    s.pausedUntil = Math.max(s.pausedUntil, now + pauseMs);
    if (s.head < s.waiters.length) this.schedule(s, now);
    return pauseMs;
  }

  /** Records an answer that was not a 429, which ends the exponential backoff of `scope`. */
  noteSuccess(scope: RateScope): void {
    this.scopes[scope].consecutiveRateLimits = 0;
  }

  /** Rejects every waiter with ConnectionStateError and stops the timers. */
  close(): void {
    this.closed = true;
    for (const scope of SCOPES) {
      const s = this.scopes[scope];
      if (s.timer !== undefined) this.timers.clear(s.timer);
      s.timer = undefined;
      const pending = s.waiters.splice(s.head);
      s.waiters.length = 0;
      s.head = 0;
      for (const waiter of pending) waiter?.reject(new ConnectionStateError('rate limiter is closed'));
    }
  }

  private schedule(s: ScopeState, now: number): void {
    const due = readyAt(s);
    if (s.timer !== undefined) {
      if (s.timerDue === due) return;
      this.timers.clear(s.timer);
    }
    s.timerDue = due;
    // Whole milliseconds, never 0: a timer that fires a hair early just reschedules once.
    const delay = Math.max(1, Math.ceil(due - now));
    s.timer = this.timers.set(() => this.drain(s), delay);
  }

  private drain(s: ScopeState): void {
    s.timer = undefined;
    s.timerDue = Infinity;
    const now = this.clock.now();
    while (s.head < s.waiters.length && readyAt(s) <= now) {
      admit(s, now);
      const waiter = s.waiters[s.head];
      s.waiters[s.head] = undefined;
      s.head += 1;
      waiter?.resolve();
    }
    if (s.head === s.waiters.length) {
      s.waiters.length = 0;
      s.head = 0;
    } else {
      if (s.head > 1024) {
        s.waiters.splice(0, s.head);
        s.head = 0;
      }
      this.schedule(s, now);
    }
  }
}

function readyAt(s: ScopeState): number {
  const oldest = s.spent.length < s.budget.requests ? -Infinity : (s.spent[s.next] ?? -Infinity);
  return Math.max(s.pausedUntil, oldest + s.budget.perMs);
}

function admit(s: ScopeState, now: number): void {
  if (s.spent.length < s.budget.requests) {
    s.spent.push(now);
    return;
  }
  s.spent[s.next] = now;
  s.next = (s.next + 1) % s.budget.requests;
}

function checkPositive(field: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ValidationError(field, 'must be a positive number of ms', value);
  }
}
