import { ParseError } from '../errors.js';
import type { CandlePeriod } from '../resources/candle.js';
import { asObject, childPath, mapArray, type WireObject } from '../wire.js';
import { parseChannel, type BookDepth, type ChannelInfo } from './channel.js';
import {
  parseCandleTick, parsePartialBookTick, parseTickerTick, parseTopOfBookTick, parseTradeTick,
  type CandleTick, type PartialBookTick, type TickerTick, type TopOfBookTick, type TradeTick,
} from './market-records.js';

/** Fields every market event carries. */
export interface MarketEventBase {
  /** The channel as sent, e.g. `candles/M1`, `ticker/1s/batch`. */
  readonly channel: string;
  readonly symbol: string;
  /** True for a `snapshot` notification; false for `update` and `data`. */
  readonly snapshot: boolean;
  /**
   * Exchange time, UNIX ms: the latest record `t` of this symbol in the frame (the receive time when
   * a snapshot carries no record at all).
   */
  readonly exchangeTime: number;
  /** Local receive time, UNIX ms, as given by the caller. */
  readonly receivedAt: number;
}

/** Public trades of one symbol. */
export interface TradesEvent extends MarketEventBase {
  readonly kind: 'trades';
  readonly trades: readonly TradeTick[];
}

/** Candles of one symbol and period. */
export interface CandlesEvent extends MarketEventBase {
  readonly kind: 'candles';
  readonly period: CandlePeriod;
  readonly candles: readonly CandleTick[];
}

/** Full ticker of one symbol. */
export interface TickerEvent extends MarketEventBase {
  readonly kind: 'ticker';
  readonly ticker: TickerTick;
}

/** 24 h price window of one symbol (`ticker/price/{speed}`). */
export interface TickerPriceEvent extends MarketEventBase {
  readonly kind: 'tickerPrice';
  readonly price: CandleTick;
}

/** Top levels of a book, replacing the previous ones. */
export interface PartialBookEvent extends MarketEventBase {
  readonly kind: 'partialBook';
  readonly depth: BookDepth;
  readonly book: PartialBookTick;
}

/** Best bid and ask. */
export interface TopOfBookEvent extends MarketEventBase {
  readonly kind: 'topOfBook';
  readonly top: TopOfBookTick;
}

/** A market-data stream event, tagged by `kind`. */
export type MarketEvent = TradesEvent | CandlesEvent | TickerEvent | TickerPriceEvent | PartialBookEvent | TopOfBookEvent;

/**
 * Parses a public-stream frame into events, one per symbol (a `/batch` frame carries several).
 * Returns [] for frames this module does not own: subscription replies, errors, and `orderbook/full`
 * (the book module keeps sequence state for it). A malformed notification is a ParseError naming the
 * field, e.g. `update.BTCUSDT[2].p`.
 */
export function parseMarketNotification(frame: unknown, receivedAt: number): MarketEvent[] {
  const msg = asObject(frame, 'frame');
  const ch = msg['ch'];
  if (ch === undefined) return [];
  if (typeof ch !== 'string') throw new ParseError('ch', 'must be a string', ch);
  const info = parseChannel(ch);
  if (info.kind === 'fullBook') return [];
  const key = msg['snapshot'] !== undefined ? 'snapshot' : msg['update'] !== undefined ? 'update' : msg['data'] !== undefined ? 'data' : undefined;
  if (key === undefined) {
    // A reply that echoes `ch` (e.g. `{"result":{...},"ch":...}`) is not a notification.
    if (msg['result'] !== undefined || msg['error'] !== undefined) return [];
    throw new ParseError('frame', 'must carry snapshot, update or data', ch);
  }
  const bySymbol = asObject(msg[key], key);
  const snapshot = key === 'snapshot';
  const out: MarketEvent[] = [];
  for (const symbol of Object.keys(bySymbol)) {
    out.push(parseSymbolEvent(info, ch, symbol, bySymbol[symbol], childPath(key, symbol), snapshot, receivedAt));
  }
  return out;
}

function parseSymbolEvent(
  info: ChannelInfo, channel: string, symbol: string, value: unknown, path: string, snapshot: boolean, receivedAt: number,
): MarketEvent {
  switch (info.kind) {
    case 'trades': {
      const trades = mapArray(value, path, parseTradeTick);
      return { kind: 'trades', channel, symbol, snapshot, exchangeTime: latest(trades, receivedAt), receivedAt, trades };
    }
    case 'candles': {
      const candles = mapArray(value, path, parseCandleTick);
      const period = info.period as CandlePeriod;
      return { kind: 'candles', channel, symbol, snapshot, exchangeTime: latest(candles, receivedAt), receivedAt, period, candles };
    }
    case 'ticker': {
      const ticker = parseTickerTick(value, path);
      return { kind: 'ticker', channel, symbol, snapshot, exchangeTime: ticker.timestamp, receivedAt, ticker };
    }
    case 'tickerPrice': {
      const price = parseCandleTick(value, path);
      return { kind: 'tickerPrice', channel, symbol, snapshot, exchangeTime: price.timestamp, receivedAt, price };
    }
    case 'partialBook': {
      const book = parsePartialBookTick(value, path);
      const depth = info.depth as BookDepth;
      return { kind: 'partialBook', channel, symbol, snapshot, exchangeTime: book.timestamp, receivedAt, depth, book };
    }
    case 'topOfBook': {
      const top = parseTopOfBookTick(value, path);
      return { kind: 'topOfBook', channel, symbol, snapshot, exchangeTime: top.timestamp, receivedAt, top };
    }
    default:
      throw new ParseError('ch', 'is not a market-event channel', channel);
  }
}

function latest(records: readonly { readonly timestamp: number }[], fallback: number): number {
  if (records.length === 0) return fallback;
  let max = -Infinity;
  for (const r of records) if (r.timestamp > max) max = r.timestamp;
  return max;
}

/** True when a frame is a market-data notification (has `ch` and a payload), whatever its channel. */
export function isMarketNotification(frame: unknown): frame is WireObject {
  if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return false;
  const msg = frame as WireObject;
  return typeof msg['ch'] === 'string' && (msg['snapshot'] !== undefined || msg['update'] !== undefined || msg['data'] !== undefined);
}
