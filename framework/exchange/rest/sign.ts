import { createHmac } from 'node:crypto';
import { ValidationError } from '../../model/errors.js';
import { MAX_SIGNATURE_WINDOW_MS } from './credentials.js';

/** `Basic base64(api_key:secret_key)` (document 000, Scheme 1). */
export function basicAuthorization(apiKey: string, secretKey: string): string {
  return `Basic ${Buffer.from(`${apiKey}:${secretKey}`, 'utf8').toString('base64')}`;
}

/** Everything an HS256 signature covers, exactly as it goes on the wire. */
export interface Hs256Input {
  readonly apiKey: string;
  readonly secretKey: string;
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path from `/api/3` on, plus `?query` when there is one: the same text as the request line. */
  readonly pathAndQuery: string;
  /** The body text as sent; undefined or empty when the request has no body. */
  readonly body?: string;
  /** UNIX milliseconds, an integer. */
  readonly timestamp: number;
  /** Milliseconds, 1..60000, when the request should carry one. */
  readonly window?: number;
}

/**
 * The signed message: METHOD + path + (`?` + query, only if a query exists) + (body, only if a body
 * exists) + timestamp (+ window). The query arrives already joined to the path, so the signature is
 * over the very text of the request line.
 */
export function hs256Message(input: Hs256Input): string {
  checkHs256Input(input);
  const window = input.window === undefined ? '' : String(input.window);
  return `${input.method}${input.pathAndQuery}${input.body ?? ''}${input.timestamp}${window}`;
}

/** Lowercase hex HMAC-SHA256 of {@link hs256Message} keyed by the secret key. */
export function hs256Signature(input: Hs256Input): string {
  return createHmac('sha256', input.secretKey).update(hs256Message(input), 'utf8').digest('hex');
}

/** `HS256 base64(api_key:signature:timestamp[:window])` (document 000, Scheme 2). */
export function hs256Authorization(input: Hs256Input): string {
  const signature = hs256Signature(input);
  const parts = [input.apiKey, signature, String(input.timestamp)];
  if (input.window !== undefined) parts.push(String(input.window));
  return `HS256 ${Buffer.from(parts.join(':'), 'utf8').toString('base64')}`;
}

function checkHs256Input(input: Hs256Input): void {
  if (!/^[A-Z]+$/.test(input.method)) throw new ValidationError('method', 'must be an upper-case HTTP method', input.method);
  if (!input.pathAndQuery.startsWith('/')) {
    throw new ValidationError('pathAndQuery', 'must start with "/"', input.pathAndQuery);
  }
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new ValidationError('timestamp', 'must be a non-negative integer of UNIX milliseconds', input.timestamp);
  }
  const w = input.window;
  if (w !== undefined && (!Number.isInteger(w) || w < 1 || w > MAX_SIGNATURE_WINDOW_MS)) {
    throw new ValidationError('window', `must be an integer number of ms in 1..${MAX_SIGNATURE_WINDOW_MS}`, w);
  }
}
