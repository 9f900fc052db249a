import { Decimal, ZERO } from '../../framework/model/decimal.js';
import { formatScaled } from '../../framework/model/scaled.js';
import type { EquityPoint } from './backtest-result.js';

/**
 * An equity sample whose value is an exact integer count of 10^-`scale` (a safe integer), as a
 * sampler that values holdings in integers makes it. Readers that compare, subtract and sum
 * samples of one scale do it in doubles, exact on safe integers ({@link compareEquity},
 * {@link EquityArea}, the drawdown and return trackers); the Decimal and its text are made only
 * when asked for, so a long run's samples cost no decimal.js. A run's samples mostly share one
 * scale (it changes when a fill brings a balance with more decimals); samples of two scales are
 * compared as Decimals.
 */
export class ScaledEquityPoint implements EquityPoint {
  private value: Decimal | undefined;
  private plain: string | undefined;

  constructor(
    readonly time: number,
    readonly units: number,
    readonly scale: number,
    readonly positions: Readonly<Record<string, Decimal>>,
  ) {}

  get equity(): Decimal {
    return (this.value ??= new Decimal(this.text));
  }

  /** The equity as `equity.toFixed()` writes it (no trailing zeros). */
  get text(): string {
    return (this.plain ??= plainText(this.units, this.scale));
  }
}

/** `units` x 10^-scale as `Decimal#toFixed()` writes it: no trailing zeros, no lone point. */
function plainText(units: number, scale: number): string {
  // Whole tens drop a decimal each, exactly (a safe integer divisible by 10).
  while (scale > 0 && units % 10 === 0) {
    units /= 10;
    scale--;
  }
  return formatScaled(units, scale);
}

/** A sample's equity as `toFixed()` writes it. */
export function equityText(point: EquityPoint): string {
  return point instanceof ScaledEquityPoint ? point.text : point.equity.toFixed();
}

/** Both samples' units when they are at one scale. */
function sameScale(a: EquityPoint, b: EquityPoint): a is ScaledEquityPoint {
  return a instanceof ScaledEquityPoint && b instanceof ScaledEquityPoint && a.scale === b.scale;
}

/** Negative, zero or positive as `a`'s equity is below, equal to or above `b`'s. */
export function compareEquity(a: EquityPoint, b: EquityPoint): number {
  if (sameScale(a, b)) return a.units - (b as ScaledEquityPoint).units;
  return a.equity.comparedTo(b.equity);
}

/** True when a sample's equity is above zero. */
export function isPositiveEquity(point: EquityPoint): boolean {
  return point instanceof ScaledEquityPoint ? point.units > 0 : point.equity.greaterThan(ZERO);
}

/**
 * A positive amount by which a sample lies below a peak: exact units of 10^-scale when both had
 * them at one scale (and the difference is a safe integer), else a Decimal.
 */
export class EquityDrop {
  /** No drop at all. */
  static readonly NONE = new EquityDrop(0, 0, ZERO);

  private constructor(
    private readonly units: number,
    private readonly scale: number,
    private value: Decimal | undefined,
  ) {}

  /** `peak - point`, for a point below the peak. */
  static between(peak: EquityPoint, point: EquityPoint): EquityDrop {
    if (sameScale(peak, point)) {
      const units = peak.units - (point as ScaledEquityPoint).units;
      if (Number.isSafeInteger(units)) return new EquityDrop(units, peak.scale, undefined);
    }
    return new EquityDrop(Number.NaN, 0, peak.equity.minus(point.equity));
  }

  get decimal(): Decimal {
    return (this.value ??= new Decimal(formatScaled(this.units, this.scale)));
  }

  /** True when this drop is larger than `other`. */
  greaterThan(other: EquityDrop): boolean {
    if (this.units === this.units && other.units === other.units && (this.scale === other.scale || this.units === 0 || other.units === 0)) {
      return this.units > other.units;
    }
    return this.decimal.greaterThan(other.decimal);
  }
}

/** Units are split at 2^24 for {@link EquityArea}'s sums: each part times a run's sample gaps stays a safe integer. */
const SPLIT = 2 ** 24;

/**
 * The area under a step function of samples, `sum(equity x ms)`, exact: samples with units held
 * for whole milliseconds add them per scale (each split in two parts whose products with the
 * gaps are summed in doubles while those sums are safe integers, then carried into a BigInt),
 * others in Decimal, and {@link total} adds the parts up.
 */
export class EquityArea {
  private decimal = ZERO;
  private readonly byScale = new Map<number, bigint>();
  private lastScale = -1;
  private lastSum = 0n;
  /** The current scale's sums of `high x ms` and `low x ms` not yet carried into {@link lastSum}. */
  private highSum = 0;
  private lowSum = 0;

  /** Adds `point`'s equity held for `ms` (a fraction of a millisecond too: recorded times carry them). */
  add(point: EquityPoint, ms: number): void {
    if (!(point instanceof ScaledEquityPoint) || !Number.isInteger(ms)) {
      this.decimal = this.decimal.plus(point.equity.times(ms));
      return;
    }
    if (point.scale !== this.lastScale) {
      if (this.lastScale >= 0) this.byScale.set(this.lastScale, this.carried());
      this.lastScale = point.scale;
      this.lastSum = this.byScale.get(point.scale) ?? 0n;
    }
    const units = point.units;
    const high = Math.floor(units / SPLIT);
    const highProduct = high * ms;
    const lowProduct = (units - high * SPLIT) * ms;
    if (!Number.isSafeInteger(highProduct) || !Number.isSafeInteger(lowProduct)) {
      this.lastSum += BigInt(units) * BigInt(ms);
      return;
    }
    let highSum = this.highSum + highProduct;
    let lowSum = this.lowSum + lowProduct;
    if (!Number.isSafeInteger(highSum) || !Number.isSafeInteger(lowSum)) {
      this.lastSum = this.carried();
      highSum = highProduct;
      lowSum = lowProduct;
    }
    this.highSum = highSum;
    this.lowSum = lowSum;
  }

  /** The area so far. */
  total(): Decimal {
    if (this.lastScale >= 0) this.byScale.set(this.lastScale, (this.lastSum = this.carried()));
    let total = this.decimal;
    for (const [scale, sum] of this.byScale) if (sum !== 0n) total = total.plus(new Decimal(`${sum}e-${scale}`));
    return total;
  }

  /** {@link lastSum} with the pending double sums carried into it (and cleared). */
  private carried(): bigint {
    const sum = this.lastSum + BigInt(this.highSum) * BigInt(SPLIT) + BigInt(this.lowSum);
    this.highSum = 0;
    this.lowSum = 0;
    return sum;
  }
}
