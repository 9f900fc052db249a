import type { DecimalString } from '../decimal.js';
import { ParseError } from '../errors.js';
import { asArray, asObject, decimalStringAt, mapKeyed, reqArray, reqTime } from '../wire.js';

/** One book level: `[price, amount]`, exact text. */
export type BookLevel = readonly [price: DecimalString, amount: DecimalString];

/** REST order book (`GET /api/3/public/orderbook`). Asks ascend, bids descend, as sent. */
export interface OrderBookSnapshot {
  /** UNIX ms; the nanosecond digits the exchange may add are dropped. */
  readonly timestamp: number;
  readonly ask: readonly BookLevel[];
  readonly bid: readonly BookLevel[];
}

/** Parses one `[price, amount]` level; shared with the streaming book channels. */
export function parseBookLevel(value: unknown, path: string): BookLevel {
  const arr = asArray(value, path);
  if (arr.length < 2) throw new ParseError(path, 'must be a [price, amount] pair', value);
  return [decimalStringAt(arr[0], `${path}[0]`), decimalStringAt(arr[1], `${path}[1]`)];
}

/** Parses an order book. */
export function parseOrderBookSnapshot(value: unknown, path = 'orderbook'): OrderBookSnapshot {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 'timestamp', path),
    ask: reqArray(o, 'ask', path, parseBookLevel),
    bid: reqArray(o, 'bid', path, parseBookLevel),
  };
}

/** Parses the symbol-keyed response of `GET /api/3/public/orderbook`. */
export function parseOrderBookMap(value: unknown, path = 'orderbooks'): Record<string, OrderBookSnapshot> {
  return mapKeyed(value, path, (v, p) => parseOrderBookSnapshot(v, p));
}
