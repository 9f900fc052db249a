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
  private points: { time: number; value: T }[] = [];
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
    const last = this.points[this.points.length - 1];
    return last === undefined || bucketStart(time, this.widthMs) > last.time;
  }

  /** Sets the value of the bucket holding `time` (replacing an earlier value of the same bucket). */
  add(time: number, value: T): void {
    const start = bucketStart(time, this.widthMs);
    const last = this.points[this.points.length - 1];
    if (last !== undefined && start < last.time) return;
    if (last !== undefined && start === last.time) {
      last.value = value;
      return;
    }
    this.points.push({ time: start, value });
    if (this.points.length > this.maxPoints) this.coarsen();
  }

  /** The points, oldest first. */
  list(): SampledPoint<T>[] {
    return this.points.map((p) => ({ time: p.time, value: p.value }));
  }

  private coarsen(): void {
    while (this.points.length > this.maxPoints && this.widthIndex < RESOLUTIONS_MS.length - 1) {
      this.widthIndex++;
      const width = this.widthMs;
      const merged: { time: number; value: T }[] = [];
      for (const p of this.points) {
        const start = bucketStart(p.time, width);
        const last = merged[merged.length - 1];
        if (last !== undefined && last.time === start) last.value = p.value;
        else merged.push({ time: start, value: p.value });
      }
      this.points = merged;
    }
  }
}
