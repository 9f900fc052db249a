import { Decimal, toWire } from '../decimal.js';
import { ParseError } from '../errors.js';
import { childPath, type WireObject } from '../wire.js';

/**
 * Helpers shared by the resource parsers and serializers: nanosecond timestamps kept exact, and the
 * wire forms the exchange uses when it sends a resource (ISO 8601 times, numeric identifiers).
 */

/**
 * A required UNIX-nanosecond timestamp as a `bigint`. Nanoseconds exceed 2^53, so a JSON number
 * has already lost its last digits in `JSON.parse`; the string form the exchange usually sends
 * stays exact, which is why both are accepted but only the string is lossless.
 */
export function reqNanos(obj: WireObject, key: string, path: string): bigint {
  const v = obj[key];
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v);
  throw new ParseError(childPath(path, key), v === undefined ? 'is required' : 'must be a UNIX nanosecond integer', v);
}

/** An optional UNIX-nanosecond timestamp. */
export function optNanos(obj: WireObject, key: string, path: string): bigint | undefined {
  return obj[key] == null ? undefined : reqNanos(obj, key, path);
}

/** UNIX milliseconds as the API's DateTime text `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
export function msToIso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * An identifier as the exchange sends it: a JSON number when it is a safe integer (the spec types
 * ids as Number), otherwise the string, so that no digit is ever lost.
 */
export function idToWire(id: string): number | string {
  if (/^(0|[1-9]\d*)$/.test(id)) {
    const n = Number(id);
    if (Number.isSafeInteger(n)) return n;
  }
  return id;
}

/** Copies `entries` into a wire object, leaving out undefined values and writing Decimals as plain text. */
export function wireRecord(entries: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(entries)) {
    const v = entries[key];
    if (v === undefined) continue;
    out[key] = Decimal.isDecimal(v) ? toWire(v) : v;
  }
  return out;
}
