/**
 * The contract between the REST endpoint modules (one per spec section) and the transport that
 * signs, rate-limits, sends, retries and maps errors. Endpoint modules build {@link RestRequest}s;
 * only the transport performs I/O.
 */

/** Which documented rate-limit budget a request spends (document 000, Limits). */
export type RateScope = 'public' | 'trading' | 'other';

/** HTTP methods used by API v3. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query value; arrays are sent comma-separated, booleans as `true`/`false`, nullish omitted. */
export type QueryValue = string | number | boolean | null | undefined | readonly string[];

/** One API call, fully described as data. */
export interface RestRequest<T> {
  readonly method: HttpMethod;
  /** Path relative to `/api/3`, starting with `/`, path parameters already URI-encoded: `/spot/order/abc`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** JSON body (sent as `application/json`); nullish members are omitted. */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Whether the request must carry the Authorization header. */
  readonly auth: boolean;
  readonly scope: RateScope;
  /** True when repeating the request after an unknown outcome cannot do harm (GET, cancel by id, ...). */
  readonly idempotent: boolean;
  /**
   * Set on order placement with a caller-chosen client_order_id: a retry is then safe, and a
   * duplicate-id rejection (20008) on a retry means the first attempt took effect, so the transport
   * calls {@link lookupAfterDuplicate} instead of reporting an error.
   */
  readonly clientOrderId?: string;
  /** Fetches the order that a duplicate-id rejection refers to. */
  readonly lookupAfterDuplicate?: () => Promise<T>;
  /** Extra request headers (for example `broker-id`). Never used for secrets. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Validates and types the JSON body of a 2xx answer; throws ParseError on a malformed payload. */
  readonly parse: (body: unknown) => T;
}

/** Anything that can carry out a {@link RestRequest}: the undici transport, or a test double. */
export interface RestExecutor {
  execute<T>(request: RestRequest<T>): Promise<T>;
}
