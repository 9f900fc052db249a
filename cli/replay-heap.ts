import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Old generation's growth after a full collection, in percent of what survived it (V8 picks up
 * to 4x on its own).
 */
const OLD_GENERATION_GROWTH_PERCENT = 30;

/**
 * Size of the young generation (both semi-spaces) at which it stops growing: 8 MiB. At 4 MiB a
 * long replay's peak RSS is about 4 MiB lower (the young generation's half is also part of the old
 * generation's limit, see {@link tuneHeapForReplay}), but the ETHUSDT x10 and 45,000-candle runs
 * then take 5-8% more CPU: twice the scavenges, more of their objects promoted, more marking.
 */
const YOUNG_GENERATION_BYTES = 8 << 20;

/** V8's own values of the flags set here (0: V8 picks the growth itself). */
const V8_DEFAULTS = ['--heap-growing-percent=0', '--semi-space-growth-factor=2'];

/**
 * Tunes V8's heap for the replay the command is about to run in this process, so that its peak
 * memory does not grow with the recording's length:
 * - the young generation stops growing at {@link YOUNG_GENERATION_BYTES}: left alone it grows to
 *   32 MiB, which a replay's frames, dead within one frame or one batch, do not need (V8 grows it
 *   by doubling, only in a collection: its size is looked at after each collection, once the
 *   replay awaits its next read, until growth is stopped);
 * - after a full collection the old generation may grow by {@link OLD_GENERATION_GROWTH_PERCENT}
 *   of what survived instead of up to 4x, so the garbage a long replay promotes is collected
 *   before it doubles the heap.
 * On the ETHUSDT recording the peak RSS at 10x / at 1x went from 1.40 to 1.13-1.18. What is left
 * is V8's own floor: after a full collection it lets the old generation grow by at least 8 MiB,
 * plus the young generation's semi-space (V8 11's heap controller; no flag sets that step), so
 * below ~27 MiB of survivors the step, not the percentage, sets the limit. A replay that runs
 * past its second full collection fills that headroom once; a short one (the 1x run, 0.4 s) ends
 * before. Past it the peak no longer follows the length: 20x peaks within 1% of 10x.
 * V8 reads both settings whenever it resizes the heap, so they take effect when set; they
 * change when memory is collected, never what a program computes. For a command's own process
 * only: a program that embeds tradeloop keeps its own heap settings.
 *
 * Returns what puts V8's own settings back once the replay is over: V8 refuses a code cache made
 * under other flags than the ones it starts with (see dist/bundle-loader.mjs).
 */
export function tuneHeapForReplay(): () => void {
  setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  let collections: PerformanceObserver | undefined;
  if (!stopYoungGrowthWhenGrown()) {
    collections = new PerformanceObserver(() => {
      if (stopYoungGrowthWhenGrown()) collections?.disconnect();
    });
    collections.observe({ entryTypes: ['gc'] });
  }
  return () => {
    collections?.disconnect();
    for (const flag of V8_DEFAULTS) setFlagsFromString(flag);
  };
}

/** Stops the young generation's growth if it has its size; true when it did. */
function stopYoungGrowthWhenGrown(): boolean {
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (young !== undefined && young.space_size < YOUNG_GENERATION_BYTES) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
