/**
 * Per-second request budgets, as the exchange enforces them: a fixed one-second window per
 * bucket (an IP for public requests, an API key for trading and other requests). A refused
 * request is not counted, so a client that backs off gets through in the next window.
 */
export class RequestBudget {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number) {}

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
