import { ErrorCode } from '../../framework/exchange/errors.js';
import { VenueRejection } from '../venue/venue-types.js';
import type { SandboxRateLimits } from './sandbox-config.js';

/**
 * Which documented budget a request spends (document 000, Limits): `public` per IP (market data
 * over REST), `publicStream` per IP (subscribe, unsubscribe and subscriptions on the public
 * stream; the same rate, counted apart from REST so a bot's subscriptions do not starve its REST
 * market data), `trading` per API key (place, replace, cancel, over REST or a stream alike),
 * `other` per API key (every other authenticated request, over REST or a stream).
 */
export type BudgetScope = 'public' | 'publicStream' | 'trading' | 'other';

/** A 429 carrying when the window resets. */
export class RateLimited extends VenueRejection {
  constructor(readonly retryAfterMs: number) {
    super(ErrorCode.TooManyRequests, 'rate limit exceeded');
  }
}

/**
 * Per-second request budgets, as the exchange enforces them: a fixed one-second window per
 * bucket (an IP for public requests, an API key for trading and other requests). A refused
 * request is not counted, so a client that backs off gets through in the next window. One
 * instance serves REST and the streams, so a key's trading budget is one whatever carries it.
 */
export class RequestBudget {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly now: () => number,
    private readonly limits?: SandboxRateLimits,
  ) {}

  /**
   * Spends one request of `scope` for `who` (the client's IP for the public scopes, the API key
   * otherwise); throws {@link RateLimited} (429) when the scope's budget for this second is spent.
   */
  spend(scope: BudgetScope, who: string): void {
    const limits = this.limits;
    if (limits === undefined) throw new Error('RequestBudget.spend needs the rate limits');
    const perSecond = scope === 'trading' ? limits.tradingPerSecond : scope === 'other' ? limits.otherPerSecond : limits.publicPerSecond;
    const { ok, retryAfterMs } = this.take(`${scope}:${who}`, perSecond);
    if (!ok) throw new RateLimited(retryAfterMs);
  }

  /** Spends one request of `bucket`; false (and ms until the window resets) when over `perSecond`. */
  take(bucket: string, perSecond: number): { readonly ok: boolean; readonly retryAfterMs: number } {
    const now = this.now();
    let window = this.windows.get(bucket);
    if (window === undefined || now - window.start >= 1000) {
      window = { start: now, count: 0 };
      this.windows.set(bucket, window);
      if (this.windows.size > 10_000) this.prune(now);
    }
    if (window.count >= perSecond) return { ok: false, retryAfterMs: Math.max(1, window.start + 1000 - now) };
    window.count++;
    return { ok: true, retryAfterMs: 0 };
  }

  private prune(now: number): void {
    for (const [bucket, window] of this.windows) if (now - window.start >= 1000) this.windows.delete(bucket);
  }
}
