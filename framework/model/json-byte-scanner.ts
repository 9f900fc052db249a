import { nearestDouble } from './nearest-double.js';

export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
const DOT = 0x2e;
const ZERO = 0x30;
const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const NINE = 0x39;
const CR = 0x0d;

/** Longest decimal text a {@link DecimalTextCache} keeps. */
const CACHED_TEXT_MAX = 24;

/** The last text of one decimal field, as bytes and as the string handed out ({@link JsonByteScanner.cachedDecimalText}). */
export class DecimalTextCache {
  readonly bytes = new Uint8Array(CACHED_TEXT_MAX);
  length = -1;
  text = '';
}

/** The bytes of an ASCII text. */
export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * A cursor over one JSON text in bytes (a recording line, a socket message) with the few strict
 * JSON pieces a decoder of such texts needs. Every reader answers a sentinel (false, -1,
 * undefined) instead of throwing: a decoder that meets anything unexpected leaves the text to the
 * general parser (`JSON.parse`). Readers never look past the text.
 */
export class JsonByteScanner {
  protected bytes: Buffer = Buffer.alloc(0);
  protected pos = 0;
  protected end = 0;

  /** Starts on `bytes[start, end)`; a trailing `\r` (of a CRLF line end; JSON.parse skips it too) is not part of the text. */
  protected reset(bytes: Buffer, start: number, end: number): void {
    this.bytes = bytes;
    this.pos = start;
    this.end = end > start && bytes[end - 1] === CR ? end - 1 : end;
  }

  /** True at the end of the text. */
  protected atEnd(): boolean {
    return this.pos === this.end;
  }

  /** True (and past it) when `expected` follows. */
  protected literal(expected: Uint8Array): boolean {
    const bytes = this.bytes;
    const pos = this.pos;
    if (pos + expected.length > this.end) return false;
    for (let i = 0; i < expected.length; i++) if (bytes[pos + i] !== expected[i]) return false;
    this.pos = pos + expected.length;
    return true;
  }

  /** The next byte (and past it); -1 at the end of the text. */
  protected next(): number {
    return this.pos < this.end ? (this.bytes[this.pos++] as number) : -1;
  }

  protected peek(): number {
    return this.pos < this.end ? (this.bytes[this.pos] as number) : -1;
  }

  /** Past a `,` (true: another item follows) or not (false: the caller expects its closer). */
  protected more(): boolean {
    return this.skip(COMMA);
  }

  /** True (and past it) when the next byte is `byte`. */
  protected skip(byte: number): boolean {
    const pos = this.pos;
    if (pos >= this.end || this.bytes[pos] !== byte) return false;
    this.pos = pos + 1;
    return true;
  }

  /** `"k":` with a one-letter key: the key's byte (and past the colon), or -1. */
  protected shortKey(): number {
    const bytes = this.bytes;
    const pos = this.pos;
    if (pos + 4 > this.end || bytes[pos] !== QUOTE || bytes[pos + 2] !== QUOTE || bytes[pos + 3] !== COLON) return -1;
    this.pos = pos + 4;
    return bytes[pos + 1] as number;
  }

  /** Index in `names` of the quoted name that follows (through its closing quote); -1 when it is none of them. */
  protected quotedName(names: readonly Uint8Array[]): number {
    return this.next() === QUOTE ? this.quotedNameRest(names) : -1;
  }

  /**
   * The rest of a quoted name whose opening quote was read (through its closing quote): its index
   * in `names`, or -1. Names hold neither quotes nor backslashes, so a name's bytes followed by a
   * quote are the whole string, read once.
   */
  protected quotedNameRest(names: readonly Uint8Array[]): number {
    const bytes = this.bytes;
    const start = this.pos;
    outer: for (let n = 0; n < names.length; n++) {
      const name = names[n] as Uint8Array;
      const close = start + name.length;
      if (close >= this.end || bytes[close] !== QUOTE) continue;
      for (let i = 0; i < name.length; i++) if (name[i] !== bytes[start + i]) continue outer;
      this.pos = close + 1;
      return n;
    }
    return -1;
  }

  /** A quoted plain decimal (`digits` or `digits.digits`) as its text, without the quotes; undefined when it is not one. */
  protected plainDecimalText(): string | undefined {
    const start = this.pos + 1;
    const close = this.plainDecimalEnd();
    return close < 0 ? undefined : latin1Text(this.bytes, start, close);
  }

  /**
   * {@link plainDecimalText}, handing out the string `cache` holds again when the bytes are those it
   * was made from (a text that repeats from one line to the next is not built again).
   */
  protected cachedDecimalText(cache: DecimalTextCache): string | undefined {
    const start = this.pos + 1;
    const close = this.plainDecimalEnd();
    if (close < 0) return undefined;
    const bytes = this.bytes;
    const length = close - start;
    const cached = cache.bytes;
    if (length === cache.length) {
      let i = 0;
      while (i < length && cached[i] === bytes[start + i]) i++;
      if (i === length) return cache.text;
    }
    const text = latin1Text(bytes, start, close);
    if (length <= CACHED_TEXT_MAX) {
      for (let i = 0; i < length; i++) cached[i] = bytes[start + i] as number;
      cache.length = length;
      cache.text = text;
    }
    return text;
  }

  /**
   * Past a quoted plain decimal (`digits` or `digits.digits`): the position of its closing quote
   * (its text runs from the opening quote's next byte to there); -1 when it is not one.
   */
  protected plainDecimalEnd(): number {
    if (this.next() !== QUOTE) return -1;
    const start = this.pos;
    let pos = start;
    let dot = -1;
    for (;;) {
      const c = this.byteAt(pos);
      if (c >= ZERO && c <= NINE) {
        pos++;
      } else if (c === DOT && dot < 0 && pos > start) {
        dot = pos++;
      } else {
        break;
      }
    }
    if (this.byteAt(pos) !== QUOTE || pos === start || dot === pos - 1) return -1;
    this.pos = pos + 1;
    return pos;
  }

  /** A JSON integer of digits only (no sign, fraction, exponent or leading zero), at most 15 digits; -1 otherwise. */
  protected unsignedInteger(): number {
    const bytes = this.bytes;
    let pos = this.pos;
    let n = 0;
    let digits = 0;
    while (pos < this.end) {
      const c = bytes[pos] as number;
      if (c < ZERO || c > NINE) break;
      n = n * 10 + (c - ZERO);
      digits++;
      pos++;
    }
    this.pos = pos;
    // 15 digits keep every value exact.
    if (digits === 0 || digits > 15 || (digits > 1 && bytes[pos - digits] === ZERO)) return -1;
    return n;
  }

  /**
   * Past a JSON number in strict grammar (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`);
   * false when none follows.
   */
  protected skipJsonNumber(): boolean {
    let pos = this.pos;
    if (this.byteAt(pos) === 0x2d) pos++;
    if (this.byteAt(pos) === ZERO) {
      pos++;
    } else {
      if (!isDigit(this.byteAt(pos))) return false;
      while (isDigit(this.byteAt(pos))) pos++;
    }
    if (this.byteAt(pos) === DOT) {
      if (!isDigit(this.byteAt(++pos))) return false;
      while (isDigit(this.byteAt(pos))) pos++;
    }
    const e = this.byteAt(pos);
    if (e === 0x65 || e === 0x45) {
      const sign = this.byteAt(++pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!isDigit(this.byteAt(pos))) return false;
      while (isDigit(this.byteAt(pos))) pos++;
    }
    this.pos = pos;
    return true;
  }

  /**
   * The JSON number `bytes[start, end)` (grammar checked already) as the double JSON.parse makes
   * of it: read from the bytes when {@link nearestDouble} can vouch for it, else by the engine's
   * own parser.
   */
  protected numberBetween(start: number, end: number): number {
    const value = nearestDouble(this.bytes, start, end);
    return value === value ? value : Number(this.bytes.toString('latin1', start, end));
  }

  /** The byte at `pos` of the text; -1 past its end. */
  private byteAt(pos: number): number {
    return pos < this.end ? (this.bytes[pos] as number) : -1;
  }
}

/** Where {@link scaledValue} stopped: past the closing quote of the value it read. */
let valueEnd = 0;

/** Where the last {@link scaledValue} that read a value stopped: past its closing quote. */
export function scaledValueEnd(): number {
  return valueEnd;
}

/**
 * The plain decimal (`digits` or `digits.digits`) at `bytes[pos, end)` up to its closing quote,
 * times 10^scale: -1 unless that is an exact safe integer. Decimals beyond the scale must be zeros
 * (and are not accumulated, so padding never overflows); while the value stays below 2^53 every
 * step was exact, and the range test at its end covers the whole value. Sets {@link scaledValueEnd}.
 */
export function scaledValue(bytes: Uint8Array, pos: number, end: number, scale: number): number {
  const digitsStart = pos;
  let n = 0;
  let c = 0;
  while (pos < end) {
    c = bytes[pos] as number;
    if (c < ZERO || c > NINE) break;
    n = n * 10 + (c - ZERO);
    pos++;
  }
  if (pos === digitsStart || pos >= end) return -1;
  let decimals = 0;
  if (c === DOT) {
    const fractionStart = ++pos;
    const quote = pos + scale;
    if (scale > 0 && quote < end && bytes[quote] === QUOTE) {
      // The recorder's usual text: exactly `scale` decimals, read in one counted run; a byte
      // outside '0'..'9' makes `digit` or `9 - digit` negative, and the sign bit sticks. That
      // quote may belong to a later value (fewer decimals): then the run is read again below.
      let invalid = 0;
      let m = n;
      for (let i = pos; i < quote; i++) {
        const digit = (bytes[i] as number) - ZERO;
        invalid |= digit | (9 - digit);
        m = m * 10 + digit;
      }
      if (invalid >= 0) {
        valueEnd = quote + 1;
        return m > MAX_EXACT ? -1 : m;
      }
    }
    while (pos < end) {
      c = bytes[pos] as number;
      if (c < ZERO || c > NINE) break;
      if (decimals < scale) {
        n = n * 10 + (c - ZERO);
        decimals++;
      } else if (c !== ZERO) {
        return -1;
      }
      pos++;
    }
    if (pos === fractionStart || pos >= end) return -1;
  }
  if (c !== QUOTE || n > MAX_EXACT) return -1;
  valueEnd = pos + 1;
  if (decimals === scale) return n;
  n *= POW10[scale - decimals] as number;
  return n > MAX_EXACT ? -1 : n;
}

const fromCharCode = String.fromCharCode;

/**
 * `bytes[start, end)` as a Latin-1 string. A decimal's few characters are put together here
 * rather than by `Buffer.toString`, whose call into the runtime costs more than the copy itself.
 */
export function latin1Text(bytes: Buffer, start: number, end: number): string {
  const b = bytes;
  const s = start;
  switch (end - start) {
    case 1: return fromCharCode(b[s] as number);
    case 2: return fromCharCode(b[s] as number, b[s + 1] as number);
    case 3: return fromCharCode(b[s] as number, b[s + 1] as number, b[s + 2] as number);
    case 4: return fromCharCode(b[s] as number, b[s + 1] as number, b[s + 2] as number, b[s + 3] as number);
    case 5: return fromCharCode(b[s] as number, b[s + 1] as number, b[s + 2] as number, b[s + 3] as number, b[s + 4] as number);
    case 6: return fromCharCode(b[s] as number, b[s + 1] as number, b[s + 2] as number, b[s + 3] as number, b[s + 4] as number, b[s + 5] as number);
    case 7: return fromCharCode(b[s] as number, b[s + 1] as number, b[s + 2] as number, b[s + 3] as number, b[s + 4] as number, b[s + 5] as number, b[s + 6] as number);
    case 8: return fromCharCode(b[s] as number, b[s + 1] as number, b[s + 2] as number, b[s + 3] as number, b[s + 4] as number, b[s + 5] as number, b[s + 6] as number, b[s + 7] as number);
    default: return bytes.toString('latin1', start, end);
  }
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** True when `items` has one for `symbol` (JSON.parse would keep only the last of repeated keys: such texts go the general way). */
export function named(items: readonly { readonly symbol: string }[], symbol: string): boolean {
  for (let i = 0; i < items.length; i++) if ((items[i] as { readonly symbol: string }).symbol === symbol) return true;
  return false;
}
