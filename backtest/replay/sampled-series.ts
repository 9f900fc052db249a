import { bucketStart, RESOLUTIONS_MS, resolutionIndexAtLeast } from '../report/time-resolution.js';

/** A point of a {@link SampledSeries}: the start of its bucket and the bucket's last value. */
export interface SampledPoint<T> {
  readonly time: number;
  readonly value: T;
}

/**
 * A time series kept in bounded memory whatever the run's length: one point per time bucket (the
 * bucket's last value), buckets starting at the finest width of {@link RESOLUTIONS_MS} at or above
 * `finestMs`; when more than `maxPoints` buckets are held, the series moves to the next width
 * (merging whole buckets, keeping each merged bucket's last value) until it fits. A short run thus
 * keeps second-level detail and a long one hours, never more than `maxPoints` points. Values at a
 * time before the last bucket are dropped (series are fed in time order).
 */
export class SampledSeries<T> {
  /**
   * Bucket starts and values as two parallel lists rather than an object per point: a long run's
   * points each outlive the young generation until their bucket merges (and number values then
   * sit unboxed in their list).
   */
  private times: number[] = [];
  private values: T[] = [];
  private widthIndex: number;

  constructor(
    private readonly maxPoints: number,
    finestMs = RESOLUTIONS_MS[0]!,
  ) {
    this.widthIndex = resolutionIndexAtLeast(finestMs);
  }

  /** The current bucket width, ms. */
  get widthMs(): number {
    return RESOLUTIONS_MS[this.widthIndex]!;
  }

  /** Whether a value at `time` would start a new bucket (callers sample only then: a read per bucket). */
  startsBucket(time: number): boolean {
    const count = this.times.length;
    return count === 0 || bucketStart(time, this.widthMs) > this.times[count - 1]!;
  }

  /** Sets the value of the bucket holding `time` (replacing an earlier value of the same bucket). */
  add(time: number, value: T): void {
    const start = bucketStart(time, this.widthMs);
    const last = this.times.length - 1;
    if (last >= 0 && start < this.times[last]!) return;
    if (last >= 0 && start === this.times[last]) {
      this.values[last] = value;
      return;
    }
    this.times.push(start);
    this.values.push(value);
    if (this.times.length > this.maxPoints) this.coarsen();
  }

  /** The points, oldest first. */
  list(): SampledPoint<T>[] {
    return this.times.map((time, i) => ({ time, value: this.values[i] as T }));
  }

  private coarsen(): void {
    while (this.times.length > this.maxPoints && this.widthIndex < RESOLUTIONS_MS.length - 1) {
      this.widthIndex++;
      const width = this.widthMs;
      const times: number[] = [];
      const values: T[] = [];
      for (let i = 0; i < this.times.length; i++) {
        const start = bucketStart(this.times[i]!, width);
        if (times.length > 0 && times[times.length - 1] === start) values[values.length - 1] = this.values[i] as T;
        else {
          times.push(start);
          values.push(this.values[i] as T);
        }
      }
      this.times = times;
      this.values = values;
    }
  }
}
