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
  /** Sort keys, ascending; best level last. */
  readonly keys: number[] = [];
  /** Quantities, parallel to {@link keys}; never 0; BIG_QUANTITY for a quantity kept as BigInt. */
  readonly quantities: number[] = [];
  /** Exact quantities of the levels marked BIG_QUANTITY, by key. */
  readonly bigQuantities = new Map<number, bigint>();
  /** Levels whose key is beyond the safe integer range, key -> quantity. */
  farLevels = new Map<bigint, bigint>();
  /** Count of far levels with a positive key: when non-zero the best level is a far one. */
  farAbove = 0;

  /** Number of levels. */
  get size(): number {
    return this.keys.length + this.farLevels.size;
  }

  /** Removes every level. */
  clear(): void {
    this.keys.length = 0;
    this.quantities.length = 0;
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
    const n = keys.length;
    // Fast path: a new best level.
    if (n === 0 || key > (keys[n - 1] as number)) {
      if (quantity !== 0) {
        keys.push(key);
        this.quantities.push(quantity);
      }
      return;
    }
    const i = this.lowerBound(key);
    if (keys[i] === key) {
      if (this.quantities[i] === BIG_QUANTITY) this.bigQuantities.delete(key);
      if (quantity !== 0) this.quantities[i] = quantity;
      else if (i === n - 1) {
        keys.pop();
        this.quantities.pop();
      } else {
        keys.splice(i, 1);
        this.quantities.splice(i, 1);
      }
    } else if (quantity !== 0) {
      keys.splice(i, 0, key);
      this.quantities.splice(i, 0, quantity);
    }
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
    return this.keys[i] === safeKey ? this.exactQuantity(i) : 0n;
  }

  /** Exact quantity of the safe level at index `i`. */
  exactQuantity(i: number): bigint {
    const q = this.quantities[i] as number;
    return q === BIG_QUANTITY ? (this.bigQuantities.get(this.keys[i] as number) as bigint) : BigInt(q);
  }

  /**
   * Index of the first key >= `key` (keys.length when none). Updates land near the top, so the
   * search starts with a short scan back from the best level before falling back to bisection.
   */
  lowerBound(key: number): number {
    const keys = this.keys;
    const n = keys.length;
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
    for (let i = this.keys.length - 1; i >= 0; i--) yield [BigInt(this.keys[i] as number), this.exactQuantity(i)];
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
    while (low < keys.length && (keys[low] as number) < -limit) moved.push([BigInt(keys[low] as number) * factor, this.exactQuantity(low++)]);
    let high = keys.length;
    while (high > low && (keys[high - 1] as number) > limit) {
      high--;
      moved.push([BigInt(keys[high] as number) * factor, this.exactQuantity(high)]);
    }
    const big = [...this.bigQuantities];
    this.bigQuantities.clear();
    for (const [key, quantity] of big) if (key >= -limit && key <= limit) this.bigQuantities.set(key * Number(factor), quantity);
    keys.length = high;
    this.quantities.length = high;
    keys.splice(0, low);
    this.quantities.splice(0, low);
    const f = Number(factor);
    for (let i = 0; i < keys.length; i++) keys[i] = (keys[i] as number) * f;
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
    for (let i = 0; i < quantities.length; i++) {
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
