import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InterpolatedLatency, latencyModelOf, readLatencySeries } from '../../../../backtest/venue/matching/recorded-latency.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-latency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('InterpolatedLatency', () => {
  const model = new InterpolatedLatency([
    { t: 2000, entryMs: 3, responseMs: 1 },
    { t: 1000, entryMs: 1, responseMs: 5 },
  ]);

  it('interpolates each leg linearly in time between samples, and holds the ends', () => {
    expect(model.entryDelayMs(1500, 'place')).toBe(2);
    expect(model.responseDelayMs(1250, 'place')).toBe(4);
    expect(model.entryDelayMs(0, 'cancel')).toBe(1);
    expect(model.entryDelayMs(9999, 'cancel')).toBe(3);
    // Asked out of time order too (the cursor moves back).
    expect(model.entryDelayMs(1100, 'place')).toBeCloseTo(1.2, 12);
  });

  it('stays between the neighbouring samples for any time (property)', () => {
    const samples = fc.array(fc.record({ t: fc.integer({ min: 0, max: 10_000 }), entryMs: fc.double({ min: 0, max: 100, noNaN: true }), responseMs: fc.double({ min: 0, max: 100, noNaN: true }) }), { minLength: 1, maxLength: 20 });
    fc.assert(fc.property(samples, fc.array(fc.integer({ min: -100, max: 10_100 }), { minLength: 1, maxLength: 20 }), (series, times) => {
      const m = new InterpolatedLatency(series);
      const sorted = [...series].sort((a, b) => a.t - b.t);
      for (const now of times) {
        const delay = m.entryDelayMs(now, 'place');
        const before = [...sorted].reverse().find((s) => s.t <= now) ?? sorted[0]!;
        const after = sorted.find((s) => s.t >= now) ?? sorted[sorted.length - 1]!;
        const low = Math.min(before.entryMs, after.entryMs);
        const high = Math.max(before.entryMs, after.entryMs);
        // Samples at the same time: any of their values is a neighbour.
        const same = sorted.filter((s) => s.t === now).map((s) => s.entryMs);
        if (same.length > 0 ? !same.includes(delay) && !(delay >= low - 1e-9 && delay <= high + 1e-9) : !(delay >= low - 1e-9 && delay <= high + 1e-9)) return false;
      }
      return true;
    }));
  });
});

describe('readLatencySeries', () => {
  it('reads a bot\'s latency file and feeds a model from a spec', () => {
    const file = path.join(dir, 'bot.latency.jsonl');
    writeFileSync(file, '{"t":1000,"entryMs":0.4,"responseMs":0.6}\n\n{"t":2000,"entryMs":0.8,"responseMs":0.2}\n');
    expect(readLatencySeries(file)).toHaveLength(2);
    expect(latencyModelOf({ kind: 'recorded', file }, 1).entryDelayMs(1500, 'place')).toBeCloseTo(0.6, 12);
  });

  it('refuses a bad line with the file and the line, and an empty file', () => {
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"t":1000,"entryMs":0.4,"responseMs":0.6}\n{"t":2000,"entryMs":-1,"responseMs":0.2}\n');
    expect(() => readLatencySeries(bad)).toThrow(/line 2: entryMs must be a number of milliseconds >= 0.*bad\.jsonl:2/);
    const empty = path.join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n');
    expect(() => readLatencySeries(empty)).toThrow(/holds no sample/);
    expect(() => readLatencySeries(path.join(dir, 'missing.jsonl'))).toThrow(/cannot be read: ENOENT/);
  });
});
