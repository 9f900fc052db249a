import type { DecimalString } from '../decimal.js';
import type { Side } from '../instrument.js';
import { parseBookLevel, type BookLevel } from '../resources/order-book.js';
import { SIDES } from '../resources/order.js';
import {
  asObject, nullableDecimalString, optId, reqArray, reqDecimalString, reqEnum, reqId, reqInt, reqTime,
} from '../wire.js';

/**
 * Records of the market-data stream with the one-letter wire keys mapped to names. Prices and
 * quantities stay exact text ({@link DecimalString}): this is the hot path. Each `*_KEYS` table is
 * the mapping the parser applies, wire key to field name.
 */

/** `trades` record keys. */
export const TRADE_KEYS = { t: 'timestamp', i: 'id', p: 'price', q: 'quantity', s: 'side' } as const;
/** One public trade from the `trades` channel. */
export interface TradeTick {
  readonly timestamp: number;
  readonly id: string;
  readonly price: DecimalString;
  readonly quantity: DecimalString;
  /** Taker side. */
  readonly side: Side;
}

/** `candles/{period}` and `ticker/price/{speed}` record keys. */
export const CANDLE_KEYS = { t: 'timestamp', o: 'open', c: 'close', h: 'high', l: 'low', v: 'volume', q: 'volumeQuote' } as const;
/** One candle from `candles/{period}`; also the shape of `ticker/price/{speed}` (24 h window). */
export interface CandleTick {
  readonly timestamp: number;
  readonly open: DecimalString;
  /** Last price. */
  readonly close: DecimalString;
  readonly high: DecimalString;
  readonly low: DecimalString;
  /** Base currency volume. */
  readonly volume: DecimalString;
  /** Quote currency volume. */
  readonly volumeQuote: DecimalString;
}

/** `ticker/{speed}` record keys. */
export const TICKER_KEYS = {
  t: 'timestamp', a: 'ask', A: 'askQuantity', b: 'bid', B: 'bidQuantity', c: 'last', o: 'open', h: 'high', l: 'low',
  v: 'volume', q: 'volumeQuote', p: 'priceChange', P: 'priceChangePercent', L: 'lastTradeId',
} as const;
/** One `ticker/{speed}` record. Null fields mean "no data" (an idle symbol). */
export interface TickerTick {
  readonly timestamp: number;
  readonly ask: DecimalString | null;
  readonly askQuantity: DecimalString | null;
  readonly bid: DecimalString | null;
  readonly bidQuantity: DecimalString | null;
  readonly last: DecimalString | null;
  readonly open: DecimalString | null;
  readonly high: DecimalString | null;
  readonly low: DecimalString | null;
  readonly volume: DecimalString;
  readonly volumeQuote: DecimalString;
  readonly priceChange: DecimalString | null;
  readonly priceChangePercent: DecimalString | null;
  readonly lastTradeId?: string;
}

/** Partial book record keys (`orderbook/{depth}/{speed}`). */
export const PARTIAL_BOOK_KEYS = { t: 'timestamp', s: 'sequence', a: 'asks', b: 'bids' } as const;
/** A full replacement of the top levels of a book. */
export interface PartialBookTick {
  readonly timestamp: number;
  readonly sequence: number;
  readonly asks: readonly BookLevel[];
  readonly bids: readonly BookLevel[];
}

/** `orderbook/top/{speed}` record keys. */
export const TOP_OF_BOOK_KEYS = { t: 'timestamp', a: 'ask', A: 'askQuantity', b: 'bid', B: 'bidQuantity' } as const;
/** Best bid and ask. Null when that side of the book is empty. */
export interface TopOfBookTick {
  readonly timestamp: number;
  readonly ask: DecimalString | null;
  readonly askQuantity: DecimalString | null;
  readonly bid: DecimalString | null;
  readonly bidQuantity: DecimalString | null;
}

/** Parses a `trades` record. */
export function parseTradeTick(value: unknown, path: string): TradeTick {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 't', path),
    id: reqId(o, 'i', path),
    price: reqDecimalString(o, 'p', path),
    quantity: reqDecimalString(o, 'q', path),
    side: reqEnum(o, 's', SIDES, path),
  };
}

/** Parses a `candles/{period}` or `ticker/price/{speed}` record. */
export function parseCandleTick(value: unknown, path: string): CandleTick {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 't', path),
    open: reqDecimalString(o, 'o', path),
    close: reqDecimalString(o, 'c', path),
    high: reqDecimalString(o, 'h', path),
    low: reqDecimalString(o, 'l', path),
    volume: reqDecimalString(o, 'v', path),
    volumeQuote: reqDecimalString(o, 'q', path),
  };
}

/** Parses a `ticker/{speed}` record. */
export function parseTickerTick(value: unknown, path: string): TickerTick {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 't', path),
    ask: nullableDecimalString(o, 'a', path),
    askQuantity: nullableDecimalString(o, 'A', path),
    bid: nullableDecimalString(o, 'b', path),
    bidQuantity: nullableDecimalString(o, 'B', path),
    last: nullableDecimalString(o, 'c', path),
    open: nullableDecimalString(o, 'o', path),
    high: nullableDecimalString(o, 'h', path),
    low: nullableDecimalString(o, 'l', path),
    volume: reqDecimalString(o, 'v', path),
    volumeQuote: reqDecimalString(o, 'q', path),
    priceChange: nullableDecimalString(o, 'p', path),
    priceChangePercent: nullableDecimalString(o, 'P', path),
    lastTradeId: optId(o, 'L', path),
  };
}

/** Parses a partial book record. */
export function parsePartialBookTick(value: unknown, path: string): PartialBookTick {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 't', path),
    sequence: reqInt(o, 's', path),
    asks: reqArray(o, 'a', path, parseBookLevel),
    bids: reqArray(o, 'b', path, parseBookLevel),
  };
}

/** Parses an `orderbook/top/{speed}` record. */
export function parseTopOfBookTick(value: unknown, path: string): TopOfBookTick {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 't', path),
    ask: nullableDecimalString(o, 'a', path),
    askQuantity: nullableDecimalString(o, 'A', path),
    bid: nullableDecimalString(o, 'b', path),
    bidQuantity: nullableDecimalString(o, 'B', path),
  };
}
