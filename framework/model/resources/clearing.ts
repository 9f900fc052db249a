import type { Decimal } from '../decimal.js';
import { asObject, mapArray, optDecimal, optId, optString, reqDecimal, reqString } from '../wire.js';
import { reqNanos } from './wire-values.js';

/** API v3 clearing detail record (`GET /api/3/{margin|futures}/history/clearing`). */
export interface ClearingRecord {
  /** UNIX nanoseconds, exact. */
  readonly timestamp: bigint;
  readonly position_id?: string;
  readonly position_quantity?: Decimal;
  readonly position_entry_value?: Decimal;
  /** `interest` (margin) or `funding` (futures); kept as text for forward compatibility. */
  readonly type: string;
  readonly symbol?: string;
  readonly currency: string;
  readonly amount: Decimal;
  /** Null when the charge occurred during a closing trade; absent when not sent. */
  readonly rate?: Decimal | null;
  /** Margin: debt collection during a closing trade. */
  readonly trade_id?: string;
  /** Returned when interest could not be paid but unrealized profit was positive. */
  readonly debt_delta?: Decimal;
}

/** Parses a clearing detail record. */
export function parseClearingRecord(value: unknown, path = 'clearing'): ClearingRecord {
  const o = asObject(value, path);
  return {
    timestamp: reqNanos(o, 'timestamp', path),
    position_id: optId(o, 'position_id', path),
    position_quantity: optDecimal(o, 'position_quantity', path),
    position_entry_value: optDecimal(o, 'position_entry_value', path),
    type: reqString(o, 'type', path),
    symbol: optString(o, 'symbol', path),
    currency: reqString(o, 'currency', path),
    amount: reqDecimal(o, 'amount', path),
    rate: o['rate'] === null ? null : optDecimal(o, 'rate', path),
    trade_id: optId(o, 'trade_id', path),
    debt_delta: optDecimal(o, 'debt_delta', path),
  };
}

/** Parses the array response of clearing history. */
export function parseClearingList(value: unknown, path = 'clearing'): ClearingRecord[] {
  return mapArray(value, path, (v, p) => parseClearingRecord(v, p));
}
