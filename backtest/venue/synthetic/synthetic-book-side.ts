/**
 * One side of the simulated L2 book in integer ticks and lots, with the levels changed since the
 * last {@link takeChanges} so that one `orderbook/full` update can carry exactly what moved.
 *
 * Levels are kept in plain arrays sorted by a key that puts the best level last (bids: the tick,
 * asks: the negated tick). The side holds at most a few hundred levels and the simulator touches
 * the top far more often than the bottom, so a sorted array with splice beats a tree here.
 */
export class SyntheticBookSide {
  /** +1 for bids (higher is better), -1 for asks. */
  readonly sign: 1 | -1;
  private readonly keys: number[] = [];
  private readonly lotsByIndex: number[] = [];
  private readonly changed = new Map<number, number>();

  constructor(readonly side: 'bid' | 'ask') {
    this.sign = side === 'bid' ? 1 : -1;
  }

  /** Number of levels. */
  get size(): number {
    return this.keys.length;
  }

  /** Tick of the best level; NaN when the side is empty. */
  bestTick(): number {
    const n = this.keys.length;
    return n === 0 ? Number.NaN : (this.keys[n - 1] as number) * this.sign;
  }

  /** Tick of the level farthest from the touch; NaN when the side is empty. */
  deepestTick(): number {
    return this.keys.length === 0 ? Number.NaN : (this.keys[0] as number) * this.sign;
  }

  /** Tick of the level `rank` places behind the best (0 = best). */
  tickAt(rank: number): number {
    return (this.keys[this.keys.length - 1 - rank] as number) * this.sign;
  }

  /** Lots of the level `rank` places behind the best (0 = best). */
  lotsAt(rank: number): number {
    return this.lotsByIndex[this.keys.length - 1 - rank] as number;
  }

  /** Lots resting at `tick`; 0 when there is no level. */
  lotsAtTick(tick: number): number {
    const key = tick * this.sign;
    const i = this.lowerBound(key);
    return this.keys[i] === key ? (this.lotsByIndex[i] as number) : 0;
  }

  /** Adds `lots` (> 0) at `tick`, creating the level when needed. */
  add(tick: number, lots: number): void {
    this.set(tick, this.lotsAtTick(tick) + lots);
  }

  /** Takes `lots` from the level at `tick` (at most what rests there); an emptied level disappears. */
  take(tick: number, lots: number): void {
    this.set(tick, Math.max(0, this.lotsAtTick(tick) - lots));
  }

  /** Sets the lots at `tick`; 0 removes the level. */
  set(tick: number, lots: number): void {
    const key = tick * this.sign;
    const i = this.lowerBound(key);
    const present = this.keys[i] === key;
    if (lots === 0) {
      if (!present) return;
      this.keys.splice(i, 1);
      this.lotsByIndex.splice(i, 1);
    } else if (present) {
      this.lotsByIndex[i] = lots;
    } else {
      this.keys.splice(i, 0, key);
      this.lotsByIndex.splice(i, 0, lots);
    }
    this.changed.set(tick, lots);
  }

  /**
   * Midpoint tick of the widest hole between two adjacent levels (at least one free tick inside);
   * NaN when the levels are packed tick by tick.
   */
  widestGapMidpoint(): number {
    let best = 1;
    let at = Number.NaN;
    for (let i = 1; i < this.keys.length; i++) {
      const gap = (this.keys[i] as number) - (this.keys[i - 1] as number);
      if (gap > best) {
        best = gap;
        at = ((this.keys[i - 1] as number) + Math.floor(gap / 2)) * this.sign;
      }
    }
    return at;
  }

  /** Every level as [tick, lots], best first. */
  *levels(): Generator<readonly [tick: number, lots: number]> {
    for (let i = this.keys.length - 1; i >= 0; i--) yield [(this.keys[i] as number) * this.sign, this.lotsByIndex[i] as number];
  }

  /** The levels changed since the last call as [tick, lots] (0 = removed), best first; clears the record. */
  takeChanges(): [tick: number, lots: number][] {
    if (this.changed.size === 0) return [];
    const out = [...this.changed];
    this.changed.clear();
    const sign = this.sign;
    out.sort((x, y) => (y[0] - x[0]) * sign);
    return out;
  }

  /** Forgets the change record (after a snapshot, which carries every level anyway). */
  clearChanges(): void {
    this.changed.clear();
  }

  private lowerBound(key: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
