import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSweep } from '../../../backtest/sweep/run-sweep.js';
import { SAMPLE_RECORDING, type SweepSpec } from '../../../backtest/sweep/sweep-file.js';
import { formatSweepTable, sweepCsv, writeSweepCsv } from '../../../backtest/sweep/sweep-output.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
let dir = '';
let spec: SweepSpec;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tradeloop-sweep-'));
  // The first ~2 minutes of the sample keep each backtest well under a second.
  const lines = gunzipSync(await readFile(SAMPLE_RECORDING)).toString('utf8').split('\n').slice(0, 6000);
  const recording = path.join(dir, 'short.v3.jsonl.gz');
  await writeFile(recording, gzipSync(lines.join('\n') + '\n'));
  spec = { config: path.join(repo, 'config', 'market-maker.yaml'), recordings: [recording], grid: { halfSpreadBps: ['2', '8'] }, rankBy: 'pnlQuote', seed: 1 };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('runSweep on worker threads', () => {
  it('runs each combination in a TypeScript worker and gives the same CSV on 1 and on 2 workers', async () => {
    const progress: number[] = [];
    const one = await runSweep({ spec, workers: 1, onProgress: (done) => progress.push(done) });
    const two = await runSweep({ spec, workers: 2 });
    expect([one.workers, two.workers]).toEqual([1, 2]);
    expect(progress).toEqual([1, 2]);
    expect(one.rows.map((r) => r.index).sort()).toEqual([0, 1]);
    for (const row of one.rows) {
      expect(row.events).toBeGreaterThan(1000);
      expect(Number(row.metrics.orders)).toBeGreaterThan(0);
    }
    // Different spreads trade differently: the runs really took their own parameters.
    expect(one.rows[0]!.metrics.fills).not.toBe(one.rows[1]!.metrics.fills);
    expect(Number(one.rows[0]!.metrics.pnlQuote)).toBeGreaterThanOrEqual(Number(one.rows[1]!.metrics.pnlQuote));
    expect(sweepCsv(two)).toBe(sweepCsv(one));

    const file = await writeSweepCsv(one, path.join(dir, 'out'));
    const lines = (await readFile(file, 'utf8')).split('\r\n');
    expect(lines[0]).toMatch(/^rank,combination,halfSpreadBps,events,pnlQuote,/);
    expect(lines).toHaveLength(4); // header, two rows, trailing line end
    expect(formatSweepTable(one)).toMatch(/^ranked by pnlQuote\n# {2}halfSpreadBps +pnlQuote/);
  }, 60_000);

  it('refuses a bad grid before starting any worker', async () => {
    await expect(runSweep({ spec: { ...spec, grid: { halfSpred: ['2'] } } })).rejects.toThrow(/^grid\.halfSpred: is not a parameter/);
  });

  it('names the combination when a run fails in a worker', async () => {
    const missing = { ...spec, recordings: [path.join(dir, 'missing.jsonl')] };
    await expect(runSweep({ spec: missing, workers: 1 })).rejects.toThrow(/sweep combination 0 \(halfSpreadBps=2\) failed: .*(ENOENT|no such file)/);
  }, 30_000);
});
