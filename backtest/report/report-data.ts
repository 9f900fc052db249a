import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import type { BacktestResult, PriceBar } from './backtest-result.js';

/** A point of a chart series: UTC seconds and a decimal string (the page converts with `Number`). */
export type SeriesPoint = readonly [time: number, value: string];

/** A fill marker, placed on the bar that contains the fill. */
export interface ReportMarker {
  readonly time: number;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly quantity: string;
}

/** The chart data a report page embeds as JSON. Times are UTC seconds, ascending and unique per series. */
export interface ReportData {
  readonly quoteCurrency: string;
  readonly symbols: readonly string[];
  /** Per symbol: `[time, open, high, low, close]` bars and the fill markers. */
  readonly prices: Readonly<Record<string, {
    readonly bars: readonly (readonly [number, string, string, string, string])[];
    readonly markers: readonly ReportMarker[];
  }>>;
  readonly equity: readonly SeriesPoint[];
  /** `-(peak - equity) / peak` (0 or negative) at each equity sample, 8 decimals. */
  readonly drawdown: readonly SeriesPoint[];
  readonly positions: Readonly<Record<string, readonly SeriesPoint[]>>;
}

/** Chart libraries want strictly ascending times: several samples in one second keep the last. */
function lastPerSecond<T extends readonly [number, ...unknown[]]>(rows: readonly T[]): T[] {
  const out: T[] = [];
  for (const row of rows) {
    if (out.length > 0 && out[out.length - 1]![0] === row[0]) out[out.length - 1] = row;
    else out.push(row);
  }
  return out;
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** Time of the last bar opening at or before `time` (the first bar when the fill precedes all bars). */
function barTime(bars: readonly { readonly 0: number }[], time: number): number | undefined {
  let lo = 0;
  let hi = bars.length - 1;
  if (hi < 0) return undefined;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bars[mid]![0] <= time) lo = mid;
    else hi = mid - 1;
  }
  return bars[lo]![0];
}

function barRow(bar: PriceBar): readonly [number, string, string, string, string] {
  return [seconds(bar.time), bar.open.toFixed(), bar.high.toFixed(), bar.low.toFixed(), bar.close.toFixed()];
}

/**
 * Turns a result into chart series. Symbols are those of the meta plus any that have bars, fills or
 * positions, in that order; fills of a symbol without bars get no marker (nothing to attach to).
 */
export function buildReportData(result: BacktestResult): ReportData {
  const symbols = [...new Set([
    ...result.meta.symbols,
    ...Object.keys(result.prices),
    ...result.fills.map((f) => f.symbol),
    ...result.equity.flatMap((p) => Object.keys(p.positions)),
  ])];
  const prices: Record<string, ReportData['prices'][string]> = {};
  for (const symbol of symbols) {
    const bars = lastPerSecond((result.prices[symbol] ?? []).map(barRow));
    const markers: ReportMarker[] = [];
    for (const fill of result.fills) {
      if (fill.symbol !== symbol) continue;
      const time = barTime(bars, seconds(fill.time));
      if (time === undefined) continue;
      markers.push({ time, side: fill.side, price: fill.price.toFixed(), quantity: fill.quantity.toFixed() });
    }
    prices[symbol] = { bars, markers };
  }

  const equity: SeriesPoint[] = [];
  const drawdown: SeriesPoint[] = [];
  let peak: Decimal | undefined;
  for (const point of result.equity) {
    const t = seconds(point.time);
    equity.push([t, point.equity.toFixed()]);
    if (peak === undefined || point.equity.greaterThan(peak)) peak = point.equity;
    const dd = peak.greaterThan(ZERO) ? peak.minus(point.equity).dividedBy(peak).negated() : ZERO;
    drawdown.push([t, dd.toDecimalPlaces(8).toFixed()]);
  }

  const positions: Record<string, SeriesPoint[]> = {};
  for (const symbol of symbols) {
    positions[symbol] = lastPerSecond(result.equity.map((p): SeriesPoint =>
      [seconds(p.time), (p.positions[symbol] ?? ZERO).toFixed()]));
  }
  return {
    quoteCurrency: result.meta.quoteCurrency,
    symbols,
    prices,
    equity: lastPerSecond(equity),
    drawdown: lastPerSecond(drawdown),
    positions,
  };
}
