import { Decimal } from '../../framework/model/decimal.js';
import type { BacktestResult } from './backtest-result.js';
import type { BacktestMetrics } from './metrics.js';

/** One labelled figure of a summary, already formatted for display. */
export interface SummaryRow {
  readonly label: string;
  readonly value: string;
}

/**
 * Currencies shown to the cent: fiat and the stablecoins that track it. Any other currency (a
 * coin, a token) is shown to 8 significant digits.
 */
const CENT_CURRENCIES = new Set(['USD', 'EUR', 'GBP', 'CHF', 'CAD', 'AUD', 'USDT', 'USDC', 'BUSD', 'FDUSD', 'TUSD', 'DAI', 'USDP', 'EURT']);
/** Significant digits of an amount that is not shown to the cent. */
const MONEY_DIGITS = 8;
/** Significant digits of a non-zero amount smaller than a cent, which cents would show as 0.00. */
const SUB_CENT_DIGITS = 2;
const CENT = new Decimal('0.01');

/**
 * An amount for display, rounded half up: to the cent in a cent currency (`1234.57`; an amount
 * under a cent to 2 significant digits, `0.0043`, so it does not read as zero), otherwise to 8
 * significant digits (`0.012345679`); plain notation. Exact values are in summary.json and the
 * CSV files.
 */
export function formatMoney(value: Decimal, currency?: string): string {
  if (currency !== undefined && CENT_CURRENCIES.has(currency)) {
    if (value.isZero()) return '0.00';
    if (value.abs().lessThan(CENT)) return value.toSignificantDigits(SUB_CENT_DIGITS, Decimal.ROUND_HALF_UP).toFixed();
    return value.toFixed(2, Decimal.ROUND_HALF_UP);
  }
  if (value.isZero()) return '0';
  return value.toSignificantDigits(MONEY_DIGITS, Decimal.ROUND_HALF_UP).toFixed();
}

/** A fraction as a percentage with 2 decimals; `n/a` when undefined. */
export function formatPercent(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : `${(value * 100).toFixed(2)}%`;
}

/** A ratio with 2 decimals; `n/a` when undefined. */
export function formatRatio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(2);
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
  return entries.length === 0 ? '-' : entries.map(([c, v]) => `${formatMoney(v, c)} ${c}`).join(', ');
}

/** The Sharpe and Sortino row: both ratios, their period, and why either is n/a. */
function ratiosText(metrics: BacktestMetrics): string {
  const why: string[] = [];
  if (metrics.sharpeUnavailable !== undefined && metrics.sharpeUnavailable === metrics.sortinoUnavailable) {
    why.push(`n/a: ${metrics.sharpeUnavailable}`);
  } else {
    if (metrics.sharpeUnavailable !== undefined) why.push(`Sharpe n/a: ${metrics.sharpeUnavailable}`);
    if (metrics.sortinoUnavailable !== undefined) why.push(`Sortino n/a: ${metrics.sortinoUnavailable}`);
  }
  return `${formatRatio(metrics.sharpe)} / ${formatRatio(metrics.sortino)} (${[`${formatDuration(metrics.periodMs)} returns, annualised`, ...why].join('; ')})`;
}

/** Orders that never filled, by final status: `0`, or `2 (expired 1, canceled 1)`. */
function unfilledText(result: BacktestResult): string {
  let byStatus = result.streamed?.digest.unfilledByStatus;
  if (byStatus === undefined) {
    const counted = new Map<string, number>();
    for (const order of result.orders) {
      if (order.filledQuantity.isZero()) counted.set(order.status, (counted.get(order.status) ?? 0) + 1);
    }
    byStatus = counted;
  }
  const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
  return total === 0 ? '0' : `${total} (${[...byStatus].map(([status, n]) => `${status} ${n}`).join(', ')})`;
}

/**
 * The key figures of a run in display order, shared by the console summary and the HTML report so
 * both say the same thing the same way: rounded for reading (money by {@link formatMoney}, ratios
 * to 2 decimals, percentages to 2 decimals); summary.json and the CSV files keep the exact values.
 */
export function summaryRows(result: BacktestResult, metrics: BacktestMetrics): SummaryRow[] {
  const q = metrics.quoteCurrency;
  const { meta } = result;
  return [
    { label: 'Strategy', value: meta.strategy },
    { label: 'Symbols', value: meta.symbols.join(', ') },
    { label: 'Period', value: `${formatTime(meta.startTime)} .. ${formatTime(meta.endTime)} (${formatDuration(meta.endTime - meta.startTime)})` },
    { label: 'Mode / seed / events', value: `${meta.mode} / ${meta.seed} / ${meta.events}` },
    { label: 'Equity start -> end', value: `${formatMoney(metrics.initialEquity, q)} -> ${formatMoney(metrics.finalEquity, q)} ${q}` },
    { label: 'Net PnL', value: `${formatMoney(metrics.pnlQuote, q)} ${q} (${formatPercent(metrics.returnFraction)})` },
    { label: 'PnL by currency', value: byCurrency(metrics.pnlByCurrency) },
    { label: 'Fees', value: `${formatMoney(metrics.feesQuote, q)} ${q}${metrics.feesNotValued.length > 0 ? ` + not valued: ${metrics.feesNotValued.join(', ')}` : ''}` },
    { label: 'Fees by currency', value: byCurrency(metrics.feesByCurrency) },
    { label: 'Orders / fills', value: `${metrics.orders} / ${metrics.fills}` },
    { label: 'Orders never filled', value: unfilledText(result) },
    { label: 'Maker share (count / notional)', value: `${formatPercent(metrics.makerShareByCount)} / ${formatPercent(metrics.makerShareByNotional)}` },
    { label: 'Round trips (won)', value: `${metrics.roundTrips} (${metrics.winningRoundTrips})` },
    { label: 'Win rate', value: formatPercent(metrics.winRate) },
    { label: 'Round-trip PnL after fees', value: `${formatMoney(metrics.roundTripPnl, q)} ${q}` },
    { label: 'Sharpe / Sortino', value: ratiosText(metrics) },
    { label: 'Max drawdown', value: `${formatPercent(metrics.maxDrawdown)} (${formatMoney(metrics.maxDrawdownAmount, q)} ${q}), ${formatDuration(metrics.maxDrawdownDurationMs)}` },
    { label: 'Longest drawdown', value: formatDuration(metrics.longestDrawdownMs) },
    { label: 'Exposure', value: formatPercent(metrics.exposure) },
    { label: 'Turnover', value: `${formatRatio(metrics.turnover)} (notional ${formatMoney(metrics.tradedNotional, q)} ${q})` },
    { label: 'Book resyncs', value: String(meta.bookResyncs.length) },
    ...(meta.futures === undefined ? [] : [
      { label: 'Funding paid / received', value: `${byCurrency(meta.futures.fundingPaid)} / ${byCurrency(meta.futures.fundingReceived)}` },
      { label: 'Liquidations', value: String(meta.futures.liquidations.length) },
    ]),
  ];
}
