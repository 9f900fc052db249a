import { RESOLUTIONS_MS } from './time-resolution.js';

/** Chart libraries want strictly ascending times: several samples in one second keep the last. */
export function lastPerSecond<T extends readonly [number, ...unknown[]]>(rows: readonly T[]): T[] {
  const out: T[] = [];
  for (const row of rows) {
    if (out.length > 0 && out[out.length - 1]![0] === row[0]) out[out.length - 1] = row;
    else out.push(row);
  }
  return out;
}

/** Index of the last of the ascending `times` at or before `time` (0 when `time` precedes them all). */
function barIndex(times: readonly number[], time: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (times[mid]! <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Moves each `[time, value]` (ascending times) to the time of the bar that contains it (the last
 * of the ascending `barTimes` at or before it; the first bar for earlier points) and keeps the last
 * value per bar. Without bars the points are returned one per second.
 */
export function alignToBars<V>(barTimes: readonly number[], points: readonly (readonly [number, V])[]): (readonly [number, V])[] {
  if (barTimes.length === 0) return lastPerSecond(points);
  return lastPerSecond(points.map(([time, value]) => [barTimes[barIndex(barTimes, time)]!, value] as const));
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The bar width the times show, in seconds: the greatest common divisor of their gaps (bars start
 * at multiples of their width, so gaps are whole multiples of it); 60 with fewer than two bars.
 */
export function resolutionSeconds(barTimes: readonly number[]): number {
  let width = 0;
  for (let i = 1; i < barTimes.length; i++) width = gcd(barTimes[i]! - barTimes[i - 1]!, width);
  return width > 0 ? width : 60;
}

/** A float indicator value to 10 significant digits: more only weighs on the page, never on the drawing. */
export function roundForChart(value: number): number {
  return Number(value.toPrecision(10));
}

/**
 * At most `maxPoints` of `[seconds, value]` rows (ascending): rows are grouped in buckets of the
 * finest width of {@link RESOLUTIONS_MS} that leaves no more buckets than that, and `merge` folds
 * each bucket's rows, oldest first, into the one kept at the bucket's first time (keep the last
 * value for a level, the lowest for a drawdown). Fewer rows come back as they are.
 */
export function thinOut<V>(rows: readonly (readonly [number, V])[], maxPoints: number, merge: (kept: V, next: V) => V): (readonly [number, V])[] {
  if (rows.length <= maxPoints) return [...rows];
  const width = RESOLUTIONS_MS.map((ms) => ms / 1000).find((w) => bucketCount(rows, w) <= maxPoints) ?? RESOLUTIONS_MS[RESOLUTIONS_MS.length - 1]! / 1000;
  const out: (readonly [number, V])[] = [];
  let bucket = Number.NaN;
  for (const [time, value] of rows) {
    const start = Math.floor(time / width);
    if (start === bucket) {
      const last = out[out.length - 1]!;
      out[out.length - 1] = [last[0], merge(last[1], value)];
    } else {
      bucket = start;
      out.push([time, value]);
    }
  }
  return out;
}

function bucketCount(rows: readonly (readonly [number, unknown])[], width: number): number {
  let count = 0;
  let bucket = Number.NaN;
  for (const [time] of rows) {
    const start = Math.floor(time / width);
    if (start !== bucket) count++;
    bucket = start;
  }
  return count;
}

/**
 * `thinOut(lastPerSecond(rows), maxPoints, merge)` built one row at a time (ascending seconds),
 * in bounded memory: the last row waits until a later second shows it is its second's last, then
 * joins the bucket of the current width, and when more than `maxPoints` buckets are held they
 * merge into the next width of {@link RESOLUTIONS_MS} (each width a multiple of the one before, so
 * whole buckets merge, keeping the first one's time and folding the values oldest first). The
 * width only grows as rows come, so it ends as the finest that fits, the one `thinOut` picks, and
 * `merge` must be associative (keep the last, keep the lowest are). Values may be any type and
 * turned into text when listed, so a long run formats only the points it keeps.
 */
export class ThinnedSeries<V> {
  /** Kept rows as two parallel lists (no object per row: each one outlives the young generation). */
  private readonly rows: Rows<V> = { times: [], values: [] };
  private pendingTime = Number.NaN;
  private pendingValue: V | undefined;
  private widthIndex = 0;

  constructor(
    private readonly maxPoints: number,
    private readonly merge: (kept: V, next: V) => V,
  ) {}

  /** Adds the value of second `time` (replacing an earlier value of the same second). */
  add(time: number, value: V): void {
    if (time === this.pendingTime) {
      this.pendingValue = value;
      return;
    }
    if (this.pendingTime === this.pendingTime) this.widthIndex = this.commit(this.rows, this.widthIndex, this.pendingTime, this.pendingValue as V);
    this.pendingTime = time;
    this.pendingValue = value;
  }

  /** The thinned rows, oldest first, each value turned by `format`. */
  list<T>(format: (value: V) => T): [number, T][] {
    let rows = this.rows;
    if (this.pendingTime === this.pendingTime) {
      // The last row joins a copy: the series may still grow after being listed.
      rows = { times: [...rows.times], values: [...rows.values] };
      this.commit(rows, this.widthIndex, this.pendingTime, this.pendingValue as V);
    }
    return rows.times.map((t, i) => [t, format(rows.values[i] as V)]);
  }

  /** Puts a row into `rows` at width `index`, coarsening while they are too many; the width reached. */
  private commit(rows: Rows<V>, index: number, time: number, value: V): number {
    this.join(rows, index, time, value);
    while (rows.times.length > this.maxPoints && index < RESOLUTIONS_MS.length - 1) {
      index++;
      const { times, values } = rows;
      rows.times = [];
      rows.values = [];
      for (let i = 0; i < times.length; i++) this.join(rows, index, times[i]!, values[i] as V);
    }
    return index;
  }

  /** Puts a row in its bucket of width `index`: the last one, or a new one. */
  private join(rows: Rows<V>, index: number, time: number, value: V): void {
    const width = RESOLUTIONS_MS[index]! / 1000;
    const last = rows.times.length - 1;
    if (last >= 0 && Math.floor(rows.times[last]! / width) === Math.floor(time / width)) {
      rows.values[last] = this.merge(rows.values[last] as V, value);
    } else {
      rows.times.push(time);
      rows.values.push(value);
    }
  }
}

interface Rows<V> {
  times: number[];
  values: V[];
}
