import type { Decimal } from '../decimal.js';
import type { Side } from '../instrument.js';
import {
  asObject, mapArray, optBool, optDecimal, optId, reqBool, reqDecimal, reqEnum, reqId, reqString, reqTime,
} from '../wire.js';
import { SIDES } from './order.js';

/** API v3 trade history record (`GET /api/3/{spot|futures}/history/trade`). */
export interface TradeHistoryRecord {
  /** Number for spot, string for futures: kept as text either way. */
  readonly id: string;
  readonly order_id: string;
  readonly client_order_id: string;
  readonly symbol: string;
  readonly side: Side;
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** In the symbol's fee_currency; negative is a rebate. */
  readonly fee: Decimal;
  readonly timestamp: number;
  readonly taker: boolean;
  /** Futures. */
  readonly position_id?: string;
  /** Futures: realized profit and loss of the trade. */
  readonly pnl?: Decimal;
  /** Futures: a liquidation trade. */
  readonly liquidation?: boolean;
}

/** Parses a trade history record. */
export function parseTradeHistoryRecord(value: unknown, path = 'trade'): TradeHistoryRecord {
  const o = asObject(value, path);
  return {
    id: reqId(o, 'id', path),
    order_id: reqId(o, 'order_id', path),
    client_order_id: reqString(o, 'client_order_id', path),
    symbol: reqString(o, 'symbol', path),
    side: reqEnum(o, 'side', SIDES, path),
    quantity: reqDecimal(o, 'quantity', path),
    price: reqDecimal(o, 'price', path),
    fee: reqDecimal(o, 'fee', path),
    timestamp: reqTime(o, 'timestamp', path),
    taker: reqBool(o, 'taker', path),
    position_id: optId(o, 'position_id', path),
    pnl: optDecimal(o, 'pnl', path),
    liquidation: optBool(o, 'liquidation', path),
  };
}

/** Parses the array response of trade history. */
export function parseTradeHistoryList(value: unknown, path = 'trades'): TradeHistoryRecord[] {
  return mapArray(value, path, (v, p) => parseTradeHistoryRecord(v, p));
}
