import { MAX_EXACT } from './scaled-big.js';

/** Marks a quantity kept in {@link BookLadder.bigQuantities} because it exceeds a safe integer. */
export const BIG_QUANTITY = -1;

/**
 * One side of an L2 book as two parallel sorted arrays of scaled integers (keys and quantities),
 * ascending by key with the best level LAST.
 *
 * Bids use the price as key; asks use the negated price, so both sides share one code path and
 * the best level (highest bid, lowest ask) is always the last element. Real L2 traffic changes
 * levels near the top far more often than deep ones, and inserting or removing near the end of a
 * packed array moves only the few elements behind it: this beats trees and maps in JS for books of
 * a few thousand levels, and the best level is an O(1) read.
 *
 * Exactness beyond 2^53: a level whose key does not fit a safe integer (a placeholder ask at
 * 9999999999999.000 on a 0.001 grid) lives in {@link farLevels}, keyed by BigInt; such a key is
 * above every safe key (a far bid: better than all) or below (a far ask: worse than all), so the
 * order stays total. A safe-keyed level with a quantity beyond 2^53 stores {@link BIG_QUANTITY}
 * and the exact value in {@link bigQuantities}. Both are off the hot path.
 */
export class BookLadder {
  /** Sort keys, ascending, in `keys[0 .. count)`; best level last. */
  keys = new Float64Array(64);
  /** Quantities, parallel to {@link keys}; never 0; BIG_QUANTITY for a quantity kept as BigInt. */
  quantities = new Float64Array(64);
  /** Number of safe levels in {@link keys}. */
  count = 0;
  /** Exact quantities of the levels marked BIG_QUANTITY, by key. */
  readonly bigQuantities = new Map<number, bigint>();
  /** Levels whose key is beyond the safe integer range, key -> quantity. */
  farLevels = new Map<bigint, bigint>();
  /** Count of far levels with a positive key: when non-zero the best level is a far one. */
  farAbove = 0;

  /** Number of levels. */
  get size(): number {
    return this.count + this.farLevels.size;
  }

  /** Best safe key; NaN when there is none. */
  bestKey(): number {
    return this.count === 0 ? Number.NaN : (this.keys[this.count - 1] as number);
  }

  /** Quantity of the best safe level (BIG_QUANTITY when kept as BigInt); NaN when there is none. */
  bestQuantity(): number {
    return this.count === 0 ? Number.NaN : (this.quantities[this.count - 1] as number);
  }

  /** Removes every level. */
  clear(): void {
    this.count = 0;
    this.bigQuantities.clear();
    this.farLevels.clear();
    this.farAbove = 0;
  }

  /**
   * Sets the quantity at a safe `key`; 0 removes the level (and is a no-op for an absent level,
   * which the exchange may send after a level vanished on its side).
   */
  set(key: number, quantity: number): void {
    const keys = this.keys;
    const n = this.count;
    // Fast path: a new best level.
    if (n === 0 || key > (keys[n - 1] as number)) {
      if (quantity !== 0) this.insertAt(n, key, quantity);
      return;
    }
    const i = this.lowerBound(key);
    if (keys[i] === key) {
      if (this.quantities[i] === BIG_QUANTITY) this.bigQuantities.delete(key);
      if (quantity !== 0) this.quantities[i] = quantity;
      else this.removeAt(i);
    } else if (quantity !== 0) {
      this.insertAt(i, key, quantity);
    }
  }

  /** Typed arrays and copyWithin: a memmove, no allocation (Array#splice allocates its result). */
  private insertAt(i: number, key: number, quantity: number): void {
    const n = this.count;
    if (n === this.keys.length) this.grow();
    const keys = this.keys;
    const quantities = this.quantities;
    if (i < n) {
      keys.copyWithin(i + 1, i, n);
      quantities.copyWithin(i + 1, i, n);
    }
    keys[i] = key;
    quantities[i] = quantity;
    this.count = n + 1;
  }

  private removeAt(i: number): void {
    const n = this.count - 1;
    if (i < n) {
      this.keys.copyWithin(i, i + 1, n + 1);
      this.quantities.copyWithin(i, i + 1, n + 1);
    }
    this.count = n;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const quantities = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    quantities.set(this.quantities);
    this.keys = keys;
    this.quantities = quantities;
  }

  /** Sets a level of any size, exactly; the slow path for values beyond 2^53. */
  setExact(key: bigint, quantity: bigint): void {
    if (key > MAX_EXACT || key < -MAX_EXACT) {
      const had = this.farLevels.has(key);
      if (quantity === 0n) {
        if (had && key > 0n) this.farAbove--;
        this.farLevels.delete(key);
      } else {
        if (!had && key > 0n) this.farAbove++;
        this.farLevels.set(key, quantity);
      }
      return;
    }
    const safeKey = Number(key);
    if (quantity <= MAX_EXACT) {
      this.set(safeKey, Number(quantity));
      return;
    }
    this.set(safeKey, BIG_QUANTITY);
    this.bigQuantities.set(safeKey, quantity);
  }

  /** Exact quantity at `key`, 0n when there is no such level. */
  quantityAt(key: bigint): bigint {
    if (key > MAX_EXACT || key < -MAX_EXACT) return this.farLevels.get(key) ?? 0n;
    const safeKey = Number(key);
    const i = this.lowerBound(safeKey);
    return i < this.count && this.keys[i] === safeKey ? this.exactQuantity(i) : 0n;
  }

  /** Exact quantity of the safe level at index `i`. */
  exactQuantity(i: number): bigint {
    const q = this.quantities[i] as number;
    return q === BIG_QUANTITY ? (this.bigQuantities.get(this.keys[i] as number) as bigint) : BigInt(q);
  }

  /**
   * Index of the first key >= `key` (count when none). Updates land near the top, so the
   * search starts with a short scan back from the best level before falling back to bisection.
   */
  lowerBound(key: number): number {
    const keys = this.keys;
    const n = this.count;
    const stop = n > 8 ? n - 8 : 0;
    let i = n;
    while (i > stop && (keys[i - 1] as number) >= key) i--;
    if (i > stop || i === 0) return i;
    let lo = 0;
    let hi = i;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Every level as exact [key, quantity], best (highest key) first. */
  *levelsFromBest(): Generator<readonly [bigint, bigint]> {
    const far = [...this.farLevels].sort((x, y) => (x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0));
    let f = 0;
    for (; f < far.length && (far[f] as [bigint, bigint])[0] > 0n; f++) yield far[f] as [bigint, bigint];
    for (let i = this.count - 1; i >= 0; i--) yield [BigInt(this.keys[i] as number), this.exactQuantity(i)];
    for (; f < far.length; f++) yield far[f] as [bigint, bigint];
  }

  /**
   * Multiplies every key by `factor` (a power of ten) because the book's price scale went up;
   * keys pushed beyond 2^53 move to the far levels, so nothing is ever rounded.
   */
  scaleKeys(factor: bigint): void {
    const keys = this.keys;
    const limit = Number(MAX_EXACT / factor);
    const moved: [bigint, bigint][] = [];
    let low = 0;
    while (low < this.count && (keys[low] as number) < -limit) moved.push([BigInt(keys[low] as number) * factor, this.exactQuantity(low++)]);
    let high = this.count;
    while (high > low && (keys[high - 1] as number) > limit) {
      high--;
      moved.push([BigInt(keys[high] as number) * factor, this.exactQuantity(high)]);
    }
    const f = Number(factor);
    const big = [...this.bigQuantities];
    this.bigQuantities.clear();
    for (const [key, quantity] of big) if (key >= -limit && key <= limit) this.bigQuantities.set(key * f, quantity);
    keys.copyWithin(0, low, high);
    this.quantities.copyWithin(0, low, high);
    this.count = high - low;
    for (let i = 0; i < this.count; i++) keys[i] = (keys[i] as number) * f;
    const far = this.farLevels;
    this.farLevels = new Map();
    this.farAbove = 0;
    for (const [key, quantity] of far) this.setExact(key * factor, quantity);
    for (const [key, quantity] of moved) this.setExact(key, quantity);
  }

  /** Multiplies every quantity by `factor` (a power of ten): the book's quantity scale went up. */
  scaleQuantities(factor: bigint): void {
    const quantities = this.quantities;
    const f = Number(factor);
    for (let i = 0; i < this.count; i++) {
      const q = quantities[i] as number;
      const key = this.keys[i] as number;
      if (q === BIG_QUANTITY) this.bigQuantities.set(key, (this.bigQuantities.get(key) as bigint) * factor);
      else if (q * f > Number.MAX_SAFE_INTEGER) {
        quantities[i] = BIG_QUANTITY;
        this.bigQuantities.set(key, BigInt(q) * factor);
      } else quantities[i] = q * f;
    }
    for (const [key, quantity] of this.farLevels) this.farLevels.set(key, quantity * factor);
  }
}
