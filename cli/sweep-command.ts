import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Option } from 'commander';
import { createProgress } from '../backtest/report/progress.js';
import { runSweep } from '../backtest/sweep/run-sweep.js';
import { loadSweepSpec } from '../backtest/sweep/sweep-file.js';
import { countCombinations } from '../backtest/sweep/sweep-grid.js';
import { formatSweepTable, writeSweepCsv } from '../backtest/sweep/sweep-output.js';
import { checkWritableDir } from './check-writable.js';
import { examples, type CliCommand } from './command.js';
import { integerAtLeast } from './option-parsers.js';
import { packageFile } from '../framework/package-root.js';

const DEFAULT_SWEEP = packageFile('config', 'market-maker.sweep.yaml');

interface SweepOptions {
  readonly sweep: string;
  readonly out?: string;
  readonly workers?: number;
  readonly quiet: boolean;
}

/**
 * `tradeloop sweep`: backtests every combination of a sweep file's parameter grid on worker
 * threads, writes `<out>/sweep.csv` and prints the best combinations.
 */
export const sweepCommand: CliCommand<SweepOptions> = {
  name: 'sweep',
  define(command) {
    command
      .description('Backtest every combination of a sweep file\'s parameter grid on worker threads, write <out>/sweep.csv and print the best combinations.')
      .addOption(new Option('--sweep <file>', 'sweep YAML (config, recordings, grid)').default(DEFAULT_SWEEP, 'config/market-maker.sweep.yaml'))
      .option('--out <dir>', 'results folder (default: reports/sweep-<name>)')
      .option('--workers <n>', 'worker threads (default: one per core)', integerAtLeast(1))
      .option('--quiet', 'no progress bar, no table', false)
      .addHelpText('after', examples('tradeloop sweep', 'tradeloop sweep --sweep my-bot.sweep.yaml --workers 2 --out reports/grid-1'));
  },
  async run(values) {
    const sweepFile = path.resolve(values.sweep);
    const spec = loadSweepSpec(sweepFile);
    const workers = values.workers;
    const outDir = path.resolve(values.out ?? path.join('reports', `sweep-${path.basename(sweepFile).replace(/(\.sweep)?\.ya?ml$/, '')}`));
    checkWritableDir(outDir, '--out');
    const total = countCombinations(spec.grid);
    if (!values.quiet) console.log(`sweep ${total} combination${total === 1 ? '' : 's'} of ${Object.keys(spec.grid).join(', ')} over ${spec.recordings.map((r) => path.basename(r)).join(', ')}`);
    const progress = createProgress({ enabled: !values.quiet, total });
    const started = performance.now();
    try {
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

