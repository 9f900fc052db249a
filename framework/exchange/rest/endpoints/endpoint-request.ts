import { ParseError } from '../../../model/errors.js';
import { compact } from '../params.js';
import type { HttpMethod, QueryValue, RateScope, RestRequest } from '../rest-request.js';

/**
 * Builders of {@link RestRequest}s shared by the endpoint sections, so that every section sets
 * `auth`, `scope` and `idempotent` the same way: public market data is unauthenticated and spends
 * the `public` budget; placing, replacing and cancelling orders spend `trading`; everything else
 * spends `other`. Undefined members of query and body are dropped here so a request holds exactly
 * what goes on the wire.
 */

/** Query parameters of a request, undefined members allowed (they are dropped). */
export type QueryInput = Readonly<Record<string, QueryValue>>;
/** JSON body members of a request, undefined members allowed (they are dropped). */
export type BodyInput = Readonly<Record<string, unknown>>;

/** An unauthenticated GET under `/public`. */
export function publicGet<T>(
  path: string,
  parse: (body: unknown) => T,
  query?: QueryInput,
  headers?: Readonly<Record<string, string>>,
): RestRequest<T> {
  return {
    method: 'GET', path, ...queryPart(query), auth: false, scope: 'public', idempotent: true, parse,
    ...(headers === undefined ? {} : { headers }),
  };
}

/** An authenticated GET: reads are always safe to repeat. */
export function privateGet<T>(path: string, parse: (body: unknown) => T, query?: QueryInput): RestRequest<T> {
  return { method: 'GET', path, ...queryPart(query), auth: true, scope: 'other', idempotent: true, parse };
}

/** What an authenticated call changes, and how it may be retried. */
export interface CallOptions {
  readonly scope: RateScope;
  /** True only when repeating the call after an unknown outcome cannot do harm. */
  readonly idempotent: boolean;
  readonly query?: QueryInput;
  readonly body?: BodyInput;
}

/** An authenticated call that changes state (POST, PUT, PATCH, DELETE). */
export function privateCall<T>(
  method: Exclude<HttpMethod, 'GET'>,
  path: string,
  parse: (body: unknown) => T,
  options: CallOptions,
): RestRequest<T> {
  const body = options.body === undefined ? undefined : compact(options.body);
  return {
    method, path, ...queryPart(options.query), ...(body === undefined ? {} : { body }),
    auth: true, scope: options.scope, idempotent: options.idempotent, parse,
  };
}

function queryPart(query: QueryInput | undefined): { query?: Record<string, QueryValue> } {
  if (query === undefined) return {};
  const kept = compact(query);
  return Object.keys(kept).length === 0 ? {} : { query: kept };
}

/**
 * The entry for `key` of a keyed response whose only documented key is the requested code
 * (for example `GET /public/futures/info/{symbol}`).
 */
export function pickKeyed<T>(map: Readonly<Record<string, T>>, key: string, path: string): T {
  const value = map[key];
  if (value === undefined) throw new ParseError(`${path}.${key}`, 'is required');
  return value;
}
