import { Decimal, isDecimalString, type DecimalString } from './decimal.js';
import { ParseError } from './errors.js';

/**
 * Readers for wire payloads. Every reader takes the object, the key and the path of the object
 * (for error messages), validates, and returns a typed value or throws {@link ParseError} naming the
 * field and the rule. They tolerate what the real exchange sends: numbers as strings or as JSON
 * numbers, identifiers as strings or numbers, DateTime as ISO 8601 or UNIX milliseconds.
 */
export type WireObject = Readonly<Record<string, unknown>>;

function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** The value as a JSON object, or a ParseError. */
export function asObject(value: unknown, path: string): WireObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ParseError(path || '(root)', 'must be an object', value);
  }
  return value as WireObject;
}

/** The value as an array, or a ParseError. */
export function asArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new ParseError(path || '(root)', 'must be an array', value);
  return value;
}

/** Maps every element of an array with `item`, paths `path[i]`. */
export function mapArray<T>(value: unknown, path: string, item: (v: unknown, path: string) => T): T[] {
  const arr = asArray(value, path);
  const out = new Array<T>(arr.length);
  for (let i = 0; i < arr.length; i++) out[i] = item(arr[i], at(path, i));
  return out;
}

/** Maps every value of a keyed object (symbol- or currency-keyed responses), paths `path.KEY`. */
export function mapKeyed<T>(
  value: unknown,
  path: string,
  item: (v: unknown, path: string, key: string) => T,
): Record<string, T> {
  const obj = asObject(value, path);
  const out: Record<string, T> = {};
  for (const key of Object.keys(obj)) out[key] = item(obj[key], at(path, key), key);
  return out;
}

function missing(obj: WireObject, key: string): boolean {
  return obj[key] === undefined;
}

/** A required string. */
export function reqString(obj: WireObject, key: string, path: string): string {
  const v = obj[key];
  if (typeof v !== 'string') throw new ParseError(at(path, key), missing(obj, key) ? 'is required' : 'must be a string', v);
  return v;
}

/** An optional string; `null` and absence both give `undefined`. */
export function optString(obj: WireObject, key: string, path: string): string | undefined {
  const v = obj[key];
  if (v == null) return undefined;
  if (typeof v !== 'string') throw new ParseError(at(path, key), 'must be a string', v);
  return v;
}

/** A string or null (fields the spec types as `String or null`). */
export function nullableString(obj: WireObject, key: string, path: string): string | null {
  const v = obj[key];
  if (v == null) return null;
  if (typeof v !== 'string') throw new ParseError(at(path, key), 'must be a string or null', v);
  return v;
}

/** One of the listed string values. */
export function reqEnum<T extends string>(obj: WireObject, key: string, values: readonly T[], path: string): T {
  const v = obj[key];
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw new ParseError(at(path, key), missing(obj, key) ? 'is required' : `must be one of ${values.join(', ')}`, v);
  }
  return v as T;
}

/** One of the listed values, or undefined when absent. */
export function optEnum<T extends string>(obj: WireObject, key: string, values: readonly T[], path: string): T | undefined {
  return obj[key] == null ? undefined : reqEnum(obj, key, values, path);
}

/** A required boolean; the strings "true"/"false" are tolerated. */
export function reqBool(obj: WireObject, key: string, path: string): boolean {
  const v = obj[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new ParseError(at(path, key), missing(obj, key) ? 'is required' : 'must be a boolean', v);
}

/** An optional boolean. */
export function optBool(obj: WireObject, key: string, path: string): boolean | undefined {
  return obj[key] == null ? undefined : reqBool(obj, key, path);
}

function decimalText(v: unknown, fieldPath: string, present: boolean): DecimalString {
  if (typeof v === 'string') {
    if (isDecimalString(v)) return v;
    // Exponent notation is legal JSON-number text; normalise it exactly through decimal.js.
    if (/^-?\d+(\.\d+)?[eE][-+]?\d+$/.test(v)) return new Decimal(v).toFixed() as DecimalString;
    throw new ParseError(fieldPath, 'must be a decimal number', v);
  }
  if (typeof v === 'number' && Number.isFinite(v)) {
    // JSON.parse already chose the shortest text for this double; that text is what was sent.
    const text = String(v);
    return (isDecimalString(text) ? text : new Decimal(text).toFixed()) as DecimalString;
  }
  throw new ParseError(fieldPath, present ? 'must be a decimal number' : 'is required', v);
}

/** A required decimal kept as exact text (hot-path market data). */
export function reqDecimalString(obj: WireObject, key: string, path: string): DecimalString {
  const v = obj[key];
  // The usual case without building the field's path, which only an error names (market data runs here per record).
  if (typeof v === 'string' && isDecimalString(v)) return v;
  return decimalText(v, at(path, key), !missing(obj, key));
}

/** An optional decimal kept as text; null and absence give undefined. */
export function optDecimalString(obj: WireObject, key: string, path: string): DecimalString | undefined {
  return obj[key] == null ? undefined : reqDecimalString(obj, key, path);
}

/** A decimal text or null (fields typed `Number or null`). */
export function nullableDecimalString(obj: WireObject, key: string, path: string): DecimalString | null {
  return obj[key] == null ? null : reqDecimalString(obj, key, path);
}

/** Validates one array element as a decimal text. */
export function decimalStringAt(value: unknown, path: string): DecimalString {
  return decimalText(value, path, value !== undefined);
}

/** A required decimal as a {@link Decimal} (account and order resources). */
export function reqDecimal(obj: WireObject, key: string, path: string): Decimal {
  return new Decimal(reqDecimalString(obj, key, path));
}

/** An optional decimal as a {@link Decimal}. */
export function optDecimal(obj: WireObject, key: string, path: string): Decimal | undefined {
  return obj[key] == null ? undefined : reqDecimal(obj, key, path);
}

/** A decimal or null. */
export function nullableDecimal(obj: WireObject, key: string, path: string): Decimal | null {
  return obj[key] == null ? null : reqDecimal(obj, key, path);
}

/**
 * An identifier typed Number by the spec but sent as a string by some endpoints: kept as a string
 * so that large ids never lose digits.
 */
export function reqId(obj: WireObject, key: string, path: string): string {
  const v = obj[key];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  throw new ParseError(at(path, key), missing(obj, key) ? 'is required' : 'must be an identifier (string or integer)', v);
}

/** An optional identifier. */
export function optId(obj: WireObject, key: string, path: string): string | undefined {
  return obj[key] == null ? undefined : reqId(obj, key, path);
}

/** A required integer (counts, sequence numbers, ms timestamps); numeric strings are tolerated. */
export function reqInt(obj: WireObject, key: string, path: string): number {
  const v = obj[key];
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new ParseError(at(path, key), missing(obj, key) ? 'is required' : 'must be an integer', v);
  }
  return n;
}

/** An optional integer. */
export function optInt(obj: WireObject, key: string, path: string): number | undefined {
  return obj[key] == null ? undefined : reqInt(obj, key, path);
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parses an API DateTime (ISO 8601 UTC or UNIX ms, number or numeric string) to UNIX milliseconds. */
export function parseDateTime(v: unknown, fieldPath: string): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
    if (ISO_DATETIME.test(v)) {
      // Date.parse reads only milliseconds; nanosecond digits in book timestamps are dropped on purpose.
      const trimmed = v.replace(/(\.\d{3})\d+/, '$1');
      const ms = Date.parse(/[Zz]|[+-]\d{2}:?\d{2}$/.test(trimmed) || trimmed.length === 10 ? trimmed : `${trimmed}Z`);
      if (Number.isFinite(ms)) return ms;
    }
  }
  throw new ParseError(fieldPath, v === undefined ? 'is required' : 'must be an ISO 8601 DateTime or UNIX milliseconds', v);
}

/** A required DateTime as UNIX milliseconds. */
export function reqTime(obj: WireObject, key: string, path: string): number {
  const v = obj[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return parseDateTime(v, at(path, key));
}

/** An optional DateTime as UNIX milliseconds. */
export function optTime(obj: WireObject, key: string, path: string): number | undefined {
  return obj[key] == null ? undefined : reqTime(obj, key, path);
}

/** A DateTime or null. */
export function nullableTime(obj: WireObject, key: string, path: string): number | null {
  return obj[key] == null ? null : reqTime(obj, key, path);
}

/** A required array field mapped with `item`. */
export function reqArray<T>(obj: WireObject, key: string, path: string, item: (v: unknown, path: string) => T): T[] {
  if (missing(obj, key)) throw new ParseError(at(path, key), 'is required');
  return mapArray(obj[key], at(path, key), item);
}

/** An optional array field; null and absence give undefined. */
export function optArray<T>(obj: WireObject, key: string, path: string, item: (v: unknown, path: string) => T): T[] | undefined {
  return obj[key] == null ? undefined : mapArray(obj[key], at(path, key), item);
}

/** A required nested object mapped with `item`. */
export function reqObject<T>(obj: WireObject, key: string, path: string, item: (v: unknown, path: string) => T): T {
  if (missing(obj, key)) throw new ParseError(at(path, key), 'is required');
  return item(obj[key], at(path, key));
}

/** An optional nested object. */
export function optObject<T>(obj: WireObject, key: string, path: string, item: (v: unknown, path: string) => T): T | undefined {
  return obj[key] == null ? undefined : item(obj[key], at(path, key));
}

/** Path helper for parsers that build child paths by hand. */
export const childPath = at;
