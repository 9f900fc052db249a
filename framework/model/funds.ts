import { Decimal } from './decimal.js';
import { UnrepresentableValueError } from './errors.js';
import { formatScaled } from './scaled.js';
import { formatScaledBig, MAX_EXACT } from './scaled-big.js';
import { bigUnitsOf, MAX_UNITS_SCALE, POW10, unitsOf } from './decimal-units.js';


/**
 * An exact amount of money: `units` x 10^-`scale`. The units are a plain number while they are a
 * safe integer (|units| <= 2^53 - 1), which is every amount of the per-intent work (a limit
 * order's funds at the sum of its price, quantity and fee scales, a balance at its own decimals);
 * beyond that they are a BigInt, so no amount is ever rounded: a result that leaves the safe range
 * moves to the BigInt path and comes back once it fits again. Immutable.
 *
 * The one representation of reserved and free funds in the risk engine's ledger and in the
 * simulated exchange's ledger and reservations; a Decimal becomes one through {@link Funds.of},
 * and goes back through {@link toDecimal} only where money is reported (a strategy's free
 * balance, a balance report).
 */
export class Funds {
  private constructor(
    /** Integer units: a number when a safe integer, else a BigInt (never a BigInt that would fit). */
    readonly units: number | bigint,
    /** Decimals of the units (0 to any). */
    readonly scale: number,
  ) {}

  /** Zero, shared. */
  static readonly ZERO: Funds = new Funds(0, 0);

  /**
   * `value` exactly, at its own decimals. Throws {@link UnrepresentableValueError} (naming `owner`,
   * the symbol or currency, and `field`) for a value that is not a finite number: no amount stands
   * in for it.
   */
  static of(value: Decimal, owner: string, field: string): Funds {
    if (!value.isFinite()) throw new UnrepresentableValueError(owner, field, value.toString(), 'must be a finite decimal');
    const scale = value.decimalPlaces();
    if (scale <= MAX_UNITS_SCALE) {
      const units = unitsOf(value, scale);
      if (units !== undefined) return units === 0 ? Funds.ZERO : new Funds(units, scale);
    }
    return Funds.ofBigUnits(bigUnitsOf(value, scale), scale);
  }

  /**
   * `units` x 10^-`scale` for integer units computed in numbers (`owner` and `field` as in
   * {@link Funds.of}). Throws
   * {@link UnrepresentableValueError} when `units` is not a safe integer (a float, NaN, or a count
   * beyond 2^53 - 1, which a number can no longer hold exactly).
   */
  static ofUnits(units: number, scale: number, owner: string, field: string): Funds {
    if (!Number.isSafeInteger(units)) throw new UnrepresentableValueError(owner, field, units, 'must be a whole number of units of at most 2^53 - 1');
    if (!Number.isInteger(scale) || scale < 0) throw new UnrepresentableValueError(owner, field, scale, 'scale must be a whole number of decimals');
    return units === 0 ? Funds.ZERO : new Funds(units, scale);
  }

  /**
   * `units` x 10^-`scale` for a BigInt count of any size: held as a number when it fits (trailing
   * zeros of a count beyond the safe range are dropped from the scale first).
   */
  static ofBigUnits(units: bigint, scale: number): Funds {
    let u = units;
    let s = scale;
    while (s > 0 && (u > MAX_EXACT || u < -MAX_EXACT) && u % 10n === 0n) {
      u /= 10n;
      s--;
    }
    if (u === 0n) return Funds.ZERO;
    return u <= MAX_EXACT && u >= -MAX_EXACT ? new Funds(Number(u), s) : new Funds(u, s);
  }

  /** this + other, exact. */
  plus(other: Funds): Funds {
    const a = this.units;
    const b = other.units;
    if (typeof a === 'number' && typeof b === 'number') {
      if (b === 0) return this;
      if (a === 0) return other;
      const scale = this.scale >= other.scale ? this.scale : other.scale;
      const x = this.scale === scale ? a : rescaled(a, scale - this.scale);
      const y = other.scale === scale ? b : rescaled(b, scale - other.scale);
      const sum = x + y;
      // Both exact safe integers: a sum within the safe range is the exact one.
      if (Number.isSafeInteger(sum) && Number.isSafeInteger(x) && Number.isSafeInteger(y)) return sum === 0 ? Funds.ZERO : new Funds(sum, scale);
    }
    return Funds.bigSum(this, other, 1n);
  }

  /** this - other, exact. */
  minus(other: Funds): Funds {
    const b = other.units;
    if (typeof b === 'number') return this.plus(b === 0 ? Funds.ZERO : new Funds(-b, other.scale));
    return Funds.bigSum(this, other, -1n);
  }

  /** -this. */
  negated(): Funds {
    const u = this.units;
    return u === 0 ? this : new Funds(-u, this.scale);
  }

  /** Sign of this - other: -1, 0 or 1. */
  compare(other: Funds): number {
    const a = this.units;
    const b = other.units;
    if (typeof a === 'number' && typeof b === 'number') {
      if (this.scale === other.scale) return a < b ? -1 : a > b ? 1 : 0;
      if (this.scale < other.scale) {
        const x = rescaled(a, other.scale - this.scale);
        // Beyond the safe range after rescaling, |this| exceeds |other|: this's sign decides.
        if (Number.isSafeInteger(x)) return x < b ? -1 : x > b ? 1 : 0;
        return a < 0 ? -1 : 1;
      }
      const y = rescaled(b, this.scale - other.scale);
      if (Number.isSafeInteger(y)) return a < y ? -1 : a > y ? 1 : 0;
      return b < 0 ? 1 : -1;
    }
    const scale = Math.max(this.scale, other.scale);
    const x = bigAt(this, scale);
    const y = bigAt(other, scale);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  lessThan(other: Funds): boolean {
    return this.compare(other) < 0;
  }

  lessThanOrEqualTo(other: Funds): boolean {
    return this.compare(other) <= 0;
  }

  greaterThan(other: Funds): boolean {
    return this.compare(other) > 0;
  }

  /** The larger of the two (this when equal). */
  max(other: Funds): Funds {
    return other.compare(this) > 0 ? other : this;
  }

  /** The smaller of the two (this when equal). */
  min(other: Funds): Funds {
    return other.compare(this) < 0 ? other : this;
  }

  isZero(): boolean {
    return this.units === 0;
  }

  isNegative(): boolean {
    return this.units < 0;
  }

  /** Strictly greater than zero. */
  isPositive(): boolean {
    return this.units > 0;
  }

  /** Plain decimal text without trailing zeros, as `Decimal.toFixed()` writes the same value. */
  toFixed(): string {
    const u = this.units;
    const text = typeof u === 'number' ? formatScaled(u, this.scale) : formatScaledBig(u, this.scale);
    if (this.scale === 0) return text;
    let end = text.length;
    while (text.charCodeAt(end - 1) === 48) end--;
    if (text.charCodeAt(end - 1) === 46) end--;
    return text.slice(0, end);
  }

  toString(): string {
    return this.toFixed();
  }

  /** The same amount as a Decimal, for reports (a strategy's free balance). */
  toDecimal(): Decimal {
    return new Decimal(this.toFixed());
  }

  private static bigSum(a: Funds, b: Funds, sign: bigint): Funds {
    const scale = Math.max(a.scale, b.scale);
    return Funds.ofBigUnits(bigAt(a, scale) + sign * bigAt(b, scale), scale);
  }
}

/** `units` x 10^shift in float arithmetic: exact when the result is a safe integer (callers check). */
function rescaled(units: number, shift: number): number {
  return shift <= MAX_UNITS_SCALE ? units * (POW10[shift] as number) : units * 10 ** shift;
}

function bigAt(funds: Funds, scale: number): bigint {
  const units = BigInt(funds.units);
  return scale === funds.scale ? units : units * 10n ** BigInt(scale - funds.scale);
}
