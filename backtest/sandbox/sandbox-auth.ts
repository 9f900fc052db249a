import { createHmac, timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { MAX_SIGNATURE_WINDOW_MS } from '../../framework/exchange/rest/credentials.js';
import { VenueRejection } from '../venue/venue-types.js';
import type { AccessRight, ResolvedApiKey } from './sandbox-config.js';

/** The documented default HS256 window (exchange-notes.md). */
export const DEFAULT_SIGNATURE_WINDOW_MS = 10_000;

/** What an HS256 REST signature covers, as received. */
export interface SignedRequest {
  readonly method: string;
  /** The request target exactly as received: path from `/api/3`, and `?query` when present. */
  readonly target: string;
  /** The raw body bytes as received (empty when none). */
  readonly body: Buffer;
}

/**
 * Checks API keys the way the real exchange does. Failures are {@link VenueRejection}s with the
 * exchange's codes: 1001 missing, 1004 unknown scheme, 1002 bad key, secret, signature or stale
 * timestamp, 1003 a right the key lacks. Error descriptions never carry a key, secret or signature.
 */
export class SandboxAuth {
  private readonly keys: ReadonlyMap<string, ResolvedApiKey>;

  constructor(
    keys: readonly ResolvedApiKey[],
    private readonly now: () => number,
  ) {
    this.keys = new Map(keys.map((k) => [k.apiKey, k]));
  }

  /** Authenticates a REST request from its `Authorization` header, signature checked over the raw bytes. */
  authenticateRest(header: string | undefined, request: SignedRequest): ResolvedApiKey {
    if (header === undefined || header.trim() === '') throw new VenueRejection(ErrorCode.AuthorizationRequired, 'Authorization header is required');
    const space = header.indexOf(' ');
    const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    if (scheme === 'basic') {
      const [apiKey, ...rest] = decodeBase64(token).split(':');
      return this.checkBasic(apiKey, rest.join(':'));
    }
    if (scheme !== 'hs256') throw new VenueRejection(ErrorCode.UnsupportedAuthorization, 'supported: Basic, HS256');
    const parts = decodeBase64(token).split(':');
    if (parts.length !== 3 && parts.length !== 4) throw failed('malformed HS256 credentials');
    const [apiKey = '', signature = '', timestampText = '', windowText] = parts;
    const key = this.keys.get(apiKey);
    if (key === undefined) throw failed('unknown API key');
    const window = this.checkTime(timestampText, windowText);
    const message = Buffer.concat([
      Buffer.from(`${request.method}${request.target}`, 'utf8'),
      request.body,
      Buffer.from(`${timestampText}${window === undefined ? '' : windowText}`, 'utf8'),
    ]);
    const expected = createHmac('sha256', key.secretKey).update(message).digest('hex');
    if (!sameText(expected, signature.toLowerCase())) throw failed('signature does not match');
    return key;
  }

  /** Authenticates a streaming `login` (`params` of the request; type HS256 or BASIC, any case). */
  authenticateLogin(params: unknown): ResolvedApiKey {
    if (params === null || typeof params !== 'object') throw new VenueRejection(ErrorCode.AuthorizationRequired, 'params are required');
    const p = params as Record<string, unknown>;
    const type = typeof p['type'] === 'string' ? p['type'].toLowerCase() : undefined;
    if (type === 'basic') return this.checkBasic(text(p['api_key']), text(p['secret_key']));
    if (type !== 'hs256') throw new VenueRejection(ErrorCode.UnsupportedAuthorization, 'supported: HS256, BASIC');
    const key = this.keys.get(text(p['api_key']));
    if (key === undefined) throw failed('unknown API key');
    const timestampText = typeof p['timestamp'] === 'number' ? String(p['timestamp']) : text(p['timestamp']);
    const windowText = p['window'] === undefined ? undefined : String(p['window']);
    const window = this.checkTime(timestampText, windowText);
    const message = `${timestampText}${window === undefined ? '' : windowText}`;
    const expected = createHmac('sha256', key.secretKey).update(message, 'utf8').digest('hex');
    if (!sameText(expected, text(p['signature']).toLowerCase())) throw failed('signature does not match');
    return key;
  }

  /** Throws 1003 unless `key` has `right`. */
  static requireRight(key: ResolvedApiKey, right: AccessRight): void {
    if (!key.rights.has(right)) throw new VenueRejection(ErrorCode.Forbidden, `the API key lacks the ${right} right`);
  }

  private checkBasic(apiKey: string | undefined, secret: string): ResolvedApiKey {
    const key = apiKey === undefined ? undefined : this.keys.get(apiKey);
    if (key === undefined || !sameText(key.secretKey, secret)) throw failed('wrong API key or secret');
    return key;
  }

  /** Validates timestamp and window; returns the window when one was sent. */
  private checkTime(timestampText: string, windowText: string | undefined): number | undefined {
    if (!/^\d{1,16}$/.test(timestampText)) throw failed('timestamp must be UNIX milliseconds');
    let window: number | undefined;
    if (windowText !== undefined) {
      if (!/^\d{1,6}$/.test(windowText)) throw failed('window must be an integer number of ms');
      window = Number(windowText);
      if (window < 1 || window > MAX_SIGNATURE_WINDOW_MS) throw failed(`window must be in 1..${MAX_SIGNATURE_WINDOW_MS}`);
    }
    const skew = Math.abs(this.now() - Number(timestampText));
    if (skew > (window ?? DEFAULT_SIGNATURE_WINDOW_MS)) throw failed('timestamp is outside the window');
    return window;
  }
}

function failed(description: string): VenueRejection {
  return new VenueRejection(ErrorCode.AuthorizationFailed, description);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function decodeBase64(token: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(token)) throw failed('credentials must be base64');
  return Buffer.from(token, 'base64').toString('utf8');
}

/** Constant-time comparison, so a wrong signature reveals nothing through timing. */
function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
