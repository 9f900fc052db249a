import type { DecimalString } from '../decimal.js';
import { asObject, mapArray, mapKeyed, reqDecimalString, reqTime } from '../wire.js';
import { msToIso } from './wire-values.js';

/** Candle periods (`1M` is one month). */
export const CANDLE_PERIODS = ['M1', 'M3', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'D7', '1M'] as const;
export type CandlePeriod = (typeof CANDLE_PERIODS)[number];

/** API v3 Candle (`GET /api/3/public/candles`). */
export interface Candle {
  /** Period start, UNIX ms. */
  readonly timestamp: number;
  readonly open: DecimalString;
  /** Last price of the period. */
  readonly close: DecimalString;
  readonly min: DecimalString;
  readonly max: DecimalString;
  /** Base currency volume. */
  readonly volume: DecimalString;
  /** Quote currency volume. */
  readonly volume_quote: DecimalString;
}

/** Parses a candle. */
export function parseCandle(value: unknown, path = 'candle'): Candle {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 'timestamp', path),
    open: reqDecimalString(o, 'open', path),
    close: reqDecimalString(o, 'close', path),
    min: reqDecimalString(o, 'min', path),
    max: reqDecimalString(o, 'max', path),
    volume: reqDecimalString(o, 'volume', path),
    volume_quote: reqDecimalString(o, 'volume_quote', path),
  };
}

/** Parses the array response of `GET /api/3/public/candles/{symbol}`. */
export function parseCandleList(value: unknown, path = 'candles'): Candle[] {
  return mapArray(value, path, (v, p) => parseCandle(v, p));
}

/** Parses the symbol-keyed arrays of `GET /api/3/public/candles`. */
export function parseCandleMap(value: unknown, path = 'candles'): Record<string, Candle[]> {
  return mapKeyed(value, path, (v, p) => parseCandleList(v, p));
}

/** Wire form of a candle. */
export function candleToWire(c: Candle): Record<string, unknown> {
  return { ...c, timestamp: msToIso(c.timestamp) };
}

/** True when `text` is a candle period. */
export function isCandlePeriod(text: string): text is CandlePeriod {
  return (CANDLE_PERIODS as readonly string[]).includes(text);
}
