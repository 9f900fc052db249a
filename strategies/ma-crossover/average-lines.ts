import { EMA, SMA } from 'trading-signals';
import type { AverageKind } from './crossover-signal.js';

/**
 * The fast and slow moving averages of closing prices as numbers, for the report's chart only:
 * when to trade is {@link CrossoverSignal}'s decision, made on its own averages; these are the
 * same kind and periods, drawn as lines over the price.
 */
export class AverageLines {
  private readonly fast: EMA | SMA;
  private readonly slow: EMA | SMA;

  constructor(kind: AverageKind, fastPeriod: number, slowPeriod: number) {
    this.fast = kind === 'ema' ? new EMA(fastPeriod) : new SMA(fastPeriod);
    this.slow = kind === 'ema' ? new EMA(slowPeriod) : new SMA(slowPeriod);
  }

  /** Adds one closing price; each average is null until its window is full. */
  add(close: number): { readonly fast: number | null; readonly slow: number | null } {
    return { fast: this.fast.add(close), slow: this.slow.add(close) };
  }
}
