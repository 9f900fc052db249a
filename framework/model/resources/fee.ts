import type { Decimal } from '../decimal.js';
import { asObject, mapArray, reqDecimal, reqString } from '../wire.js';
import { wireRecord } from './wire-values.js';

/** API v3 fee rate (`GET /api/3/{spot|futures}/fee`). */
export interface FeeRate {
  readonly symbol: string;
  readonly take_rate: Decimal;
  /** Negative is a rebate. */
  readonly make_rate: Decimal;
}

/** Parses a fee rate. */
export function parseFeeRate(value: unknown, path = 'fee'): FeeRate {
  const o = asObject(value, path);
  return {
    symbol: reqString(o, 'symbol', path),
    take_rate: reqDecimal(o, 'take_rate', path),
    make_rate: reqDecimal(o, 'make_rate', path),
  };
}

/** Parses the array response of `GET /api/3/spot/fee`. */
export function parseFeeRateList(value: unknown, path = 'fees'): FeeRate[] {
  return mapArray(value, path, (v, p) => parseFeeRate(v, p));
}

/** Wire form of a fee rate. */
export function feeRateToWire(f: FeeRate): Record<string, unknown> {
  return wireRecord({ ...f });
}
