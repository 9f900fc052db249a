import { SortedTicks } from './sorted-ticks.js';

/** Keys the dense window spans by default (64 KiB of lots). */
const DEFAULT_WINDOW = 8_192;

/**
 * One side of the outside book in integer keys and lots. Bids use ticks as keys, asks negated
 * ticks, so the best level is always the highest key and one walk (from the best down) serves
 * both sides: {@link bestKey}, then {@link below} until NaN.
 *
 * Why not the framework's BookLadder: the matching model needs plain integer reads from the best
 * level down on every take and crossing check; this is the small structure that does exactly that.
 *
 * Layout: a dense window of lots indexed by `key - lo` holds every level at or above `lo` (the
 * best level and the thousands of ticks under it, where depth diffs land: a change is one array
 * store), and a {@link SortedTicks} holds the levels below `lo`. The window follows the best
 * level: a key above it slides it up (levels falling out of it are appended to the top of the
 * sorted part), a best level sinking into its lowest eighth slides it down (the top of the sorted
 * part moves in). Walks skip the empty keys of the window, which are few near the best level.
 */
export class TickLadder {
  private readonly size: number;
  private window: Float64Array;
  /** Key of `window[0]`. */
  private lo = 0;
  /** Levels in the window. */
  private inWindow = 0;
  /** Highest key in the window; NaN when the window is empty. */
  private windowBest = Number.NaN;
  private readonly far = new SortedTicks();

  /** `windowSize`: keys the dense part spans (a power of two, at least 16). */
  constructor(windowSize = DEFAULT_WINDOW) {
    this.size = windowSize;
    this.window = new Float64Array(windowSize);
  }

  /** Number of levels. */
  get count(): number {
    return this.inWindow + this.far.count;
  }

  /** The keys, lowest first (a copy, for readers off the hot path). */
  get keys(): Float64Array {
    return Float64Array.from(this.levels().map(([key]) => key));
  }

  /** The lots, parallel to {@link keys} (a copy). */
  get lots(): Float64Array {
    return Float64Array.from(this.levels().map(([, lots]) => lots));
  }

  /** Highest key; NaN when empty. */
  bestKey(): number {
    return this.inWindow !== 0 ? this.windowBest : this.far.bestKey();
  }

  /** The highest key below `key`; NaN when there is none. */
  below(key: number): number {
    if (key > this.lo && this.inWindow !== 0) {
      const window = this.window;
      let i = key - this.lo - 1;
      if (i >= this.size) i = this.windowBest - this.lo;
      for (; i >= 0; i--) if (window[i] !== 0) return this.lo + i;
    }
    const far = this.far;
    const i = far.lowerBound(key) - 1;
    return i >= 0 ? (far.keyBuffer[far.start + i] as number) : Number.NaN;
  }

  /** Removes every level. */
  clear(): void {
    if (this.inWindow !== 0) this.window.fill(0);
    this.inWindow = 0;
    this.windowBest = Number.NaN;
    this.far.clear();
  }

  /** Sets the lots at `key`; 0 removes the level (a no-op when absent). */
  set(key: number, lots: number): void {
    if (this.count === 0 && lots !== 0) this.lo = key - this.size + (this.size >>> 3);
    if (key < this.lo) {
      this.far.set(key, lots);
      return;
    }
    if (key >= this.lo + this.size) {
      if (lots === 0) return;
      this.slideUp(key);
    }
    const i = key - this.lo;
    const before = this.window[i] as number;
    this.window[i] = lots;
    if (before === 0) {
      if (lots === 0) return;
      this.inWindow++;
      if (!(key <= this.windowBest)) this.windowBest = key;
    } else if (lots === 0) {
      this.inWindow--;
      if (key === this.windowBest) this.windowBest = this.inWindow === 0 ? Number.NaN : this.below(key);
    }
    if (!(this.windowBest - this.lo >= this.size >>> 3) && this.far.count !== 0) this.slideDown();
  }

  /** Lots at `key`, 0 when there is no level. */
  lotsAt(key: number): number {
    if (key < this.lo) return this.far.lotsAt(key);
    const i = key - this.lo;
    return i < this.size ? (this.window[i] as number) : 0;
  }

  /** Every level, lowest key first. */
  private levels(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.far.count; i++) out.push([this.far.keyBuffer[this.far.start + i] as number, this.far.lotBuffer[this.far.start + i] as number]);
    for (let i = 0; i < this.size; i++) if (this.window[i] !== 0) out.push([this.lo + i, this.window[i] as number]);
    return out;
  }

  /** Moves the window up so that `key` lies in its top eighth; levels below it go to the sorted part. */
  private slideUp(key: number): void {
    const lo = key - this.size + (this.size >>> 3);
    const shift = lo - this.lo;
    const window = this.window;
    const out = shift < this.size ? shift : this.size;
    for (let i = 0; i < out; i++) {
      const lots = window[i] as number;
      if (lots === 0) continue;
      this.far.set(this.lo + i, lots);
      this.inWindow--;
    }
    if (shift < this.size) {
      window.copyWithin(0, shift);
      window.fill(0, this.size - shift);
    } else {
      window.fill(0);
    }
    this.lo = lo;
    if (this.inWindow === 0) this.windowBest = Number.NaN;
  }

  /** Moves the window down so that the best level lies in its top eighth; the sorted part's top moves in. */
  private slideDown(): void {
    const best = this.bestKey();
    const lo = best - this.size + (this.size >>> 3);
    const shift = this.lo - lo;
    if (shift <= 0) return;
    const window = this.window;
    if (shift < this.size) {
      window.copyWithin(shift, 0, this.size - shift);
      window.fill(0, 0, shift);
    } else {
      window.fill(0);
      this.inWindow = 0;
    }
    this.lo = lo;
    const far = this.far;
    while (far.count !== 0) {
      const top = far.bestKey();
      if (top < lo) break;
      const lots = far.lotsAt(top);
      far.set(top, 0);
      window[top - lo] = lots;
      this.inWindow++;
    }
    this.windowBest = best;
  }
}
