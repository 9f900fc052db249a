import { Decimal, isDecimalString, toWire } from '../../model/decimal.js';
import { ValidationError } from '../../model/errors.js';

/**
 * Validation of caller input for the REST endpoint modules. Every helper either returns the wire
 * form of a value or throws a {@link ValidationError} naming the field (with the wire name the spec
 * uses) and the broken rule, so nothing malformed ever reaches the transport.
 */

/** A money input: a Decimal or its exact decimal text. JS numbers are refused so no float reaches the wire. */
export type DecimalInput = Decimal | string;

/**
 * An API DateTime: a `Date`, UNIX milliseconds (safe non-negative integer) or ISO 8601 text
 * (`YYYY-MM-DDTHH:MM:SS.mmmZ` or date-only `YYYY-MM-DD`).
 */
export type DateTimeInput = Date | number | string;

/** An identifier the spec types as Number: a safe integer or its digits (large ids stay exact as text). */
export type IdInput = number | string;

/** Codes for a comma-separated list parameter (symbols, currencies): one code, or several. */
export type CodeListInput = string | readonly string[];

/** A value of an additional parameter where the spec says "not shown". */
export type ExtraValue = string | number | boolean | Decimal;

/**
 * Additional parameters for endpoints whose parameter list the spec leaves "not shown": sent as
 * given (decimals as plain text, numbers only as safe integers), never overriding a documented one.
 */
export type ExtraParams = Readonly<Record<string, ExtraValue>>;

/** Sort direction of list endpoints. */
export const SORT_DIRECTIONS = ['ASC', 'DESC'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** `by` filter of paged lists: by identifier or by time. */
export const PAGE_FILTERS = ['id', 'timestamp'] as const;
export type PageFilter = (typeof PAGE_FILTERS)[number];

/** Documented paging bounds (documents 000 and 001): limit 1-1000, offset 0-100000. */
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 100_000;

/** Upper bound on client_order_id length: the spec gives none, so this only catches obvious mistakes. */
export const MAX_CLIENT_ORDER_ID_LENGTH = 64;

/** A required non-empty string without control characters (codes, addresses, identifiers). */
export function requiredText(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError(field, value === undefined ? 'is required' : 'must be a string', value);
  // Ids and codes are printable ASCII: one scan settles them (not empty, no control character).
  if (isVisibleAscii(value)) return value;
  if (value.trim() === '') throw new ValidationError(field, 'must not be empty', value);
  // Control characters would corrupt a query, a path or a header; no documented value contains one.
  if (hasControlCharacter(value)) throw new ValidationError(field, 'must not contain control characters', value);
  return value;
}

/** Non-empty, every character printable ASCII without space (0x21-0x7e): no whitespace, no control character. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * {@link VISIBLE_ASCII}, one native regular-expression match: on the per-order path, which runs too
 * rarely for the optimising compiler, a character loop in JavaScript costs more than the match.
 */
function isVisibleAscii(text: string): boolean {
  return VISIBLE_ASCII.test(text);
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** An optional non-empty string. */
export function optionalText(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : requiredText(field, value);
}

/** A path parameter, validated and URI-encoded so that `/` or `?` in it cannot change the path. */
export function pathSegment(field: string, value: unknown): string {
  return encodeURIComponent(typeof value === 'number' ? idParam(field, value) : requiredText(field, value));
}

/** A client order id: non-empty, at most {@link MAX_CLIENT_ORDER_ID_LENGTH} characters, no whitespace. */
export function clientOrderIdParam(field: string, value: unknown): string {
  const text = requiredText(field, value);
  if (text.length > MAX_CLIENT_ORDER_ID_LENGTH) {
    throw new ValidationError(field, `must be at most ${MAX_CLIENT_ORDER_ID_LENGTH} characters`, text);
  }
  if (!isVisibleAscii(text) && /\s/.test(text)) throw new ValidationError(field, 'must not contain whitespace', text);
  return text;
}

/** An optional client order id. */
export function optionalClientOrderId(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : clientOrderIdParam(field, value);
}

/** One of the listed string values. */
export function enumParam<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ValidationError(field, value === undefined ? 'is required' : `must be one of ${allowed.join(', ')}`, value);
  }
  return value as T;
}

/** An optional enum value. */
export function optionalEnum<T extends string>(field: string, value: unknown, allowed: readonly T[]): T | undefined {
  return value === undefined ? undefined : enumParam(field, value, allowed);
}

/** An optional boolean (checked at run time for callers outside TypeScript). */
export function optionalBool(field: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ValidationError(field, 'must be a boolean', value);
  return value;
}

/** Sign requirement of a decimal parameter. */
export type DecimalRule = 'positive' | 'non-negative' | 'any';

/** A decimal as the plain text the wire expects; strings must already be plain decimal text. */
export function decimalParam(field: string, value: unknown, rule: DecimalRule): string {
  let decimal: Decimal;
  if (Decimal.isDecimal(value)) {
    decimal = value;
  } else if (typeof value === 'string') {
    if (!isDecimalString(value)) throw new ValidationError(field, 'must be a plain decimal string', value);
    decimal = new Decimal(value);
  } else if (typeof value === 'number') {
    throw new ValidationError(field, 'must be a Decimal or a decimal string, never a JS number', value);
  } else {
    throw new ValidationError(field, value === undefined ? 'is required' : 'must be a Decimal or a decimal string', value);
  }
  if (!decimal.isFinite()) throw new ValidationError(field, 'must be finite', decimal.toString());
  // Sign tests, not gt(0): that builds a Decimal of 0 per parameter of every order sent.
  if (rule === 'positive' && (decimal.isNegative() || decimal.isZero())) throw new ValidationError(field, 'must be greater than zero', toWire(decimal));
  if (rule === 'non-negative' && decimal.isNeg() && !decimal.isZero()) {
    throw new ValidationError(field, 'must not be negative', toWire(decimal));
  }
  return wireText(decimal);
}

/**
 * Wire text of the Decimals sent, by instance: a strategy sends the same quantity and a few hundred
 * prices again and again, and a Decimal never changes, so each is written out once.
 */
const WIRE_TEXT = new WeakMap<Decimal, string>();

function wireText(decimal: Decimal): string {
  let text = WIRE_TEXT.get(decimal);
  if (text === undefined) {
    text = toWire(decimal);
    WIRE_TEXT.set(decimal, text);
  }
  return text;
}

/** An optional decimal. */
export function optionalDecimal(field: string, value: unknown, rule: DecimalRule): string | undefined {
  return value === undefined ? undefined : decimalParam(field, value, rule);
}

/** An integer in `[min, max]` (limits, offsets, depths). */
export function intParam(field: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new ValidationError(field, value === undefined ? 'is required' : 'must be an integer', value);
  }
  if (value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
    throw new ValidationError(field, `must be ${range}`, value);
  }
  return value;
}

/** An optional integer in `[min, max]`. */
export function optionalInt(field: string, value: unknown, min: number, max?: number): number | undefined {
  return value === undefined ? undefined : intParam(field, value, min, max);
}

/** An optional page size: 1 to {@link MAX_LIMIT}; when omitted the endpoint's documented default applies. */
export function limitParam(value: unknown, field = 'limit'): number | undefined {
  return optionalInt(field, value, 1, MAX_LIMIT);
}

/** An optional page offset: 0 to {@link MAX_OFFSET}. */
export function offsetParam(value: unknown, field = 'offset'): number | undefined {
  return optionalInt(field, value, 0, MAX_OFFSET);
}

/** An identifier typed Number by the spec: a non-negative safe integer or its digits. */
export function idParam(field: string, value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  throw new ValidationError(field, value === undefined ? 'is required' : 'must be a non-negative integer id', value);
}

/** An optional numeric identifier. */
export function optionalId(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : idParam(field, value);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** A DateTime as sent: ISO text as given, a Date as ISO text, UNIX milliseconds as a number. */
export function dateTimeParam(field: string, value: unknown): string | number {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ValidationError(field, 'must be a valid date', 'Invalid Date');
    return value.toISOString();
  }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new ValidationError(field, 'must be UNIX milliseconds (a non-negative integer)', value);
    return value;
  }
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return value;
    if (ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) return value;
    throw new ValidationError(field, 'must be ISO 8601 (YYYY-MM-DDTHH:MM:SS.mmmZ) or UNIX milliseconds', value);
  }
  throw new ValidationError(field, value === undefined ? 'is required' : 'must be a Date, UNIX milliseconds or ISO 8601 text', value);
}

/** An optional DateTime. */
export function optionalDateTime(field: string, value: unknown): string | number | undefined {
  return value === undefined ? undefined : dateTimeParam(field, value);
}

/** A UNIX-nanosecond time (`min` 1 on the history endpoints) as its exact digits: a bigint or digit text. */
export function optionalNanos(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let digits: string;
  if (typeof value === 'bigint') digits = value.toString();
  else if (typeof value === 'string' && /^\d+$/.test(value)) digits = value;
  else throw new ValidationError(field, 'must be UNIX nanoseconds as a bigint or digit string', value);
  if (BigInt(digits) < 1n) throw new ValidationError(field, 'must be at least 1', digits);
  return digits;
}

/** A comma-separated code list: each code non-empty and free of commas; an empty list means "all". */
export function optionalCodeList(field: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const codes = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(codes)) throw new ValidationError(field, 'must be a code or an array of codes', value);
  return codes.map((code: unknown, i) => {
    const name = typeof value === 'string' ? field : `${field}[${i}]`;
    const text = requiredText(name, code);
    if (text.includes(',')) throw new ValidationError(name, 'must be one code per entry (no commas)', text);
    return text;
  });
}

/** A required, non-empty code list. */
export function codeList(field: string, value: unknown): readonly string[] {
  const codes = optionalCodeList(field, value);
  if (codes === undefined || codes.length === 0) throw new ValidationError(field, 'must name at least one code', value);
  return codes;
}

/** A code list as one comma-joined string, for JSON bodies that expect "a,b,c". */
export function joinedCodes(field: string, value: unknown): string {
  return codeList(field, value).join(',');
}

/** A string of at most `max` characters (may be empty). */
export function optionalBoundedText(field: string, value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string', value);
  if (value.length > max) throw new ValidationError(field, `must be at most ${max} characters`, value.length);
  return value;
}

/**
 * Merges `extra` into documented parameters. A key that a documented parameter already uses is
 * refused so that the typed field stays the one source of that value.
 */
export function withExtra<V>(
  documented: Readonly<Record<string, V | undefined>>,
  extra: ExtraParams | undefined,
  field = 'extra',
): Record<string, V | string | number | boolean> {
  const out: Record<string, V | string | number | boolean> = compact(documented);
  if (extra === undefined) return out;
  for (const key of Object.keys(extra)) {
    const name = `${field}.${key}`;
    if (key in documented) throw new ValidationError(name, 'duplicates a documented parameter; pass it by name');
    const value = extra[key];
    if (Decimal.isDecimal(value)) out[key] = decimalParam(name, value, 'any');
    else if (typeof value === 'number') out[key] = intParam(name, value, Number.MIN_SAFE_INTEGER);
    else if (typeof value === 'string' || typeof value === 'boolean') out[key] = value;
    else throw new ValidationError(name, 'must be a string, boolean, safe integer or Decimal', value);
  }
  return out;
}

/** A copy of `record` without its undefined members, so requests hold only what is sent. */
export function compact<T>(record: Readonly<Record<string, T | undefined>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
