import type { DecimalString } from '../decimal.js';
import type { Side } from '../instrument.js';
import { asObject, mapArray, mapKeyed, reqDecimalString, reqEnum, reqId, reqTime } from '../wire.js';
import { SIDES } from './order.js';
import { idToWire, msToIso } from './wire-values.js';

/** API v3 public trade (`GET /api/3/public/trades`). */
export interface PublicTrade {
  readonly id: string;
  readonly price: DecimalString;
  readonly qty: DecimalString;
  /** Taker side. */
  readonly side: Side;
  readonly timestamp: number;
}

/** Parses a public trade. */
export function parsePublicTrade(value: unknown, path = 'trade'): PublicTrade {
  const o = asObject(value, path);
  return {
    id: reqId(o, 'id', path),
    price: reqDecimalString(o, 'price', path),
    qty: reqDecimalString(o, 'qty', path),
    side: reqEnum(o, 'side', SIDES, path),
    timestamp: reqTime(o, 'timestamp', path),
  };
}

/** Parses the array response of `GET /api/3/public/trades/{symbol}`. */
export function parsePublicTradeList(value: unknown, path = 'trades'): PublicTrade[] {
  return mapArray(value, path, (v, p) => parsePublicTrade(v, p));
}

/** Parses the symbol-keyed arrays of `GET /api/3/public/trades`. */
export function parsePublicTradeMap(value: unknown, path = 'trades'): Record<string, PublicTrade[]> {
  return mapKeyed(value, path, (v, p) => parsePublicTradeList(v, p));
}

/** Wire form of a public trade. */
export function publicTradeToWire(t: PublicTrade): Record<string, unknown> {
  return { id: idToWire(t.id), price: t.price, qty: t.qty, side: t.side, timestamp: msToIso(t.timestamp) };
}
