import { ErrorCode, ExchangeError } from '../exchange/errors.js';
import { TradeloopError } from '../model/errors.js';
import type { Order } from '../model/resources/order.js';

/** How hard to try before giving an unknown outcome up to reconciliation. */
export interface RecoveryOptions {
  /** Attempts of the request itself, the first included (default 3). */
  readonly maxAttempts: number;
  /** Attempts of each lookup (default 3). */
  readonly lookupAttempts: number;
  /** Pause between attempts, ms (default 200). */
  readonly retryDelayMs: number;
  /** Waits `ms`; injected so that tests and backtests need no real timers. */
  readonly sleep: (ms: number) => Promise<void>;
}

/** Defaults of {@link RecoveryOptions}. */
export const DEFAULT_RECOVERY: RecoveryOptions = {
  maxAttempts: 3,
  lookupAttempts: 3,
  retryDelayMs: 200,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The request's outcome stayed unknown after every attempt; reconciliation will settle it. */
export class OutcomeUnknownError extends TradeloopError {
  readonly code = 'OUTCOME_UNKNOWN';
  readonly retryable = false;
}

/**
 * Whether a failure may have left the request executed, or left it unsent but worth another try:
 * transport failures (whatever their `outcomeUnknown`), and retryable exchange answers (429, 5xx,
 * 20010, 20080), whose effect on a real exchange is not certain either.
 */
export function isRetryableFailure(error: unknown): boolean {
  if (error instanceof ExchangeError) return error.retryable;
  return error instanceof TradeloopError && error.retryable;
}

/**
 * Sends a request that creates orders under client_order_ids we chose, without ever creating them
 * twice. After any retryable failure the first id is looked up before anything else: found, the
 * orders are adopted (their lookup is the answer); not found, the order is known not to exist and
 * the SAME ids are sent again, so a first attempt that lands late makes the exchange refuse the
 * repeat with 20008, which is answered by one more lookup. Final refusals are rethrown as they are;
 * a lookup that keeps failing ends with {@link OutcomeUnknownError}.
 */
export async function sendWithoutDuplicates<T>(
  send: () => Promise<T>,
  lookup: () => Promise<T | undefined>,
  options: RecoveryOptions,
): Promise<T> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    try {
      return await send();
    } catch (error) {
      const duplicateOfEarlierAttempt = attempt > 1 && error instanceof ExchangeError && error.exchangeCode === ErrorCode.DuplicateClientOrderId;
      if (!duplicateOfEarlierAttempt && !isRetryableFailure(error)) throw error;
      lastError = error;
    }
    const found = await lookupWithRetry(lookup, options);
    if (found !== undefined) return found;
    if (attempt < options.maxAttempts) await options.sleep(options.retryDelayMs);
  }
  throw new OutcomeUnknownError(`request still failing after ${options.maxAttempts} attempts; left to reconciliation`, { cause: lastError });
}

/** Looks an order up, retrying lookups that fail; throws OutcomeUnknownError when they all fail. */
export async function lookupWithRetry<T>(lookup: () => Promise<T | undefined>, options: RecoveryOptions): Promise<T | undefined> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.lookupAttempts; attempt++) {
    try {
      return await lookup();
    } catch (error) {
      lastError = error;
      if (attempt < options.lookupAttempts) await options.sleep(options.retryDelayMs);
    }
  }
  throw new OutcomeUnknownError(`order lookup failed ${options.lookupAttempts} times; left to reconciliation`, { cause: lastError });
}

/** Looks up every order of a list by its client_order_ids; undefined when the first is unknown. */
export async function lookupList(ids: readonly string[], find: (id: string) => Promise<Order | undefined>): Promise<Order[] | undefined> {
  const [first, ...rest] = ids;
  if (first === undefined) return undefined;
  const head = await find(first);
  if (head === undefined) return undefined;
  const orders = [head];
  for (const id of rest) {
    const order = await find(id);
    if (order !== undefined) orders.push(order);
  }
  return orders;
}
