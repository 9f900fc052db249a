import type { Decimal } from '../decimal.js';
import { ParseError } from '../errors.js';
import { orderToWire, readOrderFields, type Order } from '../resources/order.js';
import { idToWire, wireRecord } from '../resources/wire-values.js';
import { asObject, mapArray, optBool, optDecimal, optId, reqEnum, type WireObject } from '../wire.js';

/** Why an order report was sent. */
export const REPORT_TYPES = ['status', 'new', 'suspended', 'canceled', 'rejected', 'expired', 'replaced', 'trade'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** The trading accounts that stream order reports. */
export const TRADING_ACCOUNTS = ['spot', 'margin', 'futures'] as const;
export type TradingAccount = (typeof TRADING_ACCOUNTS)[number];

/**
 * Trading-stream order report (exchange-notes.md): every Order field but `trades`, plus why it was
 * sent and, for `report_type: 'trade'`, the execution it reports.
 */
export interface OrderReport extends Omit<Order, 'trades'> {
  readonly report_type: ReportType;
  readonly trade_id?: string;
  readonly trade_quantity?: Decimal;
  readonly trade_price?: Decimal;
  /** Negative is a rebate. */
  readonly trade_fee?: Decimal;
  readonly trade_taker?: boolean;
  /** Margin and futures. */
  readonly trade_position_id?: string;
  /**
   * Futures: true on the report of a forced close, the venue's own order (client_order_id
   * `liquidation-<position id>`) that closed a position of the account; absent otherwise.
   */
  readonly liquidation?: boolean;
}

/** Order reports of one notification: a snapshot after subscribing, or one change. */
export interface OrderReportNotification {
  readonly kind: 'orderReports';
  readonly account: TradingAccount;
  /** True for the `{account}_orders` snapshot of all active orders. */
  readonly snapshot: boolean;
  readonly reports: readonly OrderReport[];
  /** Latest `updated_at` of the reports, UNIX ms (the receive time for an empty snapshot). */
  readonly exchangeTime: number;
  /** Local receive time, UNIX ms, as given by the caller. */
  readonly receivedAt: number;
}

/** Parses an order report (a notification's params, or the `result` of a trading request). */
export function parseOrderReport(value: unknown, path = 'report'): OrderReport {
  const o = asObject(value, path);
  const { trades: _trades, ...order } = readOrderFields(o, path);
  return {
    ...order,
    report_type: reqEnum(o, 'report_type', REPORT_TYPES, path),
    trade_id: optId(o, 'trade_id', path),
    trade_quantity: optDecimal(o, 'trade_quantity', path),
    trade_price: optDecimal(o, 'trade_price', path),
    trade_fee: optDecimal(o, 'trade_fee', path),
    trade_taker: optBool(o, 'trade_taker', path),
    trade_position_id: optId(o, 'trade_position_id', path),
    // Only a forced close carries the key: the reports of the bot's own orders stay as they were.
    ...(optBool(o, 'liquidation', path) === true ? { liquidation: true } : {}),
  };
}

/** Wire form of an order report, as the trading stream sends it. */
export function orderReportToWire(report: OrderReport): Record<string, unknown> {
  const { report_type, trade_id, trade_quantity, trade_price, trade_fee, trade_taker, trade_position_id, liquidation, ...order } = report;
  return {
    ...orderToWire(order),
    ...wireRecord({
      report_type,
      trade_id: trade_id === undefined ? undefined : idToWire(trade_id),
      trade_quantity,
      trade_price,
      trade_fee,
      trade_taker,
      trade_position_id: trade_position_id === undefined ? undefined : idToWire(trade_position_id),
      liquidation: liquidation === true ? true : undefined,
    }),
  };
}

const ORDER_METHOD = /^(spot|margin|futures)_(orders?)$/;

/**
 * Parses `{"method":"spot_order","params":{...}}` (one change) or `{"method":"spot_orders",
 * "params":[...]}` (snapshot), and their `margin_`/`futures_` twins. Returns null for any other
 * frame (replies, other notifications); a ParseError when an order notification is malformed.
 */
export function parseOrderReportNotification(frame: unknown, receivedAt: number): OrderReportNotification | null {
  const msg = asObject(frame, 'frame');
  const method = msg['method'];
  if (typeof method !== 'string') return null;
  const m = ORDER_METHOD.exec(method);
  if (m === null) return null;
  const account = m[1] as TradingAccount;
  const snapshot = m[2] === 'orders';
  const reports = snapshot ? mapArray(params(msg), 'params', (v, p) => parseOrderReport(v, p)) : [parseOrderReport(params(msg), 'params')];
  let exchangeTime = reports.length === 0 ? receivedAt : -Infinity;
  for (const r of reports) if (r.updated_at > exchangeTime) exchangeTime = r.updated_at;
  return { kind: 'orderReports', account, snapshot, reports, exchangeTime, receivedAt };
}

function params(msg: WireObject): unknown {
  if (msg['params'] === undefined) throw new ParseError('params', 'is required');
  return msg['params'];
}
