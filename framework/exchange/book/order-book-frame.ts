import { ParseError, UnrepresentableValueError } from '../../model/errors.js';
import { formatScaled } from '../../model/scaled.js';
import { parseDateTime } from '../../model/wire.js';

/** The streaming channel of the full-depth L2 book. */
export const ORDER_BOOK_CHANNEL = 'orderbook/full';

/** One L2 level as the exchange sent it: `[price, quantity]`, exact decimal text. */
export type BookLevelText = readonly [price: string, quantity: string];

/** What every form of one symbol's `orderbook/full` entry carries besides its levels. */
export interface BookFrameHead {
  readonly symbol: string;
  /** The exchange's `s`: rises by exactly 1 per message for a symbol; a snapshot restarts it. */
  readonly sequence: number;
  /** The exchange's `t`, UNIX milliseconds. */
  readonly exchangeTime: number;
  /** Local receive time, UNIX milliseconds. */
  readonly receivedAt: number;
  /** True for a `snapshot` (replaces the book), false for an `update` (changed levels only). */
  readonly snapshot: boolean;
}

/**
 * One symbol's entry of an `orderbook/full` notification. `asks` and `bids` are the arrays
 * `JSON.parse` built, validated but not copied (an empty one is a shared frozen empty list), so a
 * frame costs one small object per symbol.
 */
export interface OrderBookFrame extends BookFrameHead {
  readonly asks: readonly BookLevelText[];
  readonly bids: readonly BookLevelText[];
}

/**
 * An `orderbook/full` entry whose levels arrive already converted to scaled integers, as the
 * book message decoder produces them from a message's bytes, live and in a replay (see
 * order-book-message-decoder.ts): the same frame as an {@link OrderBookFrame}, without level texts
 * to parse again in every book that applies it. Every value is exact: a decoder only builds one when each price and quantity is a
 * safe integer at these scales, and readers whose scales differ convert exactly or fall back to
 * the text (see {@link scaledLevelsAsText}).
 */
export interface ScaledOrderBookFrame extends BookFrameHead {
  /** Decimals of the scaled prices. */
  readonly priceScale: number;
  /** Decimals of the scaled quantities. */
  readonly quantityScale: number;
  /** `[price, quantity, price, quantity, ...]` x 10^scale, in the frame's order. */
  readonly askLevels: readonly number[];
  readonly bidLevels: readonly number[];
  /** Absent: tells the two frame forms apart (`frame.asks === undefined`). */
  readonly asks?: undefined;
  readonly bids?: undefined;
}

/** One symbol's `orderbook/full` entry, with its levels as text or already scaled. */
export type BookFrame = OrderBookFrame | ScaledOrderBookFrame;

/**
 * The text form of a scaled frame, for readers whose scales differ from the frame's (a book whose
 * scale rose after an unusual value): exact, as each scaled value is a safe integer.
 */
export function scaledLevelsAsText(frame: ScaledOrderBookFrame): OrderBookFrame {
  const text = (levels: readonly number[]): BookLevelText[] => {
    const out: BookLevelText[] = [];
    for (let i = 0; i + 1 < levels.length; i += 2) {
      out.push([formatScaled(levels[i] as number, frame.priceScale), formatScaled(levels[i + 1] as number, frame.quantityScale)]);
    }
    return out;
  };
  return {
    symbol: frame.symbol, sequence: frame.sequence, exchangeTime: frame.exchangeTime, receivedAt: frame.receivedAt,
    snapshot: frame.snapshot, asks: text(frame.askLevels), bids: text(frame.bidLevels),
  };
}

const NO_LEVELS: readonly BookLevelText[] = Object.freeze([]);

/**
 * Extracts the book frames of an `orderbook/full` notification
 * (`{"ch":"orderbook/full","snapshot"|"update":{SYMBOL:{t,s,a,b}}}`), one per symbol.
 *
 * Returns `[]` for anything else (other channels, subscription replies, errors), so a session can
 * hand every public frame to it. Malformed book payloads throw {@link ParseError} naming the field.
 * The validation is deliberately cheap, as this runs for every book message: shapes, types,
 * sequence and time are checked; a level text is only checked to be a string starting with a
 * digit, and its remaining characters are verified by `OrderBook.apply`, which reads them
 * anyway. An absent `a` or `b` is read as "no change on that side".
 */
export function parseOrderBookFrames(frame: unknown, receivedAt: number): OrderBookFrame[] {
  if (frame === null || typeof frame !== 'object') return [];
  const message = frame as { ch?: unknown; snapshot?: unknown; update?: unknown };
  if (message.ch !== ORDER_BOOK_CHANNEL) return [];
  let snapshot: boolean;
  let payload: unknown;
  if (message.update !== undefined) {
    snapshot = false;
    payload = message.update;
  } else if (message.snapshot !== undefined) {
    snapshot = true;
    payload = message.snapshot;
  } else {
    throw new ParseError(ORDER_BOOK_CHANNEL, 'must carry a snapshot or an update');
  }
  const key = snapshot ? 'snapshot' : 'update';
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new ParseError(key, 'must be an object keyed by symbol', payload);
  }
  const out: OrderBookFrame[] = [];
  const entries = payload as Record<string, unknown>;
  for (const symbol in entries) {
    out.push(parseEntry(entries[symbol], symbol, `${key}.${symbol}`, snapshot, receivedAt));
  }
  return out;
}

interface RawEntry {
  readonly t?: unknown;
  readonly s?: unknown;
  readonly a?: unknown;
  readonly b?: unknown;
}

function parseEntry(value: unknown, symbol: string, path: string, snapshot: boolean, receivedAt: number): OrderBookFrame {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ParseError(path, 'must be an object', value);
  }
  const entry = value as RawEntry;
  const sequence = entry.s;
  if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 0) {
    throw new ParseError(`${path}.s`, sequence === undefined ? 'is required' : 'must be a non-negative integer', sequence);
  }
  const time = entry.t;
  const exchangeTime = typeof time === 'number' && Number.isFinite(time) ? time : parseDateTime(time, `${path}.t`);
  return {
    symbol,
    sequence,
    exchangeTime,
    receivedAt,
    snapshot,
    asks: entry.a === undefined ? NO_LEVELS : checkLevels(entry.a, symbol, path, 'a'),
    bids: entry.b === undefined ? NO_LEVELS : checkLevels(entry.b, symbol, path, 'b'),
  };
}

function checkLevels(value: unknown, symbol: string, path: string, side: 'a' | 'b'): readonly BookLevelText[] {
  if (!Array.isArray(value)) throw new ParseError(`${path}.${side}`, 'must be an array of [price, quantity]', value);
  const levels = value as unknown[];
  // A side without changes (most messages of a busy book change one side) shares one empty list,
  // which stays in cache, so the book's look at its length waits on no memory load.
  if (levels.length === 0) return NO_LEVELS;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i];
    if (!Array.isArray(level) || level.length < 2) {
      throw new ParseError(`${path}.${side}[${i}]`, 'must be a [price, quantity] pair', level);
    }
    const pair = level as unknown[];
    if (!isUnsignedDecimal(pair[0])) pair[0] = repairNumber(pair[0], symbol, `${path}.${side}[${i}][0]`);
    if (!isUnsignedDecimal(pair[1])) pair[1] = repairNumber(pair[1], symbol, `${path}.${side}[${i}][1]`);
  }
  return levels as BookLevelText[];
}

/**
 * Cheap shape check of a level text: a string starting with a digit. The full digit-by-digit check
 * happens where the text is converted anyway (OrderBook parses every character and throws a
 * ParseError naming the level for anything that is not a plain unsigned decimal), so the frame
 * parser does not scan each text twice on the hot path.
 */
function isUnsignedDecimal(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const c = value.charCodeAt(0);
  return c >= 48 && c <= 57;
}

/** Full check, for the rare repaired values. */
function isPlainUnsignedDecimal(text: string): boolean {
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (++dots > 1) return false;
    } else if (c < 48 || c > 57) {
      return false;
    }
  }
  return text.length > dots;
}

/**
 * Levels sent as JSON numbers are turned into their text in place (the array is ours: JSON.parse
 * built it); `String(n)` is the shortest text of the double, i.e. what was sent, unless the
 * exponent form appears, which a book level never legitimately needs. A number with more than 15
 * significant digits may not be the one sent (JSON.parse rounded it to a double: 2^53 + 1 arrives
 * as 2^53): that is an UnrepresentableValueError, never a silently different level.
 */
function repairNumber(value: unknown, symbol: string, path: string): string {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    const text = String(value);
    if (isPlainUnsignedDecimal(text)) {
      if (significantDigits(text) > EXACT_DOUBLE_DIGITS) {
        throw new UnrepresentableValueError(symbol, path, text, `a JSON number with more than ${EXACT_DOUBLE_DIGITS} significant digits may differ from the value sent (send it as text)`);
      }
      return text;
    }
  }
  throw new ParseError(path, 'must be an unsigned decimal number', value);
}

/** Every decimal of at most this many significant digits survives a trip through a double. */
const EXACT_DOUBLE_DIGITS = 15;

/** Digits of a plain decimal text without its leading zeros; an integer's trailing zeros count, as the sender's digits there are unknown. */
function significantDigits(text: string): number {
  return text.replace('.', '').replace(/^0+/, '').length;
}
