/**
 * One side of the outside book in integer keys and lots: two parallel sorted typed arrays,
 * ascending by key with the best level LAST. Bids use ticks as keys, asks negated ticks, so the
 * best level is always the highest key and one walk (from the end down) serves both sides.
 *
 * Why not the framework's BookLadder: the matching model walks levels from the best on every
 * take and crossing check and needs plain integer reads by index; this is the small structure
 * that does exactly that. Depth diffs mostly touch levels near the top, so inserting or removing
 * there moves only the few elements behind (a memmove, no allocation), and lookups start with a
 * short scan back from the best level before bisecting.
 */
export class TickLadder {
  /** Keys ascending in `keys[0 .. count)`; best level last. */
  keys = new Float64Array(64);
  /** Lots, parallel to {@link keys}; never 0. */
  lots = new Float64Array(64);
  /** Number of levels. */
  count = 0;

  /** Highest key; NaN when empty. */
  bestKey(): number {
    return this.count === 0 ? Number.NaN : (this.keys[this.count - 1] as number);
  }

  /** Removes every level. */
  clear(): void {
    this.count = 0;
  }

  /** Sets the lots at `key`; 0 removes the level (a no-op when absent). */
  set(key: number, lots: number): void {
    const n = this.count;
    if (n === 0 || key > (this.keys[n - 1] as number)) {
      if (lots !== 0) this.insertAt(n, key, lots);
      return;
    }
    const i = this.lowerBound(key);
    if (this.keys[i] === key) {
      if (lots !== 0) this.lots[i] = lots;
      else this.removeAt(i);
    } else if (lots !== 0) {
      this.insertAt(i, key, lots);
    }
  }

  /** Lots at `key`, 0 when there is no level. */
  lotsAt(key: number): number {
    const i = this.lowerBound(key);
    return i < this.count && this.keys[i] === key ? (this.lots[i] as number) : 0;
  }

  /** Index of the first key >= `key` (count when none). */
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

  private insertAt(i: number, key: number, lots: number): void {
    const n = this.count;
    if (n === this.keys.length) this.grow();
    if (i < n) {
      this.keys.copyWithin(i + 1, i, n);
      this.lots.copyWithin(i + 1, i, n);
    }
    this.keys[i] = key;
    this.lots[i] = lots;
    this.count = n + 1;
  }

  private removeAt(i: number): void {
    const n = this.count - 1;
    if (i < n) {
      this.keys.copyWithin(i, i + 1, n + 1);
      this.lots.copyWithin(i, i + 1, n + 1);
    }
    this.count = n;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const lots = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    lots.set(this.lots);
    this.keys = keys;
    this.lots = lots;
  }
}
