import type { HttpMethod, RateScope } from './rest-request.js';

/**
 * What the REST transport reports about its work, for logs and metrics. Events carry the method
 * and the path (never the query, headers, body, keys or signatures) and the local time `at` (UNIX
 * ms from the transport's clock).
 */
export type RestEvent =
  | RestRequestSent
  | RestResponseReceived
  | RestRetryScheduled
  | RestRateLimited
  | RestRateLimitWait
  | RestDuplicateResolved
  | RestRequestFailed;

interface RestEventBase {
  readonly at: number;
  readonly method: HttpMethod;
  /** Path relative to `/api/3`, as in the request. */
  readonly path: string;
  readonly scope: RateScope;
  /** 1-based attempt number. */
  readonly attempt: number;
}

/** An attempt went out on the wire. */
export interface RestRequestSent extends RestEventBase {
  readonly kind: 'request-sent';
}

/** An answer arrived (any status). */
export interface RestResponseReceived extends RestEventBase {
  readonly kind: 'response';
  readonly status: number;
  readonly durationMs: number;
}

/** A failed attempt will be repeated after `delayMs`. */
export interface RestRetryScheduled extends RestEventBase {
  readonly kind: 'retry-scheduled';
  /** The stable code of the error that caused the retry (`TIMEOUT`, `NETWORK`, `EXCHANGE_500`, ...). */
  readonly reason: string;
  readonly delayMs: number;
}

/** The exchange answered 429: the scope is paused for `pauseMs`. */
export interface RestRateLimited extends RestEventBase {
  readonly kind: 'rate-limited';
  readonly pauseMs: number;
  /** From the Retry-After header, when it had one. */
  readonly retryAfterMs: number | undefined;
}

/** The client-side limiter held the attempt back for `waitedMs` before sending. */
export interface RestRateLimitWait extends RestEventBase {
  readonly kind: 'rate-limit-wait';
  readonly waitedMs: number;
}

/** A retried order placement was refused as a duplicate id: the first attempt went through and was fetched. */
export interface RestDuplicateResolved extends RestEventBase {
  readonly kind: 'duplicate-resolved';
  readonly clientOrderId: string;
}

/** The request failed for good. */
export interface RestRequestFailed extends RestEventBase {
  readonly kind: 'request-failed';
  readonly errorCode: string;
  readonly outcomeUnknown: boolean;
}
