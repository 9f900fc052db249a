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
 * Assumptions: keys and quantities are safe integers (the owning book guarantees it); a
 * quantity of 0 means "no level".
 */
export class BookLadder {
  /** Sort keys, ascending; best level last. */
  readonly keys: number[] = [];
  /** Quantities, parallel to {@link keys}; never 0. */
  readonly quantities: number[] = [];

  /** Number of levels. */
  get size(): number {
    return this.keys.length;
  }

  /** Removes every level. */
  clear(): void {
    this.keys.length = 0;
    this.quantities.length = 0;
  }

  /**
   * Sets the quantity at `key`; 0 removes the level (and is a no-op for an absent level, which the
   * exchange may send after a level vanished on its side).
   */
  set(key: number, quantity: number): void {
    const keys = this.keys;
    const n = keys.length;
    // Fast path: a new best level, or a change at the current best one.
    if (n === 0 || key > (keys[n - 1] as number)) {
      if (quantity !== 0) {
        keys.push(key);
        this.quantities.push(quantity);
      }
      return;
    }
    const i = this.lowerBound(key);
    if (keys[i] === key) {
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

  /** Quantity at `key`, or 0 when there is no such level. */
  quantityAt(key: number): number {
    const i = this.lowerBound(key);
    return this.keys[i] === key ? (this.quantities[i] as number) : 0;
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

  /** Multiplies every key by `factor` (a power of ten): the book's price scale went up. */
  scaleKeys(factor: number): void {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) keys[i] = (keys[i] as number) * factor;
  }

  /** Multiplies every quantity by `factor` (a power of ten): the book's quantity scale went up. */
  scaleQuantities(factor: number): void {
    const quantities = this.quantities;
    for (let i = 0; i < quantities.length; i++) quantities[i] = (quantities[i] as number) * factor;
  }

  /** Largest absolute key, for overflow checks before rescaling. */
  maxAbsKey(): number {
    const n = this.keys.length;
    if (n === 0) return 0;
    return Math.max(Math.abs(this.keys[0] as number), Math.abs(this.keys[n - 1] as number));
  }

  /** Largest quantity, for overflow checks before rescaling. */
  maxQuantity(): number {
    let max = 0;
    for (const q of this.quantities) if (q > max) max = q;
    return max;
  }
}
