import { EMA } from 'trading-signals';
import { type DecimalString, parseScaled, parseScaledBig, scaleOf, ValidationError } from 'tradeloop';

/** Which moving average. */
export type AverageKind = 'ema' | 'sma';

/** A crossing of the fast average over the slow one. */
export type Cross = 'golden' | 'death';

/**
 * Fast and slow moving averages of closing prices and their crossings.
 *
 * Crossing rule (both kinds): the sign of `fast - slow` is first taken at the `slowPeriod`-th
 * close (before that the slow average is not defined over a full window, for either kind), so
 * the earliest crossing is reported at close `slowPeriod + 1`. A crossing is a change of the last
 * non-zero sign: a close where the averages are equal is skipped (the sign before it stands), so
 * a touch followed by a return is no crossing, and a cross through an equal close is reported at
 * the first close on the other side.
 *
 * SMA: the sign is exact. `fast - slow` has the sign of `slowPeriod x sum(fast window) -
 * fastPeriod x sum(slow window)`, kept in exact integer sums of the closing prices' text, so a
 * tie (common when prices stand still) is a tie, not a float rounding residue of either sign.
 * EMA: the float indicator of `trading-signals` (an EMA of decimal prices has no finite decimal
 * form anyway); it only decides *when* to trade, never a price or a quantity.
 */
export class CrossoverSignal {
  private readonly averages: (close: DecimalString) => Averages;
  private closes = 0;
  private lastSign = 0;
  private latest: Averages = NO_AVERAGES;

  constructor(
    kind: AverageKind,
    fastPeriod: number,
    readonly slowPeriod: number,
  ) {
    this.averages = kind === 'ema' ? emaAverages(fastPeriod, slowPeriod) : smaAverages(fastPeriod, slowPeriod);
  }

  /**
   * Both averages after the last close, as numbers for charts (the decision uses the exact sign);
   * each is null until its own window is full.
   */
  get lines(): { readonly fast: number | null; readonly slow: number | null } {
    return this.latest;
  }

  /** Closes seen so far. */
  get count(): number {
    return this.closes;
  }

  /** Adds one closing price (its exact decimal text); returns the crossing it makes, if any. */
  add(close: DecimalString): Cross | undefined {
    this.closes++;
    this.latest = this.averages(close);
    const sign = this.latest.sign;
    if (this.closes < this.slowPeriod || sign === undefined || sign === 0) return undefined;
    const previous = this.lastSign;
    this.lastSign = sign;
    if (previous === 0 || previous === sign) return undefined;
    return sign > 0 ? 'golden' : 'death';
  }
}

/** Both averages (null until each window is full) and the sign of their difference after a close. */
interface Averages {
  readonly fast: number | null;
  readonly slow: number | null;
  /** Sign of `fast - slow`: -1, 0 or 1; undefined until both are defined. */
  readonly sign: number | undefined;
}

const NO_AVERAGES: Averages = { fast: null, slow: null, sign: undefined };

/**
 * `SMA(fast)`, `SMA(slow)` and the exact sign of their difference. The closes are kept as integer
 * multiples of 10^-scale, `scale` being the most decimals seen so far (the window is rescaled when
 * a finer close arrives), so the sums are exact integers without decimal.js per candle: plain
 * numbers while every value, sum and product stays a safe integer (each step is checked before it
 * is kept), BigInt from the first close that would leave them.
 */
function smaAverages(fastPeriod: number, slowPeriod: number): (close: DecimalString) => Averages {
  const window: number[] = [];
  let scale = 0;
  let fastSum = 0;
  let slowSum = 0;
  let big: ((close: DecimalString) => Averages) | undefined;
  const toBig = (close: DecimalString): Averages => {
    big = bigSmaAverages(fastPeriod, slowPeriod, window.map(BigInt), scale);
    return big(close);
  };
  return (close) => {
    if (big !== undefined) return big(close);
    const decimals = scaleOf(close);
    if (decimals > scale) {
      const factor = 10 ** (decimals - scale);
      if (!window.every((price) => Number.isSafeInteger(price * factor))) return toBig(close);
      for (let i = 0; i < window.length; i++) window[i]! *= factor;
      fastSum *= factor;
      slowSum *= factor;
      scale = decimals;
    }
    const price = parseScaled(close, scale);
    const length = window.length + 1;
    const withFast = fastSum + price;
    const withSlow = slowSum + price;
    if (!(price >= 0) || !Number.isSafeInteger(withFast) || !Number.isSafeInteger(withSlow)) return toBig(close);
    const nextFast = length > fastPeriod ? withFast - window[length - 1 - fastPeriod]! : withFast;
    const nextSlow = length > slowPeriod ? withSlow - window[0]! : withSlow;
    let sign: number | undefined;
    if (length >= slowPeriod) {
      const difference = nextFast * slowPeriod - nextSlow * fastPeriod;
      if (!Number.isSafeInteger(nextFast * slowPeriod) || !Number.isSafeInteger(nextSlow * fastPeriod) || !Number.isSafeInteger(difference)) return toBig(close);
      sign = Math.sign(difference);
    }
    window.push(price);
    if (length > slowPeriod) window.shift();
    fastSum = nextFast;
    slowSum = nextSlow;
    const unit = 10 ** scale;
    const fast = window.length < fastPeriod ? null : fastSum / unit / fastPeriod;
    if (sign === undefined) return { fast, slow: null, sign };
    return { fast, slow: slowSum / unit / slowPeriod, sign };
  };
}

/** {@link smaAverages} in BigInt, from a window of closes at `scale` (the last `slowPeriod` at most). */
function bigSmaAverages(fastPeriod: number, slowPeriod: number, window: bigint[], scale: number): (close: DecimalString) => Averages {
  let fastSum = window.slice(-fastPeriod).reduce((a, b) => a + b, 0n);
  let slowSum = window.reduce((a, b) => a + b, 0n);
  return (close) => {
    const decimals = scaleOf(close);
    if (decimals > scale) {
      const factor = 10n ** BigInt(decimals - scale);
      for (let i = 0; i < window.length; i++) window[i]! *= factor;
      fastSum *= factor;
      slowSum *= factor;
      scale = decimals;
    }
    const price = parseScaledBig(close, scale);
    if (price === undefined) throw new ValidationError('close', 'must be a plain unsigned decimal', close);
    window.push(price);
    fastSum += price;
    slowSum += price;
    if (window.length > fastPeriod) fastSum -= window[window.length - 1 - fastPeriod]!;
    if (window.length > slowPeriod) slowSum -= window.shift()!;
    const unit = 10 ** scale;
    const fast = window.length < fastPeriod ? null : Number(fastSum) / unit / fastPeriod;
    if (window.length < slowPeriod) return { fast, slow: null, sign: undefined };
    const difference = fastSum * BigInt(slowPeriod) - slowSum * BigInt(fastPeriod);
    return { fast, slow: Number(slowSum) / unit / slowPeriod, sign: difference > 0n ? 1 : difference < 0n ? -1 : 0 };
  };
}

/** `EMA(fast)`, `EMA(slow)` and the sign of their difference after each close, in floats. */
function emaAverages(fastPeriod: number, slowPeriod: number): (close: DecimalString) => Averages {
  const fast = new EMA(fastPeriod);
  const slow = new EMA(slowPeriod);
  return (close) => {
    const f = fast.add(Number(close));
    const s = slow.add(Number(close));
    return { fast: f, slow: s, sign: f === null || s === null ? undefined : Math.sign(f - s) };
  };
}
