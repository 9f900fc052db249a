import { createHash } from 'node:crypto';
import { Prng } from '../../backtest/venue/prng.js';

/**
 * A seeded uniform source in [0, 1) (the venue's generator, one per named stream): a soak run's
 * kill moments, downtimes and market come from its seed, so a failing seed replays the same
 * schedule. Each named stream is independent, so changing how often one is drawn does not move
 * the others.
 */
export class SeededRandom {
  private readonly streams = new Map<string, () => number>();

  constructor(readonly seed: string) {}

  /** The next draw of stream `name`. */
  next(name: string): number {
    let stream = this.streams.get(name);
    if (stream === undefined) {
      const prng = new Prng(createHash('sha256').update(`${this.seed}/${name}`).digest().readUInt32LE(0));
      stream = () => prng.uniform();
      this.streams.set(name, stream);
    }
    return stream();
  }

  /** A uniform draw in [min, max). */
  between(name: string, min: number, max: number): number {
    return min + (max - min) * this.next(name);
  }

  /** A uniform integer in [min, max]. */
  integer(name: string, min: number, max: number): number {
    return min + Math.floor((max - min + 1) * this.next(name));
  }
}
