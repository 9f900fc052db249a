import type { DecimalString } from '../decimal.js';
import {
  asObject, mapKeyed, nullableDecimalString, reqArray, reqDecimalString, reqString, reqTime,
} from '../wire.js';
import { msToIso, wireRecord } from './wire-values.js';

/** API v3 Ticker (`GET /api/3/public/ticker`). Null prices mean "no data yet". */
export interface Ticker {
  readonly ask: DecimalString | null;
  readonly bid: DecimalString | null;
  readonly last: DecimalString | null;
  readonly low: DecimalString;
  readonly high: DecimalString;
  /** Last trade price 24 hours ago. */
  readonly open: DecimalString | null;
  /** 24 h volume in base currency. */
  readonly volume: DecimalString;
  /** 24 h volume in quote currency. */
  readonly volume_quote: DecimalString;
  /** UNIX ms of the last ticker update. */
  readonly timestamp: number;
}

/** Parses a Ticker. */
export function parseTicker(value: unknown, path = 'ticker'): Ticker {
  const o = asObject(value, path);
  return {
    ask: nullableDecimalString(o, 'ask', path),
    bid: nullableDecimalString(o, 'bid', path),
    last: nullableDecimalString(o, 'last', path),
    low: reqDecimalString(o, 'low', path),
    high: reqDecimalString(o, 'high', path),
    open: nullableDecimalString(o, 'open', path),
    volume: reqDecimalString(o, 'volume', path),
    volume_quote: reqDecimalString(o, 'volume_quote', path),
    timestamp: reqTime(o, 'timestamp', path),
  };
}

/** Parses the symbol-keyed response of `GET /api/3/public/ticker`. */
export function parseTickerMap(value: unknown, path = 'tickers'): Record<string, Ticker> {
  return mapKeyed(value, path, (v, p) => parseTicker(v, p));
}

/** Wire form of a Ticker, as the exchange sends it. */
export function tickerToWire(t: Ticker): Record<string, unknown> {
  return wireRecord({ ...t, timestamp: msToIso(t.timestamp) });
}

/** Price quote (`GET /api/3/public/price/rate`), keyed by source currency. */
export interface PriceRate {
  /** Target (quote) currency. */
  readonly currency: string;
  readonly price: DecimalString;
  readonly timestamp: number;
}

/** Parses a price quote. */
export function parsePriceRate(value: unknown, path = 'rate'): PriceRate {
  const o = asObject(value, path);
  return {
    currency: reqString(o, 'currency', path),
    price: reqDecimalString(o, 'price', path),
    timestamp: reqTime(o, 'timestamp', path),
  };
}

/** Parses the source-currency-keyed response of `GET /api/3/public/price/rate`. */
export function parsePriceRateMap(value: unknown, path = 'rates'): Record<string, PriceRate> {
  return mapKeyed(value, path, (v, p) => parsePriceRate(v, p));
}

/** Last ticker price (`GET /api/3/public/price/ticker`). */
export interface LastPrice {
  readonly price: DecimalString;
  readonly timestamp: number;
}

/** Parses a last ticker price. */
export function parseLastPrice(value: unknown, path = 'price'): LastPrice {
  const o = asObject(value, path);
  return { price: reqDecimalString(o, 'price', path), timestamp: reqTime(o, 'timestamp', path) };
}

/** Parses the symbol-keyed response of `GET /api/3/public/price/ticker`. */
export function parseLastPriceMap(value: unknown, path = 'prices'): Record<string, LastPrice> {
  return mapKeyed(value, path, (v, p) => parseLastPrice(v, p));
}

/** One entry of a price history. */
export interface PriceHistoryPoint {
  readonly timestamp: number;
  readonly open: DecimalString;
  readonly close: DecimalString;
  readonly min: DecimalString;
  readonly max: DecimalString;
}

/** Price history (`GET /api/3/public/price/history`), keyed by source currency. */
export interface PriceHistory {
  readonly currency: string;
  readonly history: readonly PriceHistoryPoint[];
}

function parsePriceHistoryPoint(value: unknown, path: string): PriceHistoryPoint {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 'timestamp', path),
    open: reqDecimalString(o, 'open', path),
    close: reqDecimalString(o, 'close', path),
    min: reqDecimalString(o, 'min', path),
    max: reqDecimalString(o, 'max', path),
  };
}

/** Parses a price history. */
export function parsePriceHistory(value: unknown, path = 'history'): PriceHistory {
  const o = asObject(value, path);
  return {
    currency: reqString(o, 'currency', path),
    history: reqArray(o, 'history', path, parsePriceHistoryPoint),
  };
}

/** Parses the source-currency-keyed response of `GET /api/3/public/price/history`. */
export function parsePriceHistoryMap(value: unknown, path = 'histories'): Record<string, PriceHistory> {
  return mapKeyed(value, path, (v, p) => parsePriceHistory(v, p));
}

