import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createProgress } from '../../backtest/report/progress.js';
import { runSweep } from '../../backtest/sweep/run-sweep.js';
import { loadSweepSpec } from '../../backtest/sweep/sweep-file.js';
import { countCombinations } from '../../backtest/sweep/sweep-grid.js';
import { formatSweepTable, writeSweepCsv } from '../../backtest/sweep/sweep-output.js';
import { ValidationError } from '../model/errors.js';
import type { CliCommand } from './command.js';

const DEFAULT_SWEEP = new URL('../../config/market-maker.sweep.yaml', import.meta.url).pathname;

/**
 * `tradeloop sweep`: backtests every combination of a sweep file's parameter grid on worker
 * threads, writes `<out>/sweep.csv` and prints the best combinations.
 */
export const sweepCommand: CliCommand = {
  name: 'sweep',
  usage: 'sweep [--sweep FILE] [--out DIR] [--workers N] [--quiet]',
  summary: 'backtest a grid of strategy parameters on all cores and rank the combinations',
  async run(args) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        sweep: { type: 'string', default: DEFAULT_SWEEP },
        out: { type: 'string' },
        workers: { type: 'string' },
        quiet: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const sweepFile = path.resolve(values.sweep);
    const spec = loadSweepSpec(sweepFile);
    const workers = values.workers === undefined ? undefined : positive(values.workers, '--workers');
    const outDir = path.resolve(values.out ?? path.join('reports', `sweep-${path.basename(sweepFile).replace(/(\.sweep)?\.ya?ml$/, '')}`));
    const total = countCombinations(spec.grid);
    const progress = createProgress({ enabled: !values.quiet, total });
    const started = performance.now();
    try {
      if (!values.quiet) console.log(`sweep ${total} combination${total === 1 ? '' : 's'} of ${Object.keys(spec.grid).join(', ')} over ${spec.recordings.map((r) => path.basename(r)).join(', ')}`);
      const report = await runSweep({
        spec, ...(workers === undefined ? {} : { workers }),
        onProgress: (done) => progress.update(done, { rate: done / ((performance.now() - started) / 1000) }),
      });
      progress.stop();
      const csv = await writeSweepCsv(report, outDir);
      if (!values.quiet) {
        console.log(formatSweepTable(report, 20));
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(`\n${report.rows.length} backtests on ${report.workers} worker thread${report.workers === 1 ? '' : 's'} in ${seconds} s; results: ${csv}`);
      }
      return 0;
    } finally {
      progress.stop();
    }
  },
};

function positive(text: string, field: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new ValidationError(field, 'must be a positive integer', text);
  return n;
}
