import { Decimal } from '../../framework/model/decimal.js';
import type { PriceBar } from '../report/backtest-result.js';
import { bucketStart, RESOLUTIONS_MS } from '../report/time-resolution.js';

/**
 * A symbol's bars as the exact texts they were built from, with the float values of their highs
 * and lows for quick comparisons, column by column: no object per bar (a long run's bars each
 * outlive the young generation until they merge, and the floats sit unboxed in their lists).
 */
class SymbolBars {
  times: number[] = [];
  opens: string[] = [];
  highs: string[] = [];
  highValues: number[] = [];
  lows: string[] = [];
  lowValues: number[] = [];
  closes: string[] = [];

  constructor(public widthMs: number) {}

  get count(): number {
    return this.times.length;
  }

  push(time: number, open: string, high: string, highValue: number, low: string, lowValue: number, close: string): void {
    this.times.push(time);
    this.opens.push(open);
    this.highs.push(high);
    this.highValues.push(highValue);
    this.lows.push(low);
    this.lowValues.push(lowValue);
    this.closes.push(close);
  }

  /** Folds a later price range (`high`, `low`, then `close`) into bar `i`. */
  merge(i: number, high: string, highValue: number, low: string, lowValue: number, close: string): void {
    this.closes[i] = close;
    if (highValue > this.highValues[i]! || (highValue === this.highValues[i] && high !== this.highs[i] && new Decimal(high).greaterThan(this.highs[i]!))) {
      this.highs[i] = high;
      this.highValues[i] = highValue;
    }
    if (lowValue < this.lowValues[i]! || (lowValue === this.lowValues[i] && low !== this.lows[i] && new Decimal(low).lessThan(this.lows[i]!))) {
      this.lows[i] = low;
      this.lowValues[i] = lowValue;
    }
  }
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
    if (bars === undefined) this.bars.set(symbol, (bars = new SymbolBars(this.barMs)));
    const start = bucketStart(time, bars.widthMs);
    const last = bars.count - 1;
    const value = Number(price);
    if (last < 0 || bars.times[last]! < start) {
      bars.push(start, price, price, value, price, value, price);
      if (bars.count > this.maxBars) this.coarsen(symbol, bars);
      return;
    }
    if (bars.times[last]! > start) return;
    bars.merge(last, price, value, price, value, price);
  }

  /** The current bar width of `symbol`, ms. */
  widthOf(symbol: string): number {
    return this.bars.get(symbol)?.widthMs ?? this.barMs;
  }

  /** The bars of `symbol`, oldest first. */
  list(symbol: string): PriceBar[] {
    const bars = this.bars.get(symbol);
    if (bars === undefined) return [];
    return bars.times.map((time, i) => ({
      time, open: new Decimal(bars.opens[i]!), high: new Decimal(bars.highs[i]!), low: new Decimal(bars.lows[i]!), close: new Decimal(bars.closes[i]!),
    }));
  }

  private coarsen(symbol: string, bars: SymbolBars): void {
    let current = bars;
    for (let width = coarserThan(bars.widthMs); width !== undefined && current.count > this.maxBars; width = coarserThan(width)) {
      const merged = new SymbolBars(width);
      for (let i = 0; i < current.count; i++) {
        const start = bucketStart(current.times[i]!, width);
        const last = merged.count - 1;
        if (last < 0 || merged.times[last] !== start) {
          merged.push(start, current.opens[i]!, current.highs[i]!, current.highValues[i]!, current.lows[i]!, current.lowValues[i]!, current.closes[i]!);
        } else {
          merged.merge(last, current.highs[i]!, current.highValues[i]!, current.lows[i]!, current.lowValues[i]!, current.closes[i]!);
        }
      }
      current = merged;
    }
    this.bars.set(symbol, current);
  }
}
