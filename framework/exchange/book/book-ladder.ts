import { MAX_EXACT } from '../../model/scaled-big.js';
import { LevelBitmap } from './level-bitmap.js';
import { SortedLevels } from './sorted-levels.js';

/** Marks a quantity kept in {@link BookLadder.bigQuantities} because it exceeds a safe integer. */
export const BIG_QUANTITY = -1;

/** Default (and smallest) number of slots of a ladder's dense window (32 KiB of quantities). */
export const DEFAULT_WINDOW_SIZE = 4096;
/** Default largest window a ladder grows to (2 MiB of quantities). */
export const DEFAULT_MAX_WINDOW_SIZE = 1 << 18;

/** Level writes between two looks at how many of them missed the window. */
const TRAFFIC_SAMPLE = 2048;
/** The window doubles when more than 1 write in this many missed it. */
const MISS_SHARE = 8;
/** After a snapshot the window is sized to hold this share of the levels, counted from the best. */
const FIT_SHARE = 0.9;

/**
 * One side of an L2 book over scaled integers. Bids use the price as key, asks the negated price,
 * so both sides share one code path and the best level is always the highest key.
 *
 * Layout, chosen for real depth-diff traffic (most changes within a few hundred levels of the
 * touch, a long tail far away):
 * - a dense window: `slots[key - base]` holds the quantity at `key` (0 = no level), so changing a
 *   level near the touch is one array store; a {@link LevelBitmap} marks the occupied slots, so
 *   finding the next level after the best was removed, or walking the book, skips empty ticks
 *   32 and 1,024 at a time (a BTC book at a 0.01 tick has levels hundreds of ticks apart);
 * - {@link outside}: the levels beyond the window, sorted;
 * - exactness beyond 2^53: a level whose key does not fit a safe integer (a placeholder ask at
 *   9999999999999.000 on a 0.001 grid) lives in {@link farLevels}, keyed by BigInt; such a key is
 *   above every safe key (a far bid: better than all) or below (a far ask: worse than all), so the
 *   order stays total. A safe-keyed level with a quantity beyond 2^53 stores {@link BIG_QUANTITY}
 *   and the exact value in {@link bigQuantities}. Both are off the hot path.
 *
 * The window's size follows the book, as books differ by orders of magnitude in ticks (ETH at a
 * 0.01 tick spans a few thousand ticks, BTC hundreds of thousands): {@link fit} grows it after a
 * snapshot to hold most levels, and {@link rebalance} doubles it when more than one level write
 * in eight lands outside it, up to the largest size. It never shrinks: the spread of a symbol's
 * traffic outlives a resync. The best level sits three quarters of the way
 * up, leaving room for the price to improve; {@link rebalance} (once per message) recentres the
 * window when the best drifts out of its comfortable band, so a recentring, O(levels), comes only
 * after the price moved by about a quarter of the window.
 */
export class BookLadder {
  /** Levels beyond the window. */
  readonly outside = new SortedLevels();
  /** Exact quantities of the levels marked BIG_QUANTITY, by key. */
  readonly bigQuantities = new Map<number, bigint>();
  /**
   * Whether {@link bigQuantities} may hold a window level's quantity: set when one is stored,
   * cleared with the ladder, so the hot path tests a field rather than the map.
   */
  private mayHoldBig = false;
  /** Levels whose key is beyond the safe integer range, key -> quantity. */
  farLevels = new Map<bigint, bigint>();
  /** Count of far levels with a positive key: when non-zero the best level is a far one. */
  farAbove = 0;
  private slots: Float64Array;
  private bits: LevelBitmap;
  private span: number;
  /** Key of slot 0 (an integer: the optimiser keeps it unboxed while keys fit 31 bits). */
  private base = 0;
  /**
   * Slots an index may address: the span once the window is placed, 0 while it is unplaced, so
   * every index test fails.
   */
  private reach = 0;
  /** Index of the highest non-zero slot; -1 when the window holds no level. */
  private top = -1;
  private inWindow = 0;
  /** Level writes since the traffic was last looked at, and how many of them missed the window. */
  private writes = 0;
  private missed = 0;

  /**
   * `windowSize`: slots of the dense window, in units of the book's price scale, and the smallest
   * it is sized down to; `maxWindowSize`: the largest it grows to. Powers of two.
   */
  constructor(
    private readonly windowSize = DEFAULT_WINDOW_SIZE,
    private readonly maxWindowSize = Math.max(windowSize, DEFAULT_MAX_WINDOW_SIZE),
  ) {
    this.span = windowSize;
    this.slots = new Float64Array(windowSize);
    this.bits = new LevelBitmap(windowSize);
  }

  /** Number of levels. */
  get size(): number {
    return this.inWindow + this.outside.count + this.farLevels.size;
  }

  /** Slots of the dense window at the moment. */
  get windowSpan(): number {
    return this.span;
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
    this.emptyWindow();
    this.reach = 0;
    this.outside.clear();
    this.bigQuantities.clear();
    this.mayHoldBig = false;
    this.farLevels.clear();
    this.farAbove = 0;
  }

  /**
   * Sets the quantity at a safe `key`; 0 removes the level (and is a no-op for an absent level,
   * which the exchange may send after a level vanished on its side).
   */
  set(key: number, quantity: number): void {
    const index = key - this.base;
    this.writes++;
    if (index >= 0 && index < this.reach) {
      // The slot is only written: whether it held a level is the bitmap's bit, which stays in
      // cache, so a change far from the touch of a wide window costs a store the CPU buffers, not
      // a load that waits on memory.
      if (this.mayHoldBig) this.forgetBig(index, key);
      this.slots[index] = quantity;
      // Insert, update and removal are equally likely and unpredictable: count and mark without
      // branching, and test the rarely true position conditions first so the branches predict well.
      const added = this.bits.assign(index, quantity !== 0);
      this.inWindow += added;
      if (index >= this.top) {
        if (index > this.top) {
          if (quantity !== 0) this.top = index;
        } else if (quantity === 0) {
          this.top = this.bits.highestAtOrBelow(index - 1);
        }
      }
      return;
    }
    this.setOutside(key, quantity);
  }

  /** Drops the exact quantity kept for a window slot about to be overwritten, if it has one. */
  private forgetBig(index: number, key: number): void {
    if (this.slots[index] === BIG_QUANTITY) this.bigQuantities.delete(key);
  }

  private setOutside(key: number, quantity: number): void {
    if (this.reach === 0) {
      if (quantity === 0) return;
      this.place(key);
      this.set(key, quantity);
      return;
    }
    this.missed++;
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
    // Both conversions below are exact: the key and the quantity were just checked to be safe.
    const safeKey = Number(key);
    if (quantity <= MAX_EXACT) {
      this.set(safeKey, Number(quantity));
      return;
    }
    this.set(safeKey, BIG_QUANTITY);
    this.bigQuantities.set(safeKey, quantity);
    this.mayHoldBig = true;
  }

  /** Exact quantity at `key`, 0n when there is no such level. */
  quantityAt(key: bigint): bigint {
    if (key > MAX_EXACT || key < -MAX_EXACT) return this.farLevels.get(key) ?? 0n;
    const safeKey = Number(key);
    const index = safeKey - this.base;
    const quantity = index >= 0 && index < this.reach ? (this.slots[index] as number) : this.outside.quantityAt(safeKey);
    return quantity === 0 ? 0n : this.exact(safeKey, quantity);
  }

  /** Exact quantity of a safe level's stored quantity (resolves BIG_QUANTITY). */
  exact(key: number, quantity: number): bigint {
    return quantity === BIG_QUANTITY ? (this.bigQuantities.get(key) as bigint) : BigInt(quantity);
  }

  /** Every level as exact [key, quantity], best (highest key) first. */
  *levelsFromBest(): Generator<readonly [bigint, bigint]> {
    const far = [...this.farLevels].sort((x, y) => (x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0));
    let f = 0;
    for (; f < far.length && (far[f] as [bigint, bigint])[0] > 0n; f++) yield far[f] as [bigint, bigint];
    for (let i = this.firstSafe(); i.key === i.key; this.nextSafe(i)) yield [BigInt(i.key), this.exact(i.key, i.quantity)];
    for (; f < far.length; f++) yield far[f] as [bigint, bigint];
  }

  /** A cursor on the best safe level (key NaN when there is none); {@link nextSafe} moves it down. */
  firstSafe(): SafeCursor {
    const cursor: SafeCursor = { key: Number.NaN, quantity: 0, slot: this.top, rank: this.outside.count - 1 };
    this.settle(cursor);
    return cursor;
  }

  /** Moves a cursor from {@link firstSafe} to the next lower safe level. */
  nextSafe(cursor: SafeCursor): void {
    if (cursor.slot >= 0 && cursor.key === this.base + cursor.slot) cursor.slot = this.bits.highestAtOrBelow(cursor.slot - 1);
    else cursor.rank--;
    this.settle(cursor);
  }

  private settle(cursor: SafeCursor): void {
    const outside = this.outside;
    const windowKey = cursor.slot >= 0 ? this.base + cursor.slot : Number.NEGATIVE_INFINITY;
    const outsideKey = cursor.rank >= 0 ? (outside.keys[cursor.rank] as number) : Number.NEGATIVE_INFINITY;
    if (windowKey > outsideKey) {
      cursor.key = windowKey;
      cursor.quantity = this.slots[cursor.slot] as number;
    } else if (cursor.rank >= 0) {
      cursor.key = outsideKey;
      cursor.quantity = outside.quantities[cursor.rank] as number;
    } else {
      cursor.key = Number.NaN;
      cursor.quantity = 0;
    }
  }

  /**
   * Once per message: doubles the window when too many writes missed it since the last look,
   * then recentres it when the best level left its comfortable band (the lower half is too thin,
   * or the best is about to leave through the top). O(1) when nothing is to be done. Returns the
   * best safe key ({@link bestKey}), which a caller keeps until the ladder next changes.
   */
  rebalance(): number {
    // Small enough to be inlined into the book's apply: the rare work is in calls.
    if (this.writes >= TRAFFIC_SAMPLE) this.sampleTraffic();
    const best = this.bestKey();
    const index = best - this.base;
    // NaN (no level) fails the band test and the `best === best` test alike; an unplaced window
    // (reach 0) fails the band test.
    if (!(index >= this.span >> 1 && index < this.reach - (this.span >> 4)) && best === best) this.recentre(best, this.span);
    return best;
  }

  /** Starts a new traffic sample, first growing the window when too many writes of this one missed it. */
  private sampleTraffic(): void {
    const grow = this.missed * MISS_SHARE > this.writes && this.span < this.maxWindowSize;
    this.writes = 0;
    this.missed = 0;
    // At least double; at once to the fitted size when the levels have spread further.
    if (grow) this.resize(Math.max(this.span * 2, this.fittedSpan()));
  }

  /**
   * Sizes the window for the levels held (after a snapshot): the smallest power of two, within the
   * configured sizes, that holds {@link FIT_SHARE} of the safe levels counted from the best below
   * the best's place in the window. The rest (a tail of deep levels) stays outside. A window
   * already larger (grown by earlier traffic) keeps its size: a resync snapshot would otherwise
   * shrink it, and the updates that follow would miss it and grow it again, a reallocation and an
   * O(levels) recentring each time the book resyncs.
   */
  fit(): void {
    this.writes = 0;
    this.missed = 0;
    const span = this.fittedSpan();
    if (span > this.span) this.resize(span);
  }

  /** The window size {@link fit} chooses for the levels held; the smallest size when there are none. */
  private fittedSpan(): number {
    const count = this.inWindow + this.outside.count;
    let span = this.windowSize;
    if (count === 0) return span;
    const cursor = this.firstSafe();
    const best = cursor.key;
    for (let rank = Math.ceil(count * FIT_SHARE) - 1; rank > 0; rank--) this.nextSafe(cursor);
    const depth = best - cursor.key;
    while (span < this.maxWindowSize && span - (span >> 2) <= depth) span *= 2;
    return span;
  }

  /**
   * Multiplies every key by `factor` (a power of ten) because the book's price scale went up;
   * keys pushed beyond 2^53 move to the far levels, so nothing is ever rounded.
   */
  scaleKeys(factor: bigint): void {
    const levels = [...this.levelsFromBest()];
    this.clear();
    // Worst first: each level lands after the previous one (an append), and the fit at the end
    // sizes the window for the wider keys and moves it to the new best.
    for (let i = levels.length - 1; i >= 0; i--) {
      const [key, quantity] = levels[i] as readonly [bigint, bigint];
      this.setExact(key * factor, quantity);
    }
    this.fit();
    this.rebalance();
  }

  /** Multiplies every quantity by `factor` (a power of ten): the book's quantity scale went up. */
  scaleQuantities(factor: bigint): void {
    const slots = this.slots;
    for (let i = this.top; i >= 0; i = this.bits.highestAtOrBelow(i - 1)) {
      slots[i] = this.scaledQuantity(this.base + i, slots[i] as number, factor);
    }
    const outside = this.outside;
    for (let i = 0; i < outside.count; i++) {
      outside.quantities[i] = this.scaledQuantity(outside.keys[i] as number, outside.quantities[i] as number, factor);
    }
    for (const [key, quantity] of this.farLevels) this.farLevels.set(key, quantity * factor);
  }

  /** A quantity times `factor`, in BigInt so no step can round; kept as BigInt beyond 2^53. */
  private scaledQuantity(key: number, quantity: number, factor: bigint): number {
    const scaled = this.exact(key, quantity) * factor;
    if (scaled <= MAX_EXACT) {
      this.bigQuantities.delete(key);
      return Number(scaled);
    }
    this.bigQuantities.set(key, scaled);
    this.mayHoldBig = true;
    return BIG_QUANTITY;
  }

  /** Places the (empty) window so that `key` sits three quarters of the way up. */
  private place(key: number): void {
    this.base = key - (this.span - (this.span >> 2));
    this.reach = this.span;
  }

  /** Empties the window's slots (only the occupied ones are written) and its bitmap. */
  private emptyWindow(): void {
    const slots = this.slots;
    for (let i = this.top; i >= 0; i = this.bits.highestAtOrBelow(i - 1)) slots[i] = 0;
    this.bits.clear();
    this.top = -1;
    this.inWindow = 0;
  }

  private resize(span: number): void {
    const best = this.bestKey();
    if (best !== best) {
      this.emptyWindow();
      this.span = span;
      if (this.reach !== 0) this.reach = span;
      this.slots = new Float64Array(span);
      this.bits = new LevelBitmap(span);
      return;
    }
    this.recentre(best, span);
  }

  /**
   * Moves the window (of `span` slots from now on) so `best` sits three quarters of the way up;
   * levels follow exactly. O(levels in the window + slots / 32).
   */
  private recentre(best: number, span: number): void {
    const slots = this.slots;
    const outside = this.outside;
    if (this.inWindow > 0) {
      // The window's levels are ascending and no outside key lies between them: one run.
      const keys = new Float64Array(this.inWindow);
      const quantities = new Float64Array(this.inWindow);
      let n = this.inWindow;
      for (let i = this.top; i >= 0; i = this.bits.highestAtOrBelow(i - 1)) {
        keys[--n] = this.base + i;
        quantities[n] = slots[i] as number;
      }
      outside.insertRun(keys, quantities);
    }
    this.emptyWindow();
    if (span !== this.span) {
      this.span = span;
      this.slots = new Float64Array(span);
      this.bits = new LevelBitmap(span);
    }
    this.place(best);
    const from = outside.lowerBound(this.base);
    const to = outside.lowerBound(this.base + this.span);
    const window = this.slots;
    for (let i = from; i < to; i++) {
      const index = (outside.keys[i] as number) - this.base;
      window[index] = outside.quantities[i] as number;
      this.bits.flip(index);
    }
    this.inWindow = to - from;
    // From the bitmap, an int: a value read from the keys (a double) would turn the field into a
    // boxed double that every level write loads through.
    this.top = this.bits.highestAtOrBelow(this.span - 1);
    outside.removeRange(from, to);
  }
}

/** A position in a ladder's safe levels, from {@link BookLadder.firstSafe}; `key` NaN past the last. */
export interface SafeCursor {
  key: number;
  /** The stored quantity (BIG_QUANTITY when kept as BigInt; see {@link BookLadder.exact}). */
  quantity: number;
  /** Window slot of the next window level to consider; -1 when none is left. */
  slot: number;
  /** Index in the outside levels of the next outside level to consider; -1 when none is left. */
  rank: number;
}
