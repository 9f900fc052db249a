import { TradeloopError, ValidationError } from '../../model/errors.js';
import { ErrorCode, ExchangeError, NetworkError, RateLimitError, TimeoutError } from '../errors.js';
import type { RestRequest } from './rest-request.js';

/** Options of {@link RetryPolicy}. */
export interface RetryPolicyOptions {
  /** Attempts in all, the first included (1 = never retry). */
  readonly maxAttempts?: number;
  /** Backoff ceiling of the first retry; doubles with each further attempt. */
  readonly baseDelayMs?: number;
  /** Upper bound of any backoff delay. */
  readonly maxDelayMs?: number;
  /** A uniform source in [0, 1): injectable so tests can pin the jitter. */
  readonly random?: () => number;
}

/**
 * Whether a failed attempt may have reached the exchange and taken effect: a timeout or a dropped
 * connection after sending, a 5xx or 20080 (the exchange may have acted before failing). A 429 or
 * another error envelope is a refusal; a connection that never opened sent nothing.
 */
export function mayHaveTakenEffect(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof TimeoutError) return error.outcomeUnknown;
  if (error instanceof RateLimitError) return false;
  if (error instanceof ExchangeError) {
    return error.httpStatus >= 500 || error.exchangeCode === ErrorCode.ExecutionDeadlineExceeded;
  }
  return false;
}

/** The `outcomeUnknown` flag of a timeout or network failure; false for anything the exchange answered. */
export function isOutcomeUnknown(error: unknown): boolean {
  return (error instanceof NetworkError || error instanceof TimeoutError) && error.outcomeUnknown;
}

/**
 * When and how long to retry a failed REST attempt.
 *
 * Only retryable errors ({@link TradeloopError.retryable}) are retried, and only when repeating
 * cannot place a second order: the request is idempotent, or carries a caller-chosen
 * `clientOrderId` (a repeat is then refused as a duplicate), or the exchange certainly did not act
 * on it (429, or the connection never opened). A non-idempotent request without `clientOrderId`
 * whose outcome is unknown is not retried: its TimeoutError/NetworkError carries
 * `outcomeUnknown: true` so the caller can look the order up.
 *
 * Delays are exponential with full jitter: uniform in [0, min(maxDelayMs, baseDelayMs * 2^(n-1)))
 * before the n-th retry, which spreads the retries of many clients instead of synchronising them.
 */
export class RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  private readonly random: () => number;

  constructor(options: RetryPolicyOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? 3;
    this.baseDelayMs = options.baseDelayMs ?? 200;
    this.maxDelayMs = options.maxDelayMs ?? 5000;
    this.random = options.random ?? Math.random;
    if (!Number.isSafeInteger(this.maxAttempts) || this.maxAttempts < 1) {
      throw new ValidationError('maxAttempts', 'must be a positive integer', this.maxAttempts);
    }
    if (!(this.baseDelayMs >= 0) || !Number.isFinite(this.baseDelayMs)) {
      throw new ValidationError('baseDelayMs', 'must be a non-negative number of ms', this.baseDelayMs);
    }
    if (!(this.maxDelayMs >= this.baseDelayMs) || !Number.isFinite(this.maxDelayMs)) {
      throw new ValidationError('maxDelayMs', 'must be a finite number of ms, at least baseDelayMs', this.maxDelayMs);
    }
  }

  /** Whether to try `request` again after its `attempt`-th attempt (1-based) failed with `error`. */
  shouldRetry(request: RestRequest<unknown>, error: unknown, attempt: number): boolean {
    if (attempt >= this.maxAttempts) return false;
    if (!(error instanceof TradeloopError) || !error.retryable) return false;
    if (request.idempotent || request.clientOrderId !== undefined) return true;
    return certainlyNotActedOn(error);
  }

  /** The pause before the retry that follows attempt number `attempt` (1-based). */
  delayMs(attempt: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.max(0, attempt - 1));
    const r = this.random();
    const unit = r >= 0 && r < 1 ? r : 0;
    return Math.floor(unit * ceiling);
  }

  /**
   * Whether `error` on a retry means that an earlier attempt of this order placement went through:
   * the exchange refuses the repeated client order id (20008) after an attempt whose outcome was
   * unknown. The caller then fetches that order instead of reporting a rejection.
   */
  isDuplicateOfEarlierAttempt(request: RestRequest<unknown>, error: unknown, earlierMayHaveActed: boolean): boolean {
    return (
      earlierMayHaveActed &&
      request.clientOrderId !== undefined &&
      request.lookupAfterDuplicate !== undefined &&
      error instanceof ExchangeError &&
      error.exchangeCode === ErrorCode.DuplicateClientOrderId
    );
  }
}

function certainlyNotActedOn(error: TradeloopError): boolean {
  if (error instanceof RateLimitError) return true;
  if (error instanceof NetworkError || error instanceof TimeoutError) return !error.outcomeUnknown;
  return false;
}
