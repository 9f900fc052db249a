import { Decimal } from '../../framework/model/decimal.js';
import type { PriceBar } from '../report/backtest-result.js';
import { bucketStart, RESOLUTIONS_MS } from '../report/time-resolution.js';

/** A bar as the exact texts it was built from, with their float values for quick comparisons. */
interface TextBar {
  readonly time: number;
  readonly open: string;
  high: string;
  highValue: number;
  low: string;
  lowValue: number;
  close: string;
}

/** A symbol's bars and their current width. */
interface SymbolBars {
  widthMs: number;
  list: TextBar[];
}

function isHigher(price: string, value: number, bar: TextBar): boolean {
  return value > bar.highValue || (value === bar.highValue && price !== bar.high && new Decimal(price).greaterThan(bar.high));
}

function isLower(price: string, value: number, bar: TextBar): boolean {
  return value < bar.lowValue || (value === bar.lowValue && price !== bar.low && new Decimal(price).lessThan(bar.low));
}

/** The next width of {@link RESOLUTIONS_MS} that is a whole multiple of `width`, if any. */
function coarserThan(width: number): number | undefined {
  return RESOLUTIONS_MS.find((w) => w > width && w % width === 0);
}

/**
 * OHLC bars per symbol from price texts (trades, candles, mids), `barMs` wide, kept as text and
 * turned into Decimals only when read: a replay adds a price per trades event, and most never
 * become a high or a low. Comparisons are exact: parsing decimal text to a double is monotonic,
 * so a strictly larger double means a larger price; equal doubles of different texts (more digits
 * than a double holds) are settled with Decimal. Prices of a bar's past (an earlier start than
 * the last bar) are ignored.
 *
 * With `maxBars`, a symbol holding more bars moves to the next width of {@link RESOLUTIONS_MS}
 * that is a multiple of its current one, merging whole bars, so memory stays bounded and the bars
 * fit the run: seconds for minutes of data, minutes for a day, hours for months.
 */
export class PriceBars {
  private readonly bars = new Map<string, SymbolBars>();

  constructor(
    private readonly barMs: number,
    private readonly maxBars = Number.POSITIVE_INFINITY,
  ) {}

  /** Adds a price of `symbol` at `time`. */
  add(symbol: string, price: string, time: number): void {
    let bars = this.bars.get(symbol);
    if (bars === undefined) this.bars.set(symbol, (bars = { widthMs: this.barMs, list: [] }));
    const list = bars.list;
    const start = bucketStart(time, bars.widthMs);
    const last = list[list.length - 1];
    const value = Number(price);
    if (last === undefined || last.time < start) {
      list.push({ time: start, open: price, high: price, highValue: value, low: price, lowValue: value, close: price });
      if (list.length > this.maxBars) this.coarsen(bars);
      return;
    }
    if (last.time > start) return;
    last.close = price;
    if (isHigher(price, value, last)) {
      last.high = price;
      last.highValue = value;
    }
    if (isLower(price, value, last)) {
      last.low = price;
      last.lowValue = value;
    }
  }

  /** The current bar width of `symbol`, ms. */
  widthOf(symbol: string): number {
    return this.bars.get(symbol)?.widthMs ?? this.barMs;
  }

  /** The bars of `symbol`, oldest first. */
  list(symbol: string): PriceBar[] {
    return (this.bars.get(symbol)?.list ?? []).map((b) => ({
      time: b.time, open: new Decimal(b.open), high: new Decimal(b.high), low: new Decimal(b.low), close: new Decimal(b.close),
    }));
  }

  private coarsen(bars: SymbolBars): void {
    for (let width = coarserThan(bars.widthMs); width !== undefined && bars.list.length > this.maxBars; width = coarserThan(width)) {
      const merged: TextBar[] = [];
      for (const bar of bars.list) {
        const start = bucketStart(bar.time, width);
        const last = merged[merged.length - 1];
        if (last === undefined || last.time !== start) {
          merged.push({ ...bar, time: start });
          continue;
        }
        last.close = bar.close;
        if (isHigher(bar.high, bar.highValue, last)) {
          last.high = bar.high;
          last.highValue = bar.highValue;
        }
        if (isLower(bar.low, bar.lowValue, last)) {
          last.low = bar.low;
          last.lowValue = bar.lowValue;
        }
      }
      bars.list = merged;
      bars.widthMs = width;
    }
  }
}
