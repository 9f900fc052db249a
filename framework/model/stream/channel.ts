import { ParseError } from '../errors.js';
import { CANDLE_PERIODS, type CandlePeriod } from '../resources/candle.js';

/** What a market-data channel carries. `fullBook` (`orderbook/full`) is parsed by the book module. */
export type ChannelKind = 'trades' | 'candles' | 'ticker' | 'tickerPrice' | 'partialBook' | 'topOfBook' | 'fullBook';

/** Ticker speeds. */
export const TICKER_SPEEDS = ['1s', '3s'] as const;
export type TickerSpeed = (typeof TICKER_SPEEDS)[number];
/** Partial and top-of-book speeds. */
export const BOOK_SPEEDS = ['100ms', '500ms', '1000ms'] as const;
export type BookSpeed = (typeof BOOK_SPEEDS)[number];
/** Partial book depths. */
export const BOOK_DEPTHS = ['D5', 'D10', 'D20'] as const;
export type BookDepth = (typeof BOOK_DEPTHS)[number];

/** A parsed channel name such as `candles/M1` or `orderbook/D5/100ms/batch`. */
export interface ChannelInfo {
  readonly kind: ChannelKind;
  /** Candles only. */
  readonly period?: CandlePeriod;
  /** Ticker and partial-book channels. */
  readonly speed?: TickerSpeed | BookSpeed;
  /** Partial books only. */
  readonly depth?: BookDepth;
  /** `/batch` channels combine several symbols in one notification. */
  readonly batch: boolean;
}

const cache = new Map<string, ChannelInfo>();

/**
 * Parses a market-data channel name; a ParseError for a channel the API does not have. Results are
 * memoised because the handful of channel names repeat on every frame.
 */
export function parseChannel(ch: string, path = 'ch'): ChannelInfo {
  const hit = cache.get(ch);
  if (hit !== undefined) return hit;
  const info = decode(ch);
  if (info === undefined) throw new ParseError(path, 'must be a known market-data channel', ch);
  if (cache.size < 256) cache.set(ch, info);
  return info;
}

function decode(ch: string): ChannelInfo | undefined {
  const parts = ch.split('/');
  const batch = parts.length > 1 && parts[parts.length - 1] === 'batch';
  if (batch) parts.pop();
  const [head, a, b, c] = parts;
  switch (head) {
    case 'trades':
      return parts.length === 1 && !batch ? { kind: 'trades', batch } : undefined;
    case 'candles':
      return parts.length === 2 && !batch && oneOf(CANDLE_PERIODS, a) ? { kind: 'candles', period: a, batch } : undefined;
    case 'ticker':
      if (a === 'price') {
        return parts.length === 3 && oneOf(TICKER_SPEEDS, b) ? { kind: 'tickerPrice', speed: b, batch } : undefined;
      }
      return parts.length === 2 && oneOf(TICKER_SPEEDS, a) ? { kind: 'ticker', speed: a, batch } : undefined;
    case 'orderbook':
      if (a === 'full') return parts.length === 2 && !batch ? { kind: 'fullBook', batch } : undefined;
      if (a === 'top') return parts.length === 3 && oneOf(BOOK_SPEEDS, b) ? { kind: 'topOfBook', speed: b, batch } : undefined;
      return parts.length === 3 && oneOf(BOOK_DEPTHS, a) && oneOf(BOOK_SPEEDS, b) && c === undefined
        ? { kind: 'partialBook', depth: a, speed: b, batch }
        : undefined;
    default:
      return undefined;
  }
}

function oneOf<T extends string>(values: readonly T[], text: string | undefined): text is T {
  return text !== undefined && (values as readonly string[]).includes(text);
}
