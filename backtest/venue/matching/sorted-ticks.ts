/**
 * Levels in integer keys and lots as two parallel sorted typed arrays, ascending by key with the
 * best (highest) level last: the part of a {@link TickLadder} below its dense window. The levels
 * occupy `keyBuffer[start .. start + count)` with free room at both ends, so inserting or removing
 * a level moves the shorter part of the array (the levels below it or the ones above), without
 * allocation. Lookups start with a short scan back from the best level before bisecting.
 */
export class SortedTicks {
  /** Keys ascending in `keyBuffer[start .. start + count)`; best level last. */
  keyBuffer = new Float64Array(64);
  /** Lots, parallel to {@link keyBuffer}; never 0 inside the level range. */
  lotBuffer = new Float64Array(64);
  /** Index in the buffers of the lowest (worst) level. */
  start = 32;
  /** Number of levels. */
  count = 0;

  /** The keys, lowest first (a view, for readers off the hot path). */
  get keys(): Float64Array {
    return this.keyBuffer.subarray(this.start, this.start + this.count);
  }

  /** The lots, parallel to {@link keys} (a view). */
  get lots(): Float64Array {
    return this.lotBuffer.subarray(this.start, this.start + this.count);
  }

  /** Highest key; NaN when empty. */
  bestKey(): number {
    return this.count === 0 ? Number.NaN : (this.keyBuffer[this.start + this.count - 1] as number);
  }

  /** Removes every level. */
  clear(): void {
    this.count = 0;
    this.start = this.keyBuffer.length >>> 1;
  }

  /** Sets the lots at `key`; 0 removes the level (a no-op when absent). */
  set(key: number, lots: number): void {
    const n = this.count;
    if (n === 0 || key > (this.keyBuffer[this.start + n - 1] as number)) {
      if (lots !== 0) this.insertAt(n, key, lots);
      return;
    }
    const i = this.lowerBound(key);
    if (this.keyBuffer[this.start + i] === key) {
      if (lots !== 0) this.lotBuffer[this.start + i] = lots;
      else this.removeAt(i);
    } else if (lots !== 0) {
      this.insertAt(i, key, lots);
    }
  }

  /** Lots at `key`, 0 when there is no level. */
  lotsAt(key: number): number {
    const i = this.lowerBound(key);
    return i < this.count && this.keyBuffer[this.start + i] === key ? (this.lotBuffer[this.start + i] as number) : 0;
  }

  /** Index (from the lowest level, 0-based) of the first key >= `key` (count when none). */
  lowerBound(key: number): number {
    const keys = this.keyBuffer;
    const base = this.start;
    const n = this.count;
    const stop = n > 8 ? n - 8 : 0;
    let i = n;
    while (i > stop && (keys[base + i - 1] as number) >= key) i--;
    if (i > stop || i === 0) return i;
    let lo = 0;
    let hi = i;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[base + mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertAt(i: number, key: number, lots: number): void {
    const n = this.count;
    let base = this.start;
    const end = base + n;
    if (i < n - i ? base === 0 : end === this.keyBuffer.length) {
      if (base === 0 && end === this.keyBuffer.length) this.grow();
      else this.recenter();
      base = this.start;
    }
    if (i < n - i && base > 0) {
      // Fewer levels below the new one: move those down into the free room at the start.
      this.keyBuffer.copyWithin(base - 1, base, base + i);
      this.lotBuffer.copyWithin(base - 1, base, base + i);
      this.start = base = base - 1;
    } else {
      this.keyBuffer.copyWithin(base + i + 1, base + i, base + n);
      this.lotBuffer.copyWithin(base + i + 1, base + i, base + n);
    }
    this.keyBuffer[base + i] = key;
    this.lotBuffer[base + i] = lots;
    this.count = n + 1;
  }

  private removeAt(i: number): void {
    const n = this.count - 1;
    const base = this.start;
    if (i < n - i) {
      this.keyBuffer.copyWithin(base + 1, base, base + i);
      this.lotBuffer.copyWithin(base + 1, base, base + i);
      this.start = base + 1;
    } else if (i < n) {
      this.keyBuffer.copyWithin(base + i, base + i + 1, base + n + 1);
      this.lotBuffer.copyWithin(base + i, base + i + 1, base + n + 1);
    }
    this.count = n;
  }

  /** Moves the levels to the middle of the buffers, leaving equal room at both ends. */
  private recenter(): void {
    const target = (this.keyBuffer.length - this.count) >>> 1;
    this.keyBuffer.copyWithin(target, this.start, this.start + this.count);
    this.lotBuffer.copyWithin(target, this.start, this.start + this.count);
    this.start = target;
  }

  private grow(): void {
    const size = this.keyBuffer.length * 2;
    const target = (size - this.count) >>> 1;
    const keys = new Float64Array(size);
    const lots = new Float64Array(size);
    keys.set(this.keys, target);
    lots.set(this.lots, target);
    this.keyBuffer = keys;
    this.lotBuffer = lots;
    this.start = target;
  }
}
