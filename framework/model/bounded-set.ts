/**
 * A set that remembers at most `capacity` values, forgetting the oldest first: for "seen before?"
 * questions about an unbounded stream (trade ids, finished orders) where only recent history can
 * come back (a late or duplicated report), so memory stays flat however long the bot runs.
 */
export class BoundedSet<T> {
  private readonly values = new Set<T>();
  private readonly order: T[] = [];
  private head = 0;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.values.size;
  }

  has(value: T): boolean {
    return this.values.has(value);
  }

  /**
   * Adds `value` (no effect when present), forgetting the oldest value beyond the capacity;
   * returns the value forgotten, if any, so the owner can drop what it kept for it.
   */
  add(value: T): T | undefined {
    if (this.values.has(value)) return undefined;
    this.values.add(value);
    this.order.push(value);
    if (this.values.size <= this.capacity) return undefined;
    const oldest = this.order[this.head++] as T;
    this.values.delete(oldest);
    if (this.head >= this.capacity) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
    return oldest;
  }
}
