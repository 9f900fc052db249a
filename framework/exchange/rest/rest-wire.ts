import { ValidationError } from '../../model/errors.js';
import { EXCHANGE_ERRORS, ExchangeError, RateLimitError, exchangeErrorFromBody } from '../errors.js';
import type { QueryValue, RestRequest } from './rest-request.js';

/**
 * Query string of a request: keys in sorted order (so the text, and its signature, depend only on
 * the values), arrays comma-joined, booleans `true`/`false`, nullish and empty arrays omitted.
 * Numbers must be safe integers (limits, offsets, ids); decimals travel as decimal strings.
 */
export function buildQueryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (query === undefined) return '';
  const parts: string[] = [];
  for (const key of Object.keys(query).sort()) {
    const text = queryValueText(key, query[key]);
    if (text !== undefined) parts.push(`${encodeURIComponent(key)}=${text}`);
  }
  return parts.join('&');
}

function queryValueText(key: string, value: QueryValue): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new ValidationError(`query.${key}`, 'numbers must be safe integers (send decimals as strings)', value);
    }
    return String(value);
  }
  if (typeof value === 'string') return encodeURIComponent(value);
  if (value.length === 0) return undefined;
  return value.map((item) => encodeURIComponent(item)).join(',');
}

/** The JSON text of a request body, top-level nullish members omitted; undefined when there is no body. */
export function buildBodyText(request: RestRequest<unknown>): string | undefined {
  if (request.body === undefined) return undefined;
  if (request.method === 'GET') throw new ValidationError('body', 'a GET request carries no body');
  const members: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.body)) {
    if (value !== null && value !== undefined) members[key] = value;
  }
  return JSON.stringify(members);
}

/** Checks the relative path of a request: `/...`, no query or fragment of its own. */
export function checkRequestPath(path: string): void {
  if (!path.startsWith('/')) throw new ValidationError('path', 'must start with "/"', path);
  if (/[?#\s]/.test(path)) throw new ValidationError('path', 'must not contain "?", "#" or whitespace', path);
}

/** Headers an endpoint module may not set: the transport owns them. */
const RESERVED_HEADERS = new Set([
  'authorization', 'connection', 'content-length', 'content-type', 'host', 'keep-alive', 'transfer-encoding',
  'upgrade', 'user-agent', 'accept',
]);

/** Checks the extra headers of a request. */
export function checkExtraHeaders(headers: Readonly<Record<string, string>> | undefined): void {
  if (headers === undefined) return;
  for (const name of Object.keys(headers)) {
    if (RESERVED_HEADERS.has(name.toLowerCase())) {
      throw new ValidationError(`headers.${name}`, 'is set by the transport');
    }
  }
}

/** Retry-After in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, now: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The error of a non-2xx answer: the exchange's error envelope when the body is one; a 429 as
 * RateLimitError carrying Retry-After; otherwise an ExchangeError whose code is the HTTP status.
 */
export function errorFromAnswer(status: number, bodyText: string, retryAfterMs: number | undefined, label: string): ExchangeError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const fromEnvelope = exchangeErrorFromBody(body, status, label);
  if (status === 429 || fromEnvelope instanceof RateLimitError) {
    return new RateLimitError(retryAfterMs, label, fromEnvelope?.exchangeMessage ?? 'Too many requests');
  }
  if (fromEnvelope) return fromEnvelope;
  return new ExchangeError(status, EXCHANGE_ERRORS.get(status)?.message ?? `HTTP ${status}`, undefined, status, label);
}
