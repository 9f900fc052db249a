import type { MarginUse } from '../venue/futures/simulated-futures-venue.js';
import type { MarginSample } from '../report/futures-report.js';
import { SampledSeries } from './sampled-series.js';

/** Most margin samples a run keeps; a longer run keeps coarser buckets (each bucket's last sample). */
export const MARGIN_POINTS = 10_000;

/**
 * Samples a futures account's margin use every `sampleMs` of virtual time (at the first event of
 * each period, and once more at the end), in bounded memory ({@link SampledSeries}). The read is the
 * venue's `marginUse`, which spends no request id, so sampling never changes the run.
 */
export class FuturesMarginSampler {
  private readonly series: SampledSeries<MarginUse>;
  private nextSample = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly read: () => MarginUse,
    private readonly sampleMs: number,
    maxPoints = MARGIN_POINTS,
  ) {
    this.series = new SampledSeries<MarginUse>(maxPoints, sampleMs);
  }

  /** Samples when a period has begun since the last sample. */
  tick(time: number): void {
    if (time < this.nextSample) return;
    this.sample(time);
  }

  /** Samples now (the end of a run). */
  sample(time: number): void {
    this.series.add(time, this.read());
    this.nextSample = (Math.floor(time / this.sampleMs) + 1) * this.sampleMs;
  }

  /** The samples, oldest first; each at the start of its bucket. */
  samples(): MarginSample[] {
    return this.series.list().map(({ time, value }) => ({ time, ...value }));
  }
}
