import { ValidationError } from '../../../framework/model/errors.js';

/**
 * Small seeded pseudo-random generators for the venue's models. The venue is pure and
 * deterministic, so randomness (latency jitter) comes from a seed, never from `Math.random`: the
 * same seed gives the same sequence on every machine and every run.
 */

/**
 * One SplitMix32 step: mixes `state` into a well-spread 32-bit value. Used to turn one user seed
 * into independent seeds for separate streams (nearby seeds such as 1 and 2 give unrelated outputs).
 */
export function splitMix32(state: number): number {
  let z = (state + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * Mulberry32: a 32-bit state generator, period 2^32, good enough for jitter (it is not for
 * cryptography). Each instance is one independent stream.
 */
export class Mulberry32 {
  private state: number;

  /** `seed` must be an integer (taken modulo 2^32). */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new ValidationError('seed', 'must be a safe integer', seed);
    this.state = seed >>> 0;
  }

  /** Next value, uniform over the unsigned 32-bit integers. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Next value, uniform in [0, 1) with 32 bits of resolution. */
  nextUnit(): number {
    return this.nextUint32() / 4294967296;
  }
}
