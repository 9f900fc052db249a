import { createHmac } from 'node:crypto';
import { ValidationError } from '../../model/errors.js';
import type { ApiCredentials } from '../rest/credentials.js';

/**
 * Lowercase hex HMAC-SHA256 keyed by the secret over `String(timestamp)` + `String(window)` when a
 * window is used: the streaming login signs only the time, not a request (exchange-notes.md).
 */
export function wsLoginSignature(secretKey: string, timestamp: number, window?: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new ValidationError('timestamp', 'must be a non-negative integer of UNIX milliseconds', timestamp);
  }
  const message = `${timestamp}${window === undefined ? '' : String(window)}`;
  return createHmac('sha256', secretKey).update(message, 'utf8').digest('hex');
}

/**
 * The `params` of a `login` request for `credentials`: HS256 (`api_key`, `timestamp`, `signature`,
 * optional `window`) or BASIC (`api_key`, `secret_key`). The result holds secret material: it goes
 * to the socket and nowhere else.
 */
export function wsLoginParams(credentials: ApiCredentials, nowMs: number): Record<string, unknown> {
  if (credentials.scheme === 'basic') {
    return { type: 'BASIC', api_key: credentials.apiKey, secret_key: credentials.secretKey };
  }
  const timestamp = Math.floor(nowMs);
  const params: Record<string, unknown> = {
    type: 'HS256',
    api_key: credentials.apiKey,
    timestamp,
    signature: wsLoginSignature(credentials.secretKey, timestamp, credentials.window),
  };
  if (credentials.window !== undefined) params.window = credentials.window;
  return params;
}
