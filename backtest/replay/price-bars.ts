import { Decimal } from '../../framework/model/decimal.js';
import type { PriceBar } from '../report/backtest-result.js';

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

/**
 * OHLC bars of `barMs` per symbol from price texts (trades, candles, mids), kept as text and
 * turned into Decimals only when read: a replay adds a price per trades event, and most never
 * become a high or a low. Comparisons are exact: parsing decimal text to a double is monotonic,
 * so a strictly larger double means a larger price; equal doubles of different texts (more digits
 * than a double holds) are settled with Decimal. Prices of a bar's past (an earlier start than
 * the last bar) are ignored.
 */
export class PriceBars {
  private readonly bars = new Map<string, TextBar[]>();

  constructor(private readonly barMs: number) {}

  /** Adds a price of `symbol` at `time`. */
  add(symbol: string, price: string, time: number): void {
    let list = this.bars.get(symbol);
    if (list === undefined) this.bars.set(symbol, (list = []));
    const start = Math.floor(time / this.barMs) * this.barMs;
    const last = list[list.length - 1];
    const value = Number(price);
    if (last === undefined || last.time < start) {
      list.push({ time: start, open: price, high: price, highValue: value, low: price, lowValue: value, close: price });
      return;
    }
    if (last.time > start) return;
    last.close = price;
    if (value > last.highValue || (value === last.highValue && price !== last.high && new Decimal(price).greaterThan(last.high))) {
      last.high = price;
      last.highValue = value;
    }
    if (value < last.lowValue || (value === last.lowValue && price !== last.low && new Decimal(price).lessThan(last.low))) {
      last.low = price;
      last.lowValue = value;
    }
  }

  /** The bars of `symbol`, oldest first. */
  list(symbol: string): PriceBar[] {
    return (this.bars.get(symbol) ?? []).map((b) => ({
      time: b.time, open: new Decimal(b.open), high: new Decimal(b.high), low: new Decimal(b.low), close: new Decimal(b.close),
    }));
  }
}
