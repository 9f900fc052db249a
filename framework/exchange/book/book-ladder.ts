import { MAX_EXACT } from '../../model/scaled-big.js';
import { SortedLevels } from './sorted-levels.js';

/** Marks a quantity kept in {@link BookLadder.bigQuantities} because it exceeds a safe integer. */
export const BIG_QUANTITY = -1;

/** Default number of slots of a ladder's dense window (32 KiB of quantities per side). */
export const DEFAULT_WINDOW_SIZE = 4096;

/**
 * One side of an L2 book over scaled integers. Bids use the price as key, asks the negated price,
 * so both sides share one code path and the best level is always the highest key.
 *
 * Layout, chosen for real depth-diff traffic (most changes within a few hundred ticks of the
 * touch, a long tail far away):
 * - a dense window: `slots[key - base]` holds the quantity at `key` (0 = no level), so changing a
 *   level near the touch is one array store, and the highest non-zero slot is tracked as the
 *   window's best (a removal of the best scans down to the next level: near the touch the book is
 *   dense, so the scan is short);
 * - {@link outside}: the few levels beyond the window, sorted;
 * - exactness beyond 2^53: a level whose key does not fit a safe integer (a placeholder ask at
 *   9999999999999.000 on a 0.001 grid) lives in {@link farLevels}, keyed by BigInt; such a key is
 *   above every safe key (a far bid: better than all) or below (a far ask: worse than all), so the
 *   order stays total. A safe-keyed level with a quantity beyond 2^53 stores {@link BIG_QUANTITY}
 *   and the exact value in {@link bigQuantities}. Both are off the hot path.
 *
 * The window is placed with the best level three quarters of the way up, leaving room for the
 * price to improve, and is recentred by {@link rebalance} (once per message) when the best level
 * drifts out of its comfortable band, so a recentring costs O(window) only after the price moved
 * by about a quarter of the window.
 */
export class BookLadder {
  /** Levels beyond the window. */
  readonly outside = new SortedLevels();
  /** Exact quantities of the levels marked BIG_QUANTITY, by key. */
  readonly bigQuantities = new Map<number, bigint>();
  /** Levels whose key is beyond the safe integer range, key -> quantity. */
  farLevels = new Map<bigint, bigint>();
  /** Count of far levels with a positive key: when non-zero the best level is a far one. */
  farAbove = 0;
  private readonly slots: Float64Array;
  private readonly span: number;
  /** Key of slot 0; NaN while the window is unplaced, so every index test fails. */
  private base = Number.NaN;
  /** Index of the highest non-zero slot; -1 when the window holds no level. */
  private top = -1;
  private inWindow = 0;

  /** `windowSize`: slots of the dense window, in units of the book's price scale. */
  constructor(windowSize = DEFAULT_WINDOW_SIZE) {
    this.span = windowSize;
    this.slots = new Float64Array(windowSize);
  }

  /** Number of levels. */
  get size(): number {
    return this.inWindow + this.outside.count + this.farLevels.size;
  }

  /** Best safe key; NaN when there is none. */
  bestKey(): number {
    const outsideBest = this.outside.highestKey();
    if (this.top >= 0) {
      const key = this.base + this.top;
      return key > outsideBest ? key : outsideBest;
    }
    return this.outside.count === 0 ? Number.NaN : outsideBest;
  }

  /** Quantity of the best safe level (BIG_QUANTITY when kept as BigInt); NaN when there is none. */
  bestQuantity(): number {
    const outside = this.outside;
    if (this.top >= 0 && this.base + this.top > outside.highestKey()) return this.slots[this.top] as number;
    return outside.count === 0 ? Number.NaN : (outside.quantities[outside.count - 1] as number);
  }

  /** Removes every level; the window is placed again by the next level set. */
  clear(): void {
    if (this.top >= 0) this.slots.fill(0, 0, this.top + 1);
    this.top = -1;
    this.inWindow = 0;
    this.base = Number.NaN;
    this.outside.clear();
    this.bigQuantities.clear();
    this.farLevels.clear();
    this.farAbove = 0;
  }

  /**
   * Sets the quantity at a safe `key`; 0 removes the level (and is a no-op for an absent level,
   * which the exchange may send after a level vanished on its side).
   */
  set(key: number, quantity: number): void {
    const index = key - this.base;
    if (index >= 0 && index < this.span) {
      const slots = this.slots;
      const previous = slots[index] as number;
      if (previous === BIG_QUANTITY) this.bigQuantities.delete(key);
      slots[index] = quantity;
      // Insert, update and removal are equally likely and unpredictable: count without branching,
      // and test the rarely true position conditions first so the branches predict well.
      this.inWindow += Number(quantity !== 0) - Number(previous !== 0);
      if (index >= this.top) {
        if (index > this.top) {
          if (quantity !== 0) this.top = index;
        } else if (quantity === 0) {
          this.top = this.highestFrom(index - 1);
        }
      }
      return;
    }
    this.setOutside(key, quantity);
  }

  private setOutside(key: number, quantity: number): void {
    if (this.base !== this.base) {
      if (quantity === 0) return;
      this.place(key);
      this.set(key, quantity);
      return;
    }
    if (this.outside.set(key, quantity) === BIG_QUANTITY) this.bigQuantities.delete(key);
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
    const index = safeKey - this.base;
    const quantity = index >= 0 && index < this.span ? (this.slots[index] as number) : this.outside.quantityAt(safeKey);
    return quantity === 0 ? 0n : this.exact(safeKey, quantity);
  }

  /** Every level as exact [key, quantity], best (highest key) first. */
  *levelsFromBest(): Generator<readonly [bigint, bigint]> {
    const far = [...this.farLevels].sort((x, y) => (x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0));
    let f = 0;
    for (; f < far.length && (far[f] as [bigint, bigint])[0] > 0n; f++) yield far[f] as [bigint, bigint];
    const slots = this.slots;
    const outside = this.outside;
    let i = this.top;
    let j = outside.count - 1;
    for (;;) {
      while (i >= 0 && slots[i] === 0) i--;
      if (i < 0 && j < 0) break;
      const windowKey = i >= 0 ? this.base + i : Number.NEGATIVE_INFINITY;
      const outsideKey = j >= 0 ? (outside.keys[j] as number) : Number.NEGATIVE_INFINITY;
      if (windowKey > outsideKey) {
        yield [BigInt(windowKey), this.exact(windowKey, slots[i] as number)];
        i--;
      } else {
        yield [BigInt(outsideKey), this.exact(outsideKey, outside.quantities[j] as number)];
        j--;
      }
    }
    for (; f < far.length; f++) yield far[f] as [bigint, bigint];
  }

  /**
   * Recentres the window when the best level left its comfortable band (the lower half is too
   * thin, or the best is about to leave through the top). O(1) when nothing is to be done.
   */
  rebalance(): void {
    const best = this.bestKey();
    if (best !== best) return;
    const index = best - this.base;
    if (index >= this.span >> 1 && index < this.span - (this.span >> 4)) return;
    this.recentre(best);
  }

  /**
   * Multiplies every key by `factor` (a power of ten) because the book's price scale went up;
   * keys pushed beyond 2^53 move to the far levels, so nothing is ever rounded.
   */
  scaleKeys(factor: bigint): void {
    const levels = [...this.levelsFromBest()];
    this.clear();
    // Worst first: each level lands after the previous one (an append), and one recentring at
    // the end moves the window to the new best.
    for (let i = levels.length - 1; i >= 0; i--) {
      const [key, quantity] = levels[i] as readonly [bigint, bigint];
      this.setExact(key * factor, quantity);
    }
    this.rebalance();
  }

  /** Multiplies every quantity by `factor` (a power of ten): the book's quantity scale went up. */
  scaleQuantities(factor: bigint): void {
    const slots = this.slots;
    for (let i = 0; i <= this.top; i++) {
      const quantity = slots[i] as number;
      if (quantity !== 0) slots[i] = this.scaledQuantity(this.base + i, quantity, factor);
    }
    const outside = this.outside;
    for (let i = 0; i < outside.count; i++) {
      outside.quantities[i] = this.scaledQuantity(outside.keys[i] as number, outside.quantities[i] as number, factor);
    }
    for (const [key, quantity] of this.farLevels) this.farLevels.set(key, quantity * factor);
  }

  private scaledQuantity(key: number, quantity: number, factor: bigint): number {
    if (quantity === BIG_QUANTITY) {
      this.bigQuantities.set(key, (this.bigQuantities.get(key) as bigint) * factor);
      return BIG_QUANTITY;
    }
    const scaled = quantity * Number(factor);
    if (scaled <= Number.MAX_SAFE_INTEGER) return scaled;
    this.bigQuantities.set(key, BigInt(quantity) * factor);
    return BIG_QUANTITY;
  }

  /** Exact value of a stored quantity. */
  private exact(key: number, quantity: number): bigint {
    return quantity === BIG_QUANTITY ? (this.bigQuantities.get(key) as bigint) : BigInt(quantity);
  }

  /** Index of the highest non-zero slot at or below `from`, -1 when none. */
  private highestFrom(from: number): number {
    const slots = this.slots;
    let i = from;
    while (i >= 0 && slots[i] === 0) i--;
    return i;
  }

  /** Places the (empty) window so that `key` sits three quarters of the way up. */
  private place(key: number): void {
    this.base = key - (this.span - (this.span >> 2));
  }

  /** Moves the window so `best` sits three quarters of the way up; levels follow exactly. */
  private recentre(best: number): void {
    const slots = this.slots;
    const outside = this.outside;
    if (this.inWindow > 0) {
      // The window's levels are ascending and no outside key lies between them: one run.
      const keys = new Float64Array(this.inWindow);
      const quantities = new Float64Array(this.inWindow);
      let n = 0;
      for (let i = 0; i <= this.top; i++) {
        const quantity = slots[i] as number;
        if (quantity === 0) continue;
        keys[n] = this.base + i;
        quantities[n++] = quantity;
      }
      outside.insertRun(keys, quantities);
      slots.fill(0, 0, this.top + 1);
    }
    this.place(best);
    const from = outside.lowerBound(this.base);
    const to = outside.lowerBound(this.base + this.span);
    for (let i = from; i < to; i++) slots[(outside.keys[i] as number) - this.base] = outside.quantities[i] as number;
    this.inWindow = to - from;
    this.top = to > from ? (outside.keys[to - 1] as number) - this.base : -1;
    outside.removeRange(from, to);
  }
}
