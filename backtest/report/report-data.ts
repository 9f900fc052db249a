import type { Decimal } from '../../framework/model/decimal.js';
import type { BacktestResult, FillRecord, PriceBar } from './backtest-result.js';
import { decimalsOf } from '../../framework/model/scaled.js';
import { alignToBars, lastPerSecond, resolutionSeconds, roundForChart } from './report-series.js';
import { chartSymbols, RowDigest } from './row-digest.js';

export { CHART_FILLS_PER_SYMBOL, CHART_SAMPLES } from './row-digest.js';

/** A point of a chart series: UTC seconds and a decimal string (the page converts with `Number`). */
export type SeriesPoint = readonly [time: number, value: string];

/** A point of a series with gaps: null where the series has no value. */
export type GapPoint = readonly [time: number, value: string | null];

/** A fill as the price chart draws it: on the bar that contains it, at its own price. */
export interface ReportFill {
  /** The bar's time (UTC seconds), where the marker sits. */
  readonly time: number;
  /** The fill's own time, ms since the epoch (the tooltip shows it). */
  readonly at: number;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly quantity: string;
  readonly fee: string;
  readonly feeCurrency: string;
  readonly liquidity: 'maker' | 'taker';
}

/** An indicator series of a symbol, aligned to its bars: values are floats (not money). */
export interface ReportIndicator {
  readonly id: string;
  readonly label: string;
  readonly pane: 'price' | 'separate';
  readonly color?: string;
  readonly points: readonly (readonly [time: number, value: number])[];
}

/** What a symbol's price chart draws. */
export interface ReportPrices {
  /** Width of the bars in seconds (the chart's time resolution). */
  readonly barSeconds: number;
  /** Decimals the price scale shows: the most a book price or fill price has (else a bar price). */
  readonly priceDecimals: number;
  /** `[time, open, high, low, close]` bars. */
  readonly bars: readonly (readonly [number, string, string, string, string])[];
  readonly fills: readonly ReportFill[];
  /** Fills of the symbol in all (more than `fills` when capped at {@link CHART_FILLS_PER_SYMBOL}). */
  readonly fillCount: number;
  /** Best bid and ask at the bars' times (book runs; empty otherwise). */
  readonly bid: readonly SeriesPoint[];
  readonly ask: readonly SeriesPoint[];
  /** The strategy's own best resting buy and sell limit prices at the bars' times; null where it had none (a gap). */
  readonly ownBid: readonly GapPoint[];
  readonly ownAsk: readonly GapPoint[];
  readonly indicators: readonly ReportIndicator[];
}

/** The chart data a report page embeds as JSON. Times are UTC seconds, ascending and unique per series. */
export interface ReportData {
  readonly quoteCurrency: string;
  readonly symbols: readonly string[];
  /** Virtual time the run covered, seconds (picks the time axis' labels). */
  readonly spanSeconds: number;
  readonly prices: Readonly<Record<string, ReportPrices>>;
  /** Equity samples; past {@link CHART_SAMPLES}, the last of each time bucket. */
  readonly equity: readonly SeriesPoint[];
  /** `-(peak - equity) / peak` (0 or negative) at each equity sample, 8 decimals; thinned out to the deepest of each bucket. */
  readonly drawdown: readonly SeriesPoint[];
  /** Base quantity held per symbol; thinned out to the last of each bucket. */
  readonly positions: Readonly<Record<string, readonly SeriesPoint[]>>;
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

function barRow(bar: PriceBar): readonly [number, string, string, string, string] {
  return [seconds(bar.time), bar.open.toFixed(), bar.high.toFixed(), bar.low.toFixed(), bar.close.toFixed()];
}

function symbolPrices(result: BacktestResult, symbol: string, ownFills: { readonly fills: readonly FillRecord[]; readonly count: number }): ReportPrices {
  const priceBars = result.prices[symbol] ?? [];
  const bars = lastPerSecond(priceBars.map(barRow));
  const barTimes = bars.map((b) => b[0]);
  const fills: ReportFill[] = [];
  if (barTimes.length > 0) {
    for (const f of ownFills.fills) {
      fills.push({
        time: alignToBars(barTimes, [[seconds(f.time), 0]])[0]![0], at: f.time, side: f.side, price: f.price.toFixed(),
        quantity: f.quantity.toFixed(), fee: f.fee.toFixed(), feeCurrency: f.feeCurrency, liquidity: f.liquidity,
      });
    }
  }
  const tops = result.bookTops?.[symbol] ?? [];
  const side = (pick: (p: { bid?: Decimal; ask?: Decimal }) => Decimal | undefined): SeriesPoint[] =>
    alignToBars(barTimes, tops.flatMap((p): SeriesPoint[] => {
      const value = pick(p);
      return value === undefined ? [] : [[seconds(p.time), value.toFixed()]];
    }));
  const indicators = (result.indicators ?? []).filter((i) => i.symbol === symbol).map((i): ReportIndicator => ({
    id: i.id, label: i.label, pane: i.pane, ...(i.color === undefined ? {} : { color: i.color }),
    // Separate panes need no bars to hang on; price-pane lines share the bars' times.
    points: (i.pane === 'price' ? alignToBars(barTimes, i.points.map((p) => [seconds(p.time), p.value] as const))
      : lastPerSecond(i.points.map((p) => [seconds(p.time), p.value] as const))).map(([t, v]) => [t, roundForChart(v)] as const),
  }));
  const bid = side((p) => p.bid);
  const ask = side((p) => p.ask);
  const own = (pick: (p: { ownBid?: Decimal; ownAsk?: Decimal }) => Decimal | undefined): GapPoint[] => {
    if (!tops.some((p) => pick(p) !== undefined)) return [];
    return alignToBars(barTimes, tops.map((p): GapPoint => [seconds(p.time), pick(p)?.toFixed() ?? null]));
  };
  // Book prices and fills sit on the tick grid; bars may hold a mid with one more decimal.
  const onGrid = [...bid.map((p) => p[1]), ...ask.map((p) => p[1]), ...fills.map((f) => f.price)];
  const shown = onGrid.length > 0 ? onGrid : bars.flatMap((b) => [b[1], b[2], b[3], b[4]]);
  return {
    barSeconds: resolutionSeconds(barTimes), priceDecimals: shown.reduce((most, text) => Math.max(most, decimalsOf(text)), 0),
    bars, fills, fillCount: ownFills.count, bid, ask, ownBid: own((p) => p.ownBid), ownAsk: own((p) => p.ownAsk), indicators,
  };
}

/**
 * Turns a result into chart series. Symbols are those of the meta plus any that have bars, fills or
 * positions, in that order. Fills sit on the bar that contains them, at their own price; book tops
 * and price-pane indicators are aligned to the bars (the last value per bar), so a chart's time
 * axis has one slot per bar; fills of a symbol without bars are not drawn (nothing to attach to).
 * The fills, orders and equity series come from the result's rows, or from what a streamed run
 * kept of them ({@link BacktestResult.streamed}): the same data either way.
 */
export function buildReportData(result: BacktestResult): ReportData {
  const digest = result.streamed?.digest ?? RowDigest.of(result);
  const symbols = chartSymbols(result.meta.symbols, Object.keys(result.prices), digest.fillSymbols(), digest.heldSymbols());
  const prices: Record<string, ReportPrices> = {};
  for (const symbol of symbols) prices[symbol] = symbolPrices(result, symbol, digest.chartFills(symbol));
  const positions: Record<string, SeriesPoint[]> = {};
  for (const symbol of symbols) positions[symbol] = digest.positions(symbol);
  return {
    quoteCurrency: result.meta.quoteCurrency,
    symbols,
    spanSeconds: Math.max(0, seconds(result.meta.endTime) - seconds(result.meta.startTime)),
    prices,
    equity: digest.equity(),
    drawdown: digest.drawdown(),
    positions,
  };
}
