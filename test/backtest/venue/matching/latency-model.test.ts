import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConstantLatency, JitterLatency } from '../../../../backtest/venue/matching/latency-model.js';

describe('latency models', () => {
  it('ConstantLatency answers its delays and refuses negative ones', () => {
    const sandbox = new ConstantLatency();
    expect([sandbox.entryDelayMs(0, 'place'), sandbox.responseDelayMs(0, 'place')]).toEqual([0, 0]);
    const backtest = new ConstantLatency(12, 8);
    expect([backtest.entryDelayMs(5, 'cancel'), backtest.responseDelayMs(5, 'cancel')]).toEqual([12, 8]);
    expect(new ConstantLatency(5).responseDelayMs(0, 'query')).toBe(5);
    expect(() => new ConstantLatency(-1)).toThrow(/entryMs/);
    expect(() => new ConstantLatency(1, Number.NaN)).toThrow(/responseMs/);
  });

  it('JitterLatency is deterministic per seed, within [base, base + jitter), and streams are independent', () => {
    fc.assert(fc.property(fc.integer(), fc.nat(1000), fc.nat(1000), (seed, baseMs, jitterMs) => {
      const options = { seed, entry: { baseMs, jitterMs }, response: { baseMs: 1, jitterMs: 2 } };
      const a = new JitterLatency(options);
      const b = new JitterLatency(options);
      const entries = Array.from({ length: 20 }, (_, i) => a.entryDelayMs(i, 'place'));
      // Interleaving response draws does not shift the entry stream.
      const interleaved = Array.from({ length: 20 }, (_, i) => { b.responseDelayMs(i, 'cancel'); return b.entryDelayMs(i, 'cancel'); });
      expect(interleaved).toEqual(entries);
      for (const d of entries) expect(d >= baseMs && (jitterMs === 0 ? d === baseMs : d < baseMs + jitterMs)).toBe(true);
    }), { numRuns: 50 });
    const one = new JitterLatency({ seed: 1, entry: { baseMs: 0, jitterMs: 100 } });
    const two = new JitterLatency({ seed: 2, entry: { baseMs: 0, jitterMs: 100 } });
    expect(one.entryDelayMs(0, 'place')).not.toBe(two.entryDelayMs(0, 'place'));
    expect(() => new JitterLatency({ seed: 0.5, entry: { baseMs: 0, jitterMs: 1 } })).toThrow(/seed/);
    expect(() => new JitterLatency({ seed: 1, entry: { baseMs: 0, jitterMs: -1 } })).toThrow(/entry\.jitterMs/);
  });
});
