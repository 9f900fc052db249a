import { LevelBitmap } from '../../../framework/exchange/book/level-bitmap.js';
import { SortedTicks } from './sorted-ticks.js';

/** Keys the dense window spans at first (64 KiB of lots). */
const DEFAULT_WINDOW = 8_192;
/** Keys the dense window grows to at most (2 MiB of lots). */
const DEFAULT_MAX_WINDOW = 1 << 18;
/** Writes to the sorted part between two looks at the traffic. */
const MISSES_PER_LOOK = 64;
/** The window doubles when more than 1 write in this many went to the sorted part. */
const MISS_SHARE = 8;
/** Levels the sorted part may hold, however few the window holds, before the window doubles. */
const MIN_FAR_LEVELS = 16;
/** After a snapshot the window is sized to hold this share of the levels, counted from the best. */
const FIT_SHARE = 0.9;

/**
 * One side of the outside book in integer keys and lots. Bids use ticks as keys, asks negated
 * ticks, so the best level is always the highest key and one walk (from the best down) serves
 * both sides: {@link bestKey}, then {@link below} until NaN.
 *
 * Why not the framework's BookLadder: the matching model needs plain integer reads from the best
 * level down on every take and crossing check; this is the small structure that does exactly that.
 *
 * Layout: a dense window of lots indexed by `key - lo` holds every level at or above `lo` (the
 * best level and the ticks under it, where depth diffs land: a change is one array store), a
 * {@link LevelBitmap} marks its occupied keys (so {@link below} skips empty ticks 32 and 1,024 at
 * a time: a BTC book at a 0.01 tick has levels hundreds of ticks apart), and a {@link SortedTicks}
 * holds the levels below `lo`. The window follows the best level: a key above it moves the window
 * up (levels falling out of it join the top of the sorted part), a best level sinking into its
 * lowest eighth moves it down (the top of the sorted part moves in); a move costs O(levels in the
 * window), not O(window). Its size follows the book: when the sorted part holds more levels than
 * the window, or more than one write in eight goes to it, the window doubles, up to the largest
 * size, so a book spread over many ticks gets a window that holds it.
 */
export class TickLadder {
  private size: number;
  private window: Float64Array;
  private bits: LevelBitmap;
  /** Key of `window[0]`. */
  private lo = 0;
  /** Levels in the window. */
  private inWindow = 0;
  /** Highest key in the window; NaN when the window is empty. */
  private windowBest = Number.NaN;
  private readonly far = new SortedTicks();
  /** Writes since the traffic was last looked at, and how many of them went to the sorted part. */
  private writes = 0;
  private misses = 0;

  /** `windowSize`: keys the dense part spans at first; `maxWindowSize`: at most. Powers of two, at least 16. */
  constructor(
    windowSize = DEFAULT_WINDOW,
    private readonly maxWindowSize = Math.max(windowSize, DEFAULT_MAX_WINDOW),
  ) {
    this.size = windowSize;
    this.window = new Float64Array(windowSize);
    this.bits = new LevelBitmap(windowSize);
  }

  /** Number of levels. */
  get count(): number {
    return this.inWindow + this.far.count;
  }

  /** Keys the dense window spans at the moment. */
  get windowSize(): number {
    return this.size;
  }

  /** The keys, lowest first (a copy, for readers off the hot path). */
  get keys(): Float64Array {
    return Float64Array.from(this.levels().map(([key]) => key));
  }

  /** The lots, parallel to {@link keys} (a copy). */
  get lots(): Float64Array {
    return Float64Array.from(this.levels().map(([, lots]) => lots));
  }

  /**
   * Sizes the window for the levels held (after a snapshot): the smallest power of two, within the
   * largest size, whose part under the best holds {@link FIT_SHARE} of the levels counted from the
   * best. A replay then starts with the window its book needs instead of growing it by doublings
   * (each a move of every level) during the first frames.
   */
  fit(): void {
    const count = this.count;
    if (count === 0) return;
    const best = this.bestKey();
    let deepest = best;
    for (let rank = Math.ceil(count * FIT_SHARE) - 1; rank > 0; rank--) deepest = this.below(deepest);
    const depth = best - deepest;
    let size = this.size;
    while (size < this.maxWindowSize && size - (size >>> 3) <= depth) size *= 2;
    if (size !== this.size) this.move(best - size + (size >>> 3), size);
    this.writes = 0;
    this.misses = 0;
  }

  /** Highest key; NaN when empty. */
  bestKey(): number {
    return this.inWindow !== 0 ? this.windowBest : this.far.bestKey();
  }

  /** The highest key below `key`; NaN when there is none. */
  below(key: number): number {
    if (key > this.lo && this.inWindow !== 0) {
      let i = key - this.lo - 1;
      if (i >= this.size) i = this.windowBest - this.lo;
      // A dense book (ETH at a 0.01 tick) has the next level on the next key more often than not.
      if (this.window[i] !== 0) return this.lo + i;
      const j = this.bits.highestAtOrBelow(i);
      if (j >= 0) return this.lo + j;
    }
    const far = this.far;
    const i = far.lowerBound(key) - 1;
    return i >= 0 ? (far.keyBuffer[far.start + i] as number) : Number.NaN;
  }

  /** Removes every level. */
  clear(): void {
    this.emptyWindow();
    this.far.clear();
  }

  /** Sets the lots at `key`; 0 removes the level (a no-op when absent). */
  set(key: number, lots: number): void {
    this.writes++;
    if (this.inWindow === 0 && this.far.count === 0 && lots !== 0) this.lo = key - this.size + (this.size >>> 3);
    if (key < this.lo) {
      this.setFar(key, lots);
      return;
    }
    if (key >= this.lo + this.size) {
      if (lots === 0) return;
      this.move(key - this.size + (this.size >>> 3), this.size);
    }
    const i = key - this.lo;
    // The slot is only written: whether it held a level is the bitmap's bit, which stays in
    // cache, so a change far from the best of a wide window costs a store the CPU buffers, not a
    // load that waits on memory. Insert, update and removal come in no predictable order: count
    // and mark without branching; the best moves only on the rarely true tests below.
    this.window[i] = lots;
    this.inWindow += this.bits.assign(i, lots !== 0);
    if (lots !== 0) {
      if (!(key <= this.windowBest)) this.windowBest = key;
    } else if (key === this.windowBest) {
      const next = this.bits.highestAtOrBelow(i - 1);
      this.windowBest = next < 0 ? Number.NaN : this.lo + next;
    }
    if (!(this.windowBest - this.lo >= this.size >>> 3) && this.far.count !== 0) this.slideDown();
  }

  /** Lots at `key`, 0 when there is no level. */
  lotsAt(key: number): number {
    if (key < this.lo) return this.far.lotsAt(key);
    const i = key - this.lo;
    return i < this.size ? (this.window[i] as number) : 0;
  }

  /**
   * A write below the window. The window doubles when the sorted part holds more levels than the
   * window (a snapshot of a book spread over many ticks), or, looked at every
   * {@link MISSES_PER_LOOK} such writes, when too many writes went to the sorted part.
   */
  private setFar(key: number, lots: number): void {
    const far = this.far;
    far.set(key, lots);
    if (this.size >= this.maxWindowSize) return;
    let grow = far.count >= MIN_FAR_LEVELS && far.count > this.inWindow;
    if (++this.misses >= MISSES_PER_LOOK) {
      grow ||= this.misses * MISS_SHARE > this.writes;
      this.misses = 0;
      this.writes = 0;
    }
    if (!grow) return;
    const size = this.size * 2;
    const best = this.bestKey();
    // An emptied ladder has no best to place the window at: the next level placed will do.
    if (best !== best) this.resizeEmpty(size);
    else this.move(best - size + (size >>> 3), size);
  }

  /** Every level, lowest key first. */
  private levels(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.far.count; i++) out.push([this.far.keyBuffer[this.far.start + i] as number, this.far.lotBuffer[this.far.start + i] as number]);
    const window: [number, number][] = [];
    for (let i = this.bits.highestAtOrBelow(this.size - 1); i >= 0; i = this.bits.highestAtOrBelow(i - 1)) window.push([this.lo + i, this.window[i] as number]);
    return out.concat(window.reverse());
  }

  /** Moves the window down so that the best level lies in its top eighth; the sorted part's top moves in. */
  private slideDown(): void {
    const lo = this.bestKey() - this.size + (this.size >>> 3);
    if (lo < this.lo) this.move(lo, this.size);
  }

  /** Zeroes the window's occupied slots and its bitmap. */
  private emptyWindow(): void {
    const window = this.window;
    for (let i = this.bits.highestAtOrBelow(this.size - 1); i >= 0; i = this.bits.highestAtOrBelow(i - 1)) window[i] = 0;
    this.bits.clear();
    this.inWindow = 0;
    this.windowBest = Number.NaN;
  }

  /**
   * Places the window (of `size` keys from now on) at `lo`: levels of the window below it go to
   * the top of the sorted part, levels of the sorted part at or above it come in. Every level
   * must fit under `lo + size` (callers place the best level inside). O(levels moved + size / 32).
   */
  private move(lo: number, size: number): void {
    const keys: number[] = [];
    const lots: number[] = [];
    for (let i = this.bits.highestAtOrBelow(this.size - 1); i >= 0; i = this.bits.highestAtOrBelow(i - 1)) {
      keys.push(this.lo + i);
      lots.push(this.window[i] as number);
    }
    this.emptyWindow();
    if (size !== this.size) this.resizeEmpty(size);
    this.lo = lo;
    const far = this.far;
    // Lowest first: the window's levels below `lo` are above every sorted key, so each is an append.
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k] as number;
      if (key < lo) far.set(key, lots[k] as number);
      else this.put(key - lo, key, lots[k] as number);
    }
    while (far.count !== 0) {
      const top = far.bestKey();
      if (top < lo) break;
      this.put(top - lo, top, far.lotsAt(top));
      far.set(top, 0);
    }
  }

  private resizeEmpty(size: number): void {
    this.size = size;
    this.window = new Float64Array(size);
    this.bits = new LevelBitmap(size);
  }

  /** Stores a level known to be absent from the window at slot `i`. */
  private put(i: number, key: number, lots: number): void {
    this.window[i] = lots;
    this.bits.flip(i);
    this.inWindow++;
    if (!(key <= this.windowBest)) this.windowBest = key;
  }
}
