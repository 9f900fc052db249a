import { ZERO } from '../../framework/model/decimal.js';
import type { BacktestResult, EquityPoint, FillRecord, OrderRecord } from './backtest-result.js';
import { toCsv } from './csv.js';
import type { BacktestMetrics } from './metrics.js';
import { plain } from './plain-json.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Columns of fills.csv. */
export const FILL_COLUMNS: readonly string[] = [
  'time', 'time_iso', 'symbol', 'side', 'price', 'quantity', 'fee', 'fee_currency', 'liquidity',
  'client_order_id', 'trade_id', 'intent_id', 'strategy_id', 'cause',
];

/** Columns of orders.csv. */
export const ORDER_COLUMNS: readonly string[] = [
  'client_order_id', 'intent_id', 'symbol', 'side', 'type', 'price', 'quantity', 'filled_quantity', 'status',
  'created_at', 'updated_at',
];

/** Columns of equity.csv: one position column per symbol (sorted by the caller). */
export function equityColumns(quoteCurrency: string, symbols: readonly string[]): string[] {
  return ['time', 'time_iso', `equity_${quoteCurrency}`, ...symbols.map((s) => `position_${s}`)];
}

/** A line of fills.csv: decimals exact, times as ms and ISO 8601. */
export function fillCells(f: FillRecord): string[] {
  return [
    String(f.time), iso(f.time), f.symbol, f.side, f.price.toFixed(), f.quantity.toFixed(), f.fee.toFixed(),
    f.feeCurrency, f.liquidity, f.clientOrderId, f.tradeId, f.intentId ?? '', f.strategyId ?? '', f.cause ?? '',
  ];
}

/** A line of orders.csv; no price for market orders. */
export function orderCells(o: OrderRecord): string[] {
  return [
    o.clientOrderId, o.intentId ?? '', o.symbol, o.side, o.type, o.price?.toFixed() ?? '', o.quantity.toFixed(),
    o.filledQuantity.toFixed(), o.status, String(o.createdAt), String(o.updatedAt),
  ];
}

/** A line of equity.csv: the position of each of `symbols`, 0 when absent. */
export function equityCells(p: EquityPoint, symbols: readonly string[]): string[] {
  return [String(p.time), iso(p.time), p.equity.toFixed(), ...symbols.map((s) => (p.positions[s] ?? ZERO).toFixed())];
}

/** fills.csv: one line per fill in time order. */
export function fillsCsv(result: BacktestResult): string {
  return toCsv(FILL_COLUMNS, result.fills.map(fillCells));
}

/** orders.csv: the final state of every order, in the result's order. */
export function ordersCsv(result: BacktestResult): string {
  return toCsv(ORDER_COLUMNS, result.orders.map(orderCells));
}

/** equity.csv: every equity sample with one position column per symbol (sorted), 0 when absent. */
export function equityCsv(result: BacktestResult): string {
  const symbols = [...new Set(result.equity.flatMap((p) => Object.keys(p.positions)))].sort();
  return toCsv(equityColumns(result.meta.quoteCurrency, symbols), result.equity.map((p) => equityCells(p, symbols)));
}

/**
 * summary.json: the meta without `wallMs` (the one wall-clock figure, kept for run.json) and every
 * metric, so identical results give identical bytes.
 */
export function summaryJson(result: BacktestResult, metrics: BacktestMetrics): string {
  const { wallMs: _wallMs, ...meta } = result.meta;
  return `${JSON.stringify({ meta: plain(meta), metrics: plain(metrics) }, null, 2)}\n`;
}

/** run.json: how long the run took in wall time and its replay speed; differs between runs. */
export function runJson(result: BacktestResult): string {
  const { wallMs, events } = result.meta;
  const eventsPerSecond = wallMs > 0 ? Math.round((events / wallMs) * 1000) : null;
  return `${JSON.stringify({ wallMs, events, eventsPerSecond }, null, 2)}\n`;
}
