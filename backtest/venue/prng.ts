import { ValidationError } from '../../framework/model/errors.js';

const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;

/**
 * A small seeded pseudo-random generator: xoshiro128** (Blackman and Vigna) with its 128-bit state
 * filled by splitmix32 from the seed and a stream number.
 *
 * Determinism: the state advances with 32-bit integer operations only (`Math.imul`, shifts), so
 * the raw sequence is identical on every platform. The continuous draws (normal, exponential,
 * Poisson) go through `Math.log`, `Math.sqrt` and `Math.cos`; `Math.sqrt` is exactly rounded by
 * IEEE 754 and V8 computes the others with its own software port of fdlibm rather than the host's
 * libm, so a given Node major version reproduces them bit for bit across machines.
 *
 * Streams: the same seed with different `stream` numbers gives independent sequences, which lets
 * each simulated symbol own its generator so adding a symbol does not change the others.
 *
 * Not for cryptography.
 */
export class Prng {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;
  /** Second value of the last Box-Muller pair, NaN when none is waiting. */
  private spareNormal = Number.NaN;

  constructor(seed: number, stream = 0) {
    if (!Number.isSafeInteger(seed)) throw new ValidationError('seed', 'must be a safe integer', seed);
    if (!Number.isSafeInteger(stream)) throw new ValidationError('stream', 'must be a safe integer', stream);
    const low = seed % TWO_POW_32 | 0;
    const high = Math.floor(seed / TWO_POW_32) | 0;
    let state = (low ^ Math.imul(high, 0x85ebca6b) ^ Math.imul(stream | 0, 0x9e3779b9)) | 0;
    const next = (): number => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) | 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    // xoshiro must not start from the all-zero state (it would stay there forever).
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /**
   * A generator at an explicit xoshiro128** state (four 32-bit words, not all zero): for
   * checkpoints and for checking the algorithm against its published reference outputs.
   */
  static fromState(s0: number, s1: number, s2: number, s3: number): Prng {
    if ((s0 | s1 | s2 | s3) === 0) throw new ValidationError('state', 'must not be all zero');
    const prng = new Prng(0);
    prng.s0 = s0 | 0;
    prng.s1 = s1 | 0;
    prng.s2 = s2 | 0;
    prng.s3 = s3 | 0;
    return prng;
  }

  /** 32-bit FNV-1a of a text: a stable stream number for a name (a symbol code). */
  static hashString(text: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  }

  /** Next raw value, an unsigned 32-bit integer. */
  nextUint32(): number {
    const s0 = this.s0;
    const s1 = this.s1;
    const s2 = this.s2;
    const s3 = this.s3;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
    const t = s1 << 9;
    this.s2 = s2 ^ s0;
    this.s3 = s3 ^ s1;
    this.s1 = s1 ^ this.s2;
    this.s0 = s0 ^ this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result >>> 0;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  uniform(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) / TWO_POW_53;
  }

  /** Uniform integer in [0, n), without modulo bias; `n` is a positive integer up to 2^32. */
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > TWO_POW_32) throw new ValidationError('n', 'must be an integer in 1..2^32', n);
    // Rejection keeps every value equally likely when n does not divide 2^32.
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    let x = this.nextUint32();
    while (x >= limit) x = this.nextUint32();
    return x % n;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.uniform() < p;
  }

  /** Standard normal draw (Box-Muller; the pair's second value is kept for the next call). */
  normal(): number {
    const spare = this.spareNormal;
    if (!Number.isNaN(spare)) {
      this.spareNormal = Number.NaN;
      return spare;
    }
    const u1 = 1 - this.uniform(); // (0, 1]: log(0) must never happen
    const u2 = this.uniform();
    const radius = Math.sqrt(-2 * Math.log(u1));
    const angle = 2 * Math.PI * u2;
    this.spareNormal = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  }

  /** Exponential draw with the given rate (mean 1 / rate); `rate` > 0. */
  exponential(rate: number): number {
    return -Math.log(1 - this.uniform()) / rate;
  }

  /**
   * Poisson draw with the given mean: Knuth's product of uniforms below 30, Hörmann's PTRS
   * (transformed rejection with squeeze) above, where the product method would need too many draws.
   */
  poisson(mean: number): number {
    if (!(mean >= 0) || !Number.isFinite(mean)) throw new ValidationError('mean', 'must be a finite number >= 0', mean);
    if (mean === 0) return 0;
    if (mean < 30) {
      const limit = Math.exp(-mean);
      let k = 0;
      let product = this.uniform();
      while (product > limit) {
        k++;
        product *= this.uniform();
      }
      return k;
    }
    const slam = Math.sqrt(mean);
    const logMean = Math.log(mean);
    const b = 0.931 + 2.53 * slam;
    const a = -0.059 + 0.02483 * b;
    const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
    const vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const u = this.uniform() - 0.5;
      const v = this.uniform();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <= -mean + k * logMean - logFactorial(k)) return k;
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** ln(k!) by Stirling's series; exact enough (error < 1e-10) for the k >= 10 PTRS reaches. */
function logFactorial(k: number): number {
  if (k < 10) {
    let f = 1;
    for (let i = 2; i <= k; i++) f *= i;
    return Math.log(f);
  }
  const x = k + 1;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x * x * x);
}
