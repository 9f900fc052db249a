/**
 * Levels as two parallel sorted arrays of safe integers (keys and quantities), ascending by key,
 * so the highest key is last. The ladder keeps here the levels that fall outside its dense
 * window: a few deep levels, or everything for a moment while the window is being placed.
 *
 * Typed arrays with copyWithin: an insert or removal is a memmove, never an allocation
 * (Array#splice allocates its result), and levels next to the window edge sit next to the end of
 * their run, so the memmove is short where the traffic is.
 */
export class SortedLevels {
  /** Keys, ascending, in `keys[0 .. count)`. */
  keys = new Float64Array(16);
  /** Quantities, parallel to {@link keys}; never 0. */
  quantities = new Float64Array(16);
  /** Number of levels. */
  count = 0;

  /** Highest key; -Infinity when empty (so a plain `>` against it needs no emptiness test). */
  highestKey(): number {
    return this.count === 0 ? Number.NEGATIVE_INFINITY : (this.keys[this.count - 1] as number);
  }

  /** Quantity at `key`, 0 when there is no level there. */
  quantityAt(key: number): number {
    const i = this.lowerBound(key);
    return i < this.count && this.keys[i] === key ? (this.quantities[i] as number) : 0;
  }

  /**
   * Sets the quantity at `key`; 0 removes the level (and is a no-op for an absent one). Returns
   * the previous quantity (0 when the level was absent).
   */
  set(key: number, quantity: number): number {
    const n = this.count;
    if (n === 0 || key > (this.keys[n - 1] as number)) {
      if (quantity !== 0) this.insertAt(n, key, quantity);
      return 0;
    }
    const i = this.lowerBound(key);
    if (this.keys[i] === key) {
      const previous = this.quantities[i] as number;
      if (quantity !== 0) this.quantities[i] = quantity;
      else this.removeAt(i);
      return previous;
    }
    if (quantity !== 0) this.insertAt(i, key, quantity);
    return 0;
  }

  /** Removes every level. */
  clear(): void {
    this.count = 0;
  }

  /**
   * Inserts a run of levels, ascending by key, none of whose keys is already present and with no
   * present key between the run's first and last: a window's worth of levels in one memmove.
   */
  insertRun(runKeys: Float64Array, runQuantities: Float64Array): void {
    const length = runKeys.length;
    if (length === 0) return;
    const n = this.count;
    while (n + length > this.keys.length) this.grow();
    const at = this.lowerBound(runKeys[0] as number);
    this.keys.copyWithin(at + length, at, n);
    this.quantities.copyWithin(at + length, at, n);
    this.keys.set(runKeys, at);
    this.quantities.set(runQuantities, at);
    this.count = n + length;
  }

  /** Removes the levels at indices `[from, to)`. */
  removeRange(from: number, to: number): void {
    if (to <= from) return;
    this.keys.copyWithin(from, to, this.count);
    this.quantities.copyWithin(from, to, this.count);
    this.count -= to - from;
  }

  /** Index of the first key >= `key` (count when none). */
  lowerBound(key: number): number {
    const keys = this.keys;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

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
}
