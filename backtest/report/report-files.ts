import { ZERO } from '../../framework/model/decimal.js';
import type { BacktestResult, EquityPoint, FillRecord, OrderRecord } from './backtest-result.js';
import { toCsv } from './csv.js';
import type { BacktestMetrics } from './metrics.js';
import { plain } from './plain-json.js';

const DAY_MS = 86_400_000;
/** First instant of year 10000: ISO texts from there on (and before 1970, here) take Date's own route. */
const YEAR_10000 = 253_402_300_800_000;
let isoDay = Number.NaN;
let isoDate = '';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, the date part formatted once per day: CSV rows come in time
 * order, one per fill or sample, and a long run writes hundreds of thousands of them.
 */
export function iso(ms: number): string {
  if (!(ms >= 0 && ms < YEAR_10000) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== isoDay) {
    isoDate = new Date(day * DAY_MS).toISOString().slice(0, 11);
    isoDay = day;
  }
  const inDay = ms - day * DAY_MS;
  const millis = inDay % 1000;
  const seconds = Math.floor(inDay / 1000);
  return `${isoDate}${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** Columns of fills.csv. */
export const FILL_COLUMNS: readonly string[] = [
  'time', 'time_iso', 'symbol', 'side', 'price', 'quantity', 'fee', 'fee_currency', 'liquidity',
  'client_order_id', 'trade_id', 'intent_id', 'strategy_id', 'cause',
  'decision_symbol', 'decision_received_at', 'decision_exchange_time', 'decision_sequence', 'decision_frame', 'liquidation',
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
    f.feeCurrency, f.liquidity, f.clientOrderId, f.tradeId, f.intentId ?? '', f.strategyId ?? '', f.cause ?? '', ...decisionCells(f.decision),
    f.liquidation === true ? 'true' : '',
  ];
}

/** The decision-frame cells of a fills.csv line (all empty when the frame is unknown). */
function decisionCells(d: FillRecord['decision']): string[] {
  if (d === undefined) return ['', '', '', '', ''];
  return [d.symbol, String(d.receivedAt), d.exchangeTime === undefined ? '' : String(d.exchangeTime), d.sequence === undefined ? '' : String(d.sequence), String(d.index)];
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
  return [String(p.time), iso(p.time), p.equity.toFixed(), ...positionCells(p.positions, symbols)];
}

/** The position cells of an equity.csv line: each of `symbols`, 0 when absent. */
export function positionCells(positions: EquityPoint['positions'], symbols: readonly string[]): string[] {
  return symbols.map((s) => (positions[s] ?? ZERO).toFixed());
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
