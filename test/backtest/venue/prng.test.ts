import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Prng } from '../../../backtest/venue/prng.js';
import { ValidationError } from '../../../framework/model/errors.js';

function draws(prng: Prng, n: number, draw: (p: Prng) => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(draw(prng));
  return out;
}

function meanAndVariance(values: readonly number[]): { mean: number; variance: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (values.length - 1);
  return { mean, variance };
}

describe('Prng', () => {
  it('reproduces the published xoshiro128** reference outputs from state 1, 2, 3, 4', () => {
    const prng = Prng.fromState(1, 2, 3, 4);
    expect(draws(prng, 6, (p) => p.nextUint32())).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('pins the seeding, so recorded seeds keep producing the same market', () => {
    expect(draws(new Prng(42), 4, (p) => p.nextUint32())).toEqual([2837322924, 544945897, 479756282, 3500138142]);
    expect(Prng.hashString('BTCUSDT')).toBe(3895251564);
  });

  it('gives the same sequence for the same seed and stream, and different ones otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed, stream) => {
        const a = draws(new Prng(seed, stream), 8, (p) => p.nextUint32());
        expect(draws(new Prng(seed, stream), 8, (p) => p.nextUint32())).toEqual(a);
        expect(draws(new Prng(seed + 1, stream), 8, (p) => p.nextUint32())).not.toEqual(a);
        expect(draws(new Prng(seed, stream + 1), 8, (p) => p.nextUint32())).not.toEqual(a);
      }),
      { numRuns: 100 },
    );
  });

  it('draws uniforms in [0, 1) and integers in [0, n) covering the whole range', () => {
    const prng = new Prng(7);
    const seen = new Set<number>();
    let outside = 0;
    for (let i = 0; i < 20_000; i++) {
      const u = prng.uniform();
      if (!(u >= 0 && u < 1)) outside++;
      const k = prng.int(7);
      if (!(Number.isInteger(k) && k >= 0 && k < 7)) outside++;
      seen.add(k);
    }
    expect(outside).toBe(0);
    expect(seen.size).toBe(7);
    const { mean } = meanAndVariance(draws(new Prng(8), 50_000, (p) => p.uniform()));
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
  });

  it('draws normals with mean 0 and variance 1, exponentials with mean 1 / rate', () => {
    const normal = meanAndVariance(draws(new Prng(1), 50_000, (p) => p.normal()));
    expect(Math.abs(normal.mean)).toBeLessThan(0.02);
    expect(Math.abs(normal.variance - 1)).toBeLessThan(0.03);
    const exponential = meanAndVariance(draws(new Prng(2), 50_000, (p) => p.exponential(4)));
    expect(Math.abs(exponential.mean - 0.25)).toBeLessThan(0.005);
    expect(draws(new Prng(3), 1000, (p) => p.exponential(1)).every((x) => x >= 0 && Number.isFinite(x))).toBe(true);
  });

  it('draws Poisson counts with mean = variance = lambda, small (product method) and large (PTRS)', () => {
    for (const lambda of [0.5, 4, 25, 80, 1000]) {
      const values = draws(new Prng(Math.round(lambda * 10)), 40_000, (p) => p.poisson(lambda));
      expect(values.every((k) => Number.isInteger(k) && k >= 0)).toBe(true);
      const { mean, variance } = meanAndVariance(values);
      expect(Math.abs(mean - lambda) / lambda).toBeLessThan(0.03);
      expect(Math.abs(variance - lambda) / lambda).toBeLessThan(0.08);
    }
    expect(new Prng(1).poisson(0)).toBe(0);
  });

  it('rejects bad seeds and parameters with a ValidationError naming the field', () => {
    expect(() => new Prng(1.5)).toThrow(ValidationError);
    expect(() => new Prng(Number.NaN)).toThrow(/seed/);
    expect(() => new Prng(1).int(0)).toThrow(/^n:/);
    expect(() => new Prng(1).poisson(-1)).toThrow(/^mean:/);
    expect(() => Prng.fromState(0, 0, 0, 0)).toThrow(/^state:/);
  });
});
