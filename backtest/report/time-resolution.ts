/**
 * Bucket widths for chart series, finest first; each is a whole multiple of the one before, so a
 * series coarsened from one width to the next merges whole buckets and stays aligned with series
 * of the same width (all start at multiples of the width since the epoch).
 */
export const RESOLUTIONS_MS: readonly number[] = [
  1_000, 5_000, 15_000, 30_000, 60_000, 300_000, 900_000, 1_800_000, 3_600_000, 14_400_000, 43_200_000, 86_400_000, 604_800_000,
];

/** Index in {@link RESOLUTIONS_MS} of the finest width that is at least `ms` (the last one beyond it). */
export function resolutionIndexAtLeast(ms: number): number {
  const index = RESOLUTIONS_MS.findIndex((width) => width >= ms);
  return index < 0 ? RESOLUTIONS_MS.length - 1 : index;
}

/** Start of the bucket of `width` that holds `time`. */
export function bucketStart(time: number, width: number): number {
  return Math.floor(time / width) * width;
}
