import { TradeloopError } from '../model/errors.js';

/** One row of the exchange's error-code table (exchange-notes.md plus document 000). */
export interface ExchangeErrorInfo {
  readonly code: number;
  readonly httpStatus: number;
  readonly message: string;
  readonly retryable: boolean;
}

const row = (code: number, httpStatus: number, message: string, retryable = false): ExchangeErrorInfo => ({
  code, httpStatus, message, retryable,
});

/** Every known API v3 error code, with its HTTP status and whether a retry can help. */
export const EXCHANGE_ERRORS: ReadonlyMap<number, ExchangeErrorInfo> = new Map(
  [
    row(429, 429, 'Too many requests', true),
    row(500, 500, 'Internal server error', true),
    row(503, 503, 'Service unavailable', true),
    row(504, 504, 'Gateway timeout', true),
    row(600, 400, 'Action not allowed'),
    row(800, 404, 'Resource not found'),
    row(1001, 401, 'Authorization required'),
    row(1002, 401, 'Authorization is required or has been failed'),
    row(1003, 403, 'Action is forbidden for this API key'),
    row(1004, 401, 'Unsupported authorization method'),
    row(1005, 401, 'Authorization is invalid'),
    row(2001, 400, 'Symbol not found'),
    row(2002, 400, 'Currency not found'),
    row(2003, 400, 'Unknown channel'),
    row(2010, 400, 'Quantity not a valid number'),
    row(2011, 400, 'Quantity too low'),
    row(2012, 400, 'Bad quantity'),
    row(2020, 400, 'Price not a valid number'),
    row(2022, 400, 'Bad price'),
    row(10001, 400, 'Validation error'),
    row(10021, 400, 'User disabled'),
    row(20001, 400, 'Insufficient funds'),
    row(20002, 400, 'Order not found'),
    row(20003, 400, 'Limit exceeded'),
    row(20008, 400, 'Duplicate clientOrderId'),
    row(20009, 400, 'Price and quantity not changed'),
    row(20010, 400, 'Exchange temporary closed', true),
    row(20044, 400, 'Trading operation not allowed'),
    row(20045, 400, 'Fat finger limit exceeded'),
    row(20080, 400, 'Internal order execution deadline exceeded', true),
    row(21001, 404, 'Cannot find sub account'),
    row(21004, 400, 'Sub account is already frozen or disabled'),
  ].map((r) => [r.code, r]),
);

/** Named codes used in logic (never compare against bare numbers elsewhere). */
export const ErrorCode = {
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  GatewayTimeout: 504,
  ActionNotAllowed: 600,
  ResourceNotFound: 800,
  AuthorizationRequired: 1001,
  AuthorizationFailed: 1002,
  Forbidden: 1003,
  UnsupportedAuthorization: 1004,
  InvalidAuthorization: 1005,
  SymbolNotFound: 2001,
  CurrencyNotFound: 2002,
  UnknownChannel: 2003,
  QuantityNotNumber: 2010,
  QuantityTooLow: 2011,
  BadQuantity: 2012,
  PriceNotNumber: 2020,
  BadPrice: 2022,
  ValidationError: 10001,
  UserDisabled: 10021,
  InsufficientFunds: 20001,
  OrderNotFound: 20002,
  LimitExceeded: 20003,
  DuplicateClientOrderId: 20008,
  NothingChanged: 20009,
  ExchangeClosed: 20010,
  TradingNotAllowed: 20044,
  FatFinger: 20045,
  ExecutionDeadlineExceeded: 20080,
  SubAccountNotFound: 21001,
  SubAccountFrozen: 21004,
} as const;

/** Whether an exchange error code (or bare HTTP status) is worth retrying. */
export function isRetryableCode(code: number, httpStatus?: number): boolean {
  const known = EXCHANGE_ERRORS.get(code);
  if (known) return known.retryable;
  if (httpStatus !== undefined) return httpStatus === 429 || httpStatus >= 500;
  return false;
}

/**
 * An error answered by the exchange (REST error envelope or WebSocket error reply). Carries the
 * exchange's code, message and description and the HTTP status (0 on WebSocket replies).
 */
export class ExchangeError extends TradeloopError {
  readonly code: string;
  readonly retryable: boolean;

  constructor(
    readonly exchangeCode: number,
    readonly exchangeMessage: string,
    readonly description: string | undefined,
    readonly httpStatus: number,
    readonly request?: string,
  ) {
    super(
      `exchange error ${exchangeCode}: ${exchangeMessage}${description ? ` (${description})` : ''}` +
        `${httpStatus ? ` [HTTP ${httpStatus}]` : ''}${request ? ` on ${request}` : ''}`,
    );
    this.code = `EXCHANGE_${exchangeCode}`;
    this.retryable = isRetryableCode(exchangeCode, httpStatus || undefined);
  }

  /** The documented message for this code, when it is in the table. */
  get known(): ExchangeErrorInfo | undefined {
    return EXCHANGE_ERRORS.get(this.exchangeCode);
  }
}

/** The exchange answered 429, or the client's own budget refused to send. */
export class RateLimitError extends ExchangeError {
  constructor(
    readonly retryAfterMs: number | undefined,
    request?: string,
    message = 'Too many requests',
  ) {
    super(ErrorCode.TooManyRequests, message, retryAfterMs === undefined ? undefined : `retry after ${retryAfterMs} ms`, 429, request);
  }
}

/** Options of the transport failures that may leave a request's outcome unknown. */
export interface TransportFailureOptions {
  readonly cause?: unknown;
  /**
   * True when the request may have reached the exchange and taken effect (connection dropped or
   * timed out after sending): a caller that placed an order must look it up before trying again.
   */
  readonly outcomeUnknown?: boolean;
}

/** The connection failed before a complete answer arrived (reset, refused, DNS, TLS, closed socket). */
export class NetworkError extends TradeloopError {
  readonly code = 'NETWORK';
  readonly retryable = true;
  /** See {@link TransportFailureOptions.outcomeUnknown}; false when nothing was sent. */
  readonly outcomeUnknown: boolean;

  constructor(message: string, options: TransportFailureOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

/** No answer within the configured time. The request may or may not have taken effect. */
export class TimeoutError extends TradeloopError {
  readonly code = 'TIMEOUT';
  readonly retryable = true;
  /** See {@link TransportFailureOptions.outcomeUnknown}; false when the connection was never made. */
  readonly outcomeUnknown: boolean;

  constructor(message: string, options: TransportFailureOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

/** A connection or session is not in a state that allows the call (not logged in, closed). */
export class ConnectionStateError extends TradeloopError {
  readonly code = 'CONNECTION_STATE';
  readonly retryable = true;
}

/**
 * Builds an ExchangeError from a parsed error envelope `{ error: { code, message, description } }`;
 * returns undefined when the body is not such an envelope.
 */
export function exchangeErrorFromBody(body: unknown, httpStatus: number, request?: string): ExchangeError | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const err = (body as { error?: unknown }).error;
  if (err === null || typeof err !== 'object') return undefined;
  const { code, message, description } = err as { code?: unknown; message?: unknown; description?: unknown };
  const numericCode = typeof code === 'number' ? code : typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : undefined;
  if (numericCode === undefined) return undefined;
  const text = typeof message === 'string' ? message : EXCHANGE_ERRORS.get(numericCode)?.message ?? 'Unknown error';
  const desc = typeof description === 'string' ? description : undefined;
  if (numericCode === ErrorCode.TooManyRequests) return new RateLimitError(undefined, request, text);
  return new ExchangeError(numericCode, text, desc, httpStatus, request);
}
