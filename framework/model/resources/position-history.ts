import type { Decimal } from '../decimal.js';
import { asObject, mapArray, optBool, optDecimal, optString, reqDecimal, reqEnum, reqId, reqString } from '../wire.js';
import { reqNanos } from './wire-values.js';

/** Position states. */
export const POSITION_STATES = ['closed', 'active', 'liquidated'] as const;
export type PositionState = (typeof POSITION_STATES)[number];

/** API v3 position history record (`GET /api/3/{margin|futures}/history/positions`). */
export interface PositionHistoryRecord {
  readonly id: string;
  readonly symbol: string;
  /** `isolated` in the documented API. */
  readonly margin_mode?: string;
  readonly state: PositionState;
  readonly quantity: Decimal;
  readonly entry_value?: Decimal;
  readonly entry_price?: Decimal;
  readonly avg_buy_price?: Decimal;
  readonly avg_sell_price?: Decimal;
  readonly margin_call_price?: Decimal;
  readonly liquidation_price?: Decimal;
  readonly bankruptcy_price?: Decimal;
  /** In quote currency. */
  readonly margin?: Decimal;
  /** Reserved for close orders. */
  readonly required_margin?: Decimal;
  /** Reserved for open orders. */
  readonly orders_margin?: Decimal;
  readonly pnl?: Decimal;
  readonly leverage?: Decimal;
  /** Close to liquidation. */
  readonly margin_call?: boolean;
  /** UNIX nanoseconds, exact. */
  readonly create_timestamp: bigint;
  /** UNIX nanoseconds, exact. */
  readonly update_timestamp: bigint;
}

/** Parses a position history record. */
export function parsePositionHistoryRecord(value: unknown, path = 'position'): PositionHistoryRecord {
  const o = asObject(value, path);
  return {
    id: reqId(o, 'id', path),
    symbol: reqString(o, 'symbol', path),
    margin_mode: optString(o, 'margin_mode', path),
    state: reqEnum(o, 'state', POSITION_STATES, path),
    quantity: reqDecimal(o, 'quantity', path),
    entry_value: optDecimal(o, 'entry_value', path),
    entry_price: optDecimal(o, 'entry_price', path),
    avg_buy_price: optDecimal(o, 'avg_buy_price', path),
    avg_sell_price: optDecimal(o, 'avg_sell_price', path),
    margin_call_price: optDecimal(o, 'margin_call_price', path),
    liquidation_price: optDecimal(o, 'liquidation_price', path),
    bankruptcy_price: optDecimal(o, 'bankruptcy_price', path),
    margin: optDecimal(o, 'margin', path),
    required_margin: optDecimal(o, 'required_margin', path),
    orders_margin: optDecimal(o, 'orders_margin', path),
    pnl: optDecimal(o, 'pnl', path),
    leverage: optDecimal(o, 'leverage', path),
    margin_call: optBool(o, 'margin_call', path),
    create_timestamp: reqNanos(o, 'create_timestamp', path),
    update_timestamp: reqNanos(o, 'update_timestamp', path),
  };
}

/** Parses the array response of position history. */
export function parsePositionHistoryList(value: unknown, path = 'positions'): PositionHistoryRecord[] {
  return mapArray(value, path, (v, p) => parsePositionHistoryRecord(v, p));
}
