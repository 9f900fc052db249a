import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSweepSpec, parseSweepSpec, SAMPLE_RECORDING } from '../../../backtest/sweep/sweep-file.js';
import { ValidationError } from '../../../framework/model/errors.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const GOOD = { config: './bot.yaml', grid: { halfSpreadBps: ['2', '4'] } };

function fieldOf(raw: unknown): string {
  try {
    parseSweepSpec(raw, '/sweeps');
  } catch (error) {
    if (error instanceof ValidationError) return error.field;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseSweepSpec', () => {
  it('resolves paths against the sweep file folder and fills defaults', () => {
    const spec = parseSweepSpec({ ...GOOD, recordings: ['../data/r.jsonl.gz'] }, '/sweeps');
    expect(spec).toEqual({ config: '/sweeps/bot.yaml', recordings: ['/data/r.jsonl.gz'], grid: GOOD.grid, rankBy: 'pnlQuote' });
    expect(parseSweepSpec(GOOD, '/sweeps').recordings).toEqual([SAMPLE_RECORDING]);
    expect(parseSweepSpec({ ...GOOD, rankBy: 'sharpe', seed: 7 }, '/x')).toMatchObject({ rankBy: 'sharpe', seed: 7 });
  });

  it('names the bad field', () => {
    expect(fieldOf([])).toBe('sweep');
    expect(fieldOf({ grid: GOOD.grid })).toBe('config');
    expect(fieldOf({ ...GOOD, recordings: [] })).toBe('recordings');
    expect(fieldOf({ ...GOOD, recordings: ['a', 3] })).toBe('recordings[1]');
    expect(fieldOf({ ...GOOD, seed: -1 })).toBe('seed');
    expect(fieldOf({ ...GOOD, grid: { skewBps: [] } })).toBe('grid.skewBps');
    expect(fieldOf({ ...GOOD, gird: {} })).toBe('gird');
  });

  it('accepts only numeric metric names for rankBy', () => {
    expect(fieldOf({ ...GOOD, rankBy: 'netPnlQuote' })).toBe('rankBy');
    expect(fieldOf({ ...GOOD, rankBy: 'quoteCurrency' })).toBe('rankBy');
    expect(fieldOf({ ...GOOD, rankBy: 'pnlByCurrency' })).toBe('rankBy');
  });
});

describe('loadSweepSpec', () => {
  it('reads the shipped market-maker sweep', () => {
    const spec = loadSweepSpec(path.join(repo, 'config', 'market-maker.sweep.yaml'));
    expect(spec.config).toBe(path.join(repo, 'config', 'market-maker.yaml'));
    expect(spec.recordings).toEqual([SAMPLE_RECORDING]);
    expect(Object.keys(spec.grid)).toEqual(['halfSpreadBps', 'skewBps']);
  });

  it('names a missing file under `sweep`', () => {
    expect(() => loadSweepSpec('/no/such/file.sweep.yaml')).toThrow(/^sweep: no such file/);
  });
});
