/**
 * Which slots of a dense price window hold a level: one bit per slot, and one summary bit per
 * 32-slot word that is set while the word has any bit. A search for the next level below a slot
 * skips 32 empty slots per word test and 1,024 per summary test, so walking a sparse window (a BTC
 * book at a 0.01 tick has levels hundreds of ticks apart) costs a few operations per level instead
 * of one per empty tick.
 */
export class LevelBitmap {
  private readonly words: Int32Array;
  private readonly summary: Int32Array;

  /** `size`: slots covered. */
  constructor(readonly size: number) {
    this.words = new Int32Array((size + 31) >>> 5);
    this.summary = new Int32Array(Math.max(1, (size + 1023) >>> 10));
  }

  /** Turns slot `i`'s bit over (a level appeared or vanished there). */
  flip(i: number): void {
    const w = i >>> 5;
    const before = this.words[w] as number;
    const after = before ^ (1 << (i & 31));
    this.words[w] = after;
    // The word went from empty to not, or back: its summary bit follows.
    if (before === 0 || after === 0) this.summary[w >>> 5] = (this.summary[w >>> 5] as number) ^ (1 << (w & 31));
  }

  /**
   * Turns slot `i`'s bit over when `change` is 1, leaves it when 0, without a branch: for a hot
   * path where inserts, updates and removals come in no predictable order.
   */
  toggle(i: number, change: number): void {
    const w = i >>> 5;
    const before = this.words[w] as number;
    const after = before ^ (change << (i & 31));
    this.words[w] = after;
    const s = w >>> 5;
    this.summary[s] = (this.summary[s] as number) ^ (Number((before === 0) !== (after === 0)) << (w & 31));
  }

  /**
   * Sets slot `i`'s bit to `present` and returns the change in set slots (1 when the bit was
   * clear and is set, -1 the other way, else 0), without a branch: for a hot path where inserts,
   * updates and removals come in no predictable order, and whose caller learns from the bit
   * whether the slot held a level without reading the slot.
   */
  assign(i: number, present: boolean): number {
    const w = i >>> 5;
    const mask = 1 << (i & 31);
    const before = this.words[w] as number;
    const on = Number(present);
    // -on is all ones (keep the bit set) or zero (clear it).
    const after = (before & ~mask) | (mask & -on);
    this.words[w] = after;
    const s = w >>> 5;
    this.summary[s] = (this.summary[s] as number) ^ (Number((before === 0) !== (after === 0)) << (w & 31));
    return on - Number((before & mask) !== 0);
  }

  /** Whether slot `i` holds a level. */
  has(i: number): boolean {
    return (((this.words[i >>> 5] as number) >>> (i & 31)) & 1) !== 0;
  }

  /** Highest set slot at or below `i` (any `i` below `size`); -1 when there is none. */
  highestAtOrBelow(i: number): number {
    if (i < 0) return -1;
    const words = this.words;
    let w = i >>> 5;
    // Bits 0..(i & 31) of the word: (2 << b) - 1, which is -1 (all bits) for b = 31.
    const bits = (words[w] as number) & ((2 << (i & 31)) - 1);
    if (bits !== 0) return (w << 5) + 31 - Math.clz32(bits);
    const summary = this.summary;
    let s = w >>> 5;
    let marks = (summary[s] as number) & ((1 << (w & 31)) - 1);
    while (marks === 0) {
      if (--s < 0) return -1;
      marks = summary[s] as number;
    }
    w = (s << 5) + 31 - Math.clz32(marks);
    return (w << 5) + 31 - Math.clz32(words[w] as number);
  }

  /** Number of set slots (off the hot path). */
  count(): number {
    let n = 0;
    for (let w = 0; w < this.words.length; w++) {
      let bits = this.words[w] as number;
      while (bits !== 0) {
        bits &= bits - 1;
        n++;
      }
    }
    return n;
  }

  /** Clears every bit. */
  clear(): void {
    this.words.fill(0);
    this.summary.fill(0);
  }
}
