import { EMA, SMA } from 'trading-signals';

/** Which moving average. */
export type AverageKind = 'ema' | 'sma';

/** A crossing of the fast average over the slow one. */
export type Cross = 'golden' | 'death';

/**
 * Fast and slow moving averages of closing prices and their crossings.
 *
 * The averages are the float (number) indicators of `trading-signals`: they only decide *when* to
 * trade, by comparing two averages, and never become a price or a quantity (those stay Decimal).
 * A closing price is a short decimal text, so its nearest double is off by less than 1e-15
 * relative; that can only matter when the two averages are equal to 15 digits, which is a tie
 * either way.
 *
 * Crossings: the sign of `fast - slow` is first recorded at the `slowPeriod`-th close (before that
 * the slow average is not defined over a full window, for either kind), so the earliest crossing is
 * reported at close `slowPeriod + 1`. A crossing is a change of the last non-zero sign, so a
 * touch (`fast == slow`) followed by a return is not one.
 */
export class CrossoverSignal {
  private readonly fast: EMA | SMA;
  private readonly slow: EMA | SMA;
  private closes = 0;
  private lastSign = 0;

  constructor(
    kind: AverageKind,
    fastPeriod: number,
    readonly slowPeriod: number,
  ) {
    this.fast = kind === 'ema' ? new EMA(fastPeriod) : new SMA(fastPeriod);
    this.slow = kind === 'ema' ? new EMA(slowPeriod) : new SMA(slowPeriod);
  }

  /** Closes seen so far. */
  get count(): number {
    return this.closes;
  }

  /** Adds one closing price; returns the crossing it makes, if any. */
  add(close: number): Cross | undefined {
    this.closes++;
    const fast = this.fast.add(close);
    const slow = this.slow.add(close);
    if (this.closes < this.slowPeriod || fast === null || slow === null) return undefined;
    const sign = Math.sign(fast - slow);
    if (sign === 0) return undefined;
    const previous = this.lastSign;
    this.lastSign = sign;
    if (previous === 0 || previous === sign) return undefined;
    return sign > 0 ? 'golden' : 'death';
  }
}
