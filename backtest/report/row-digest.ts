import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import type { BacktestResult, EquityPoint, FillRecord, OrderRecord } from './backtest-result.js';
import { ThinnedSeries } from './report-series.js';
import { compareEquity, equityText, isPositiveEquity, ScaledEquityPoint } from './scaled-equity.js';

/** Points of the equity, drawdown and position charts at most (a long run's samples are thinned out). */
export const CHART_SAMPLES = 2_000;

/** Fills drawn per symbol at most (a long run's page stays light; fills.csv has them all). */
export const CHART_FILLS_PER_SYMBOL = 5_000;

/** Fills listed in the page; the rest are only in fills.csv, which keeps the page light. */
export const HTML_FILL_ROWS = 500;

/** A drawdown point before it is text: the sample and the peak so far. */
interface DrawdownValue {
  readonly point: EquityPoint;
  readonly peak: EquityPoint;
  /** `-(peak - equity) / peak`, worked out when first needed. */
  ratio?: Decimal;
}

const seconds = (ms: number): number => Math.floor(ms / 1000);
const keepLast = <V>(_kept: V, next: V): V => next;

function ratioOf(value: DrawdownValue): Decimal {
  value.ratio ??= isPositiveEquity(value.peak) ? value.peak.equity.minus(value.point.equity).dividedBy(value.peak.equity).negated() : ZERO;
  return value.ratio;
}

/** Units of 10^-8, the drawdown texts' precision. */
const RATIO_UNITS = 100_000_000n;

/**
 * `ratioOf(value)` to 8 decimals (half to even) as `toFixed()` writes it. For a sample and peak
 * in units of one scale it is worked out in BigInt: the exact quotient rounded once equals
 * decimal.js's, which rounds it to 50 digits first, as a quotient of integers below 2^53 is never
 * that close to a half unit of the 8th decimal without being one.
 */
function ratioText(value: DrawdownValue): string {
  const { point, peak } = value;
  if (!(point instanceof ScaledEquityPoint && peak instanceof ScaledEquityPoint && point.scale === peak.scale && peak.units > 0)) {
    return ratioOf(value).toDecimalPlaces(8).toFixed();
  }
  const numerator = (BigInt(peak.units) - BigInt(point.units)) * RATIO_UNITS;
  const denominator = BigInt(peak.units);
  let quotient = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient++;
  if (quotient === 0n) return '0';
  const fraction = (quotient % RATIO_UNITS).toString().padStart(8, '0').replace(/0+$/, '');
  return `-${quotient / RATIO_UNITS}${fraction === '' ? '' : `.${fraction}`}`;
}

/**
 * The deeper of two drawdown points, the earlier on a tie: under one positive peak the lower
 * equity, without a division; else by their ratios. Exact ratios pick a point whose 8-decimal
 * text is the lowest text, the same the page would get by comparing texts.
 */
function keepDeepest(kept: DrawdownValue, next: DrawdownValue): DrawdownValue {
  if (kept.peak === next.peak && isPositiveEquity(kept.peak)) return compareEquity(next.point, kept.point) < 0 ? next : kept;
  return ratioOf(next).lessThan(ratioOf(kept)) ? next : kept;
}

/**
 * What the report page and the summary need of a run's fills, orders and equity samples, in
 * bounded memory whatever the run's length: counts, the first fills (the page's table and each
 * symbol's chart markers), orders that never filled by status, and the equity, drawdown and
 * position series thinned to {@link CHART_SAMPLES} points as they come (see {@link ThinnedSeries}).
 * Rows come in the result's order (fills and samples in time order, orders in creation order).
 *
 * `symbols` are those whose positions are charted: every symbol a sample may hold, named before
 * the first sample (a series of a symbol named later would miss its earlier zeros); a position or
 * fill of another symbol is refused.
 */
export class RowDigest {
  fillCount = 0;
  orderCount = 0;
  readonly firstFills: FillRecord[] = [];
  /** Orders that never filled, by final status, in the order the statuses first came. */
  readonly unfilledByStatus = new Map<string, number>();
  private readonly fillsBySymbol = new Map<string, { readonly fills: FillRecord[]; count: number }>();
  private readonly positionSymbols = new Set<string>();
  private readonly equitySeries = new ThinnedSeries<EquityPoint>(CHART_SAMPLES, keepLast);
  private readonly drawdownSeries = new ThinnedSeries<DrawdownValue>(CHART_SAMPLES, keepDeepest);
  private readonly positionSeries = new Map<string, ThinnedSeries<Decimal>>();
  private peak: EquityPoint | undefined;
  private positionsSeen: EquityPoint['positions'] | undefined;

  /** {@link positionSeries} as a list, in the same order. */
  private readonly chartedPositions: { readonly symbol: string; readonly series: ThinnedSeries<Decimal> }[];

  constructor(readonly symbols: readonly string[]) {
    for (const symbol of symbols) this.positionSeries.set(symbol, new ThinnedSeries<Decimal>(CHART_SAMPLES, keepLast));
    this.chartedPositions = [...this.positionSeries].map(([symbol, series]) => ({ symbol, series }));
  }

  /** The digest of a whole result held in memory, charting the symbols the page shows. */
  static of(result: BacktestResult): RowDigest {
    const digest = new RowDigest(chartSymbols(result.meta.symbols, Object.keys(result.prices), result.fills.map((f) => f.symbol), result.equity.flatMap((p) => Object.keys(p.positions))));
    for (const fill of result.fills) digest.addFill(fill);
    for (const order of result.orders) digest.addOrder(order);
    for (const point of result.equity) digest.addEquity(point);
    return digest;
  }

  /** A fill, after every earlier one. */
  addFill(fill: FillRecord): void {
    if (!this.positionSeries.has(fill.symbol)) throw new ValidationError('fills.symbol', 'must be a symbol of the run', fill.symbol);
    this.fillCount++;
    if (this.firstFills.length < HTML_FILL_ROWS) this.firstFills.push(fill);
    let entry = this.fillsBySymbol.get(fill.symbol);
    if (entry === undefined) this.fillsBySymbol.set(fill.symbol, (entry = { fills: [], count: 0 }));
    entry.count++;
    if (entry.fills.length < CHART_FILLS_PER_SYMBOL) entry.fills.push(fill);
  }

  /** An order in its final state, in creation order. */
  addOrder(order: OrderRecord): void {
    this.orderCount++;
    if (order.filledQuantity.isZero()) this.unfilledByStatus.set(order.status, (this.unfilledByStatus.get(order.status) ?? 0) + 1);
  }

  /** An equity sample, at or after every earlier one. */
  addEquity(point: EquityPoint): void {
    const t = seconds(point.time);
    this.equitySeries.add(t, point);
    if (this.peak === undefined || compareEquity(point, this.peak) > 0) this.peak = point;
    this.drawdownSeries.add(t, { point, peak: this.peak, ratio: undefined });
    if (point.positions !== this.positionsSeen) {
      // Samples share their positions record until a fill: a record is looked at once.
      for (const symbol in point.positions) {
        if (this.positionSymbols.has(symbol)) continue;
        if (!this.positionSeries.has(symbol)) throw new ValidationError('equity.positions', 'must name symbols of the run', symbol);
        this.positionSymbols.add(symbol);
      }
      this.positionsSeen = point.positions;
    }
    // An indexed list rather than the map's entries: no iterator and no pair per symbol and sample.
    const charted = this.chartedPositions;
    for (let i = 0; i < charted.length; i++) charted[i]!.series.add(t, point.positions[charted[i]!.symbol] ?? ZERO);
  }

  /** Symbols with fills, in the order of their first fill. */
  fillSymbols(): string[] {
    return [...this.fillsBySymbol.keys()];
  }

  /** Symbols some sample held a position of (zero included), in the order they first appeared. */
  heldSymbols(): string[] {
    return [...this.positionSymbols];
  }

  /** The first {@link CHART_FILLS_PER_SYMBOL} fills of `symbol` and how many it had in all. */
  chartFills(symbol: string): { readonly fills: readonly FillRecord[]; readonly count: number } {
    return this.fillsBySymbol.get(symbol) ?? { fills: [], count: 0 };
  }

  /** `[UTC seconds, equity]`, thinned: the last of each bucket. */
  equity(): [number, string][] {
    return this.equitySeries.list(equityText);
  }

  /** `[UTC seconds, -(peak - equity) / peak]` to 8 decimals, thinned: the deepest of each bucket. */
  drawdown(): [number, string][] {
    return this.drawdownSeries.list(ratioText);
  }

  /** `[UTC seconds, position]` of `symbol` (one of {@link symbols}), thinned: the last of each bucket. */
  positions(symbol: string): [number, string][] {
    return this.positionSeries.get(symbol)?.list((v) => v.toFixed()) ?? [];
  }
}

/** The symbols a report charts: the run's, then any with bars, fills or positions, in that order. */
export function chartSymbols(...lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}
