import type { Decimal } from '../../framework/model/decimal.js';
import type { BacktestResult } from './backtest-result.js';
import type { BacktestMetrics } from './metrics.js';

/** One labelled figure of a summary, already formatted for display. */
export interface SummaryRow {
  readonly label: string;
  readonly value: string;
}

/** Money for display: at most 8 decimals (half-even), plain notation, no trailing zeros. */
export function formatMoney(value: Decimal): string {
  return value.toDecimalPlaces(8).toFixed();
}

/** A fraction as a percentage with 2 decimals; `n/a` when undefined. */
export function formatPercent(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : `${(value * 100).toFixed(2)}%`;
}

/** A ratio with 3 decimals; `n/a` when undefined. */
export function formatRatio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(3);
}

/** A duration such as `2d 03h 04m 05s`, leading zero units left out; milliseconds under a second. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  let s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const parts = [[d, 'd'], [h, 'h'], [m, 'm'], [s, 's']] as const;
  const first = parts.findIndex(([n]) => n > 0);
  return parts.slice(first).map(([n, unit], i) => `${i === 0 ? n : String(n).padStart(2, '0')}${unit}`).join(' ');
}

/** A virtual time as ISO 8601 UTC. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString();
}

function byCurrency(values: Readonly<Record<string, Decimal>>): string {
  const entries = Object.entries(values);
  return entries.length === 0 ? '-' : entries.map(([c, v]) => `${formatMoney(v)} ${c}`).join(', ');
}

/**
 * The key figures of a run in display order, shared by the console summary and the HTML report so
 * both say the same thing the same way.
 */
export function summaryRows(result: BacktestResult, metrics: BacktestMetrics): SummaryRow[] {
  const q = metrics.quoteCurrency;
  const { meta } = result;
  return [
    { label: 'Strategy', value: meta.strategy },
    { label: 'Symbols', value: meta.symbols.join(', ') },
    { label: 'Period', value: `${formatTime(meta.startTime)} .. ${formatTime(meta.endTime)} (${formatDuration(meta.endTime - meta.startTime)})` },
    { label: 'Mode / seed / events', value: `${meta.mode} / ${meta.seed} / ${meta.events}` },
    { label: 'Equity start -> end', value: `${formatMoney(metrics.initialEquity)} -> ${formatMoney(metrics.finalEquity)} ${q}` },
    { label: 'Net PnL', value: `${formatMoney(metrics.pnlQuote)} ${q} (${formatPercent(metrics.returnFraction)})` },
    { label: 'PnL by currency', value: byCurrency(metrics.pnlByCurrency) },
    { label: 'Fees', value: `${formatMoney(metrics.feesQuote)} ${q}${metrics.feesNotValued.length > 0 ? ` + not valued: ${metrics.feesNotValued.join(', ')}` : ''}` },
    { label: 'Fees by currency', value: byCurrency(metrics.feesByCurrency) },
    { label: 'Orders / fills', value: `${metrics.orders} / ${metrics.fills}` },
    { label: 'Maker share (count / notional)', value: `${formatPercent(metrics.makerShareByCount)} / ${formatPercent(metrics.makerShareByNotional)}` },
    { label: 'Round trips (won)', value: `${metrics.roundTrips} (${metrics.winningRoundTrips})` },
    { label: 'Win rate', value: formatPercent(metrics.winRate) },
    { label: 'Round-trip PnL after fees', value: `${formatMoney(metrics.roundTripPnl)} ${q}` },
    { label: 'Sharpe / Sortino', value: `${formatRatio(metrics.sharpe)} / ${formatRatio(metrics.sortino)} (${formatDuration(metrics.periodMs)} returns, annualised)` },
    { label: 'Max drawdown', value: `${formatPercent(metrics.maxDrawdown)} (${formatMoney(metrics.maxDrawdownAmount)} ${q}), ${formatDuration(metrics.maxDrawdownDurationMs)}` },
    { label: 'Longest drawdown', value: formatDuration(metrics.longestDrawdownMs) },
    { label: 'Exposure', value: formatPercent(metrics.exposure) },
    { label: 'Turnover', value: `${formatRatio(metrics.turnover)} (notional ${formatMoney(metrics.tradedNotional)} ${q})` },
    { label: 'Book resyncs', value: String(meta.bookResyncs.length) },
  ];
}
