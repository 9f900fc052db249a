import path from 'node:path';
import { formatComparison, writeComparison } from '../backtest/compare/comparison-report.js';
import { compareRuns } from '../backtest/compare/run-comparison.js';
import { readRunFolder } from '../backtest/compare/run-folder.js';
import { checkWritableDir } from './check-writable.js';
import { examples, type CliCommand } from './command.js';
import { integerAtLeast } from './option-parsers.js';

interface CompareOptions {
  readonly out: string;
  readonly tolerance: number;
  readonly window: number;
}

/**
 * `tradeloop compare A B`: aligns the fills of two output folders (backtest, paper or live runs of
 * one strategy, A the reference) fill by fill, prints the share of identical fills, the PnL
 * difference, the first divergence and the divergences by cause, and writes comparison.csv and
 * comparison.html.
 */
export const compareCommand: CliCommand<CompareOptions> = {
  name: 'compare',
  define(command) {
    command
      .description('Compare two runs of one strategy (output folders of backtest, paper or live --out) fill by fill: share of identical fills, PnL difference, first divergence, and the cause of every divergent fill (different or late frame, latency, queue position, price, missing). Writes comparison.csv and comparison.html.')
      .argument('<a>', 'reference run\'s output folder')
      .argument('<b>', 'other run\'s output folder')
      .option('--out <dir>', 'folder for comparison.csv and comparison.html', path.join('reports', 'compare'))
      .option('--tolerance <ms>', 'largest difference of two fill times still taken as equal', integerAtLeast(0), 0)
      .option('--window <ms>', 'widest gap between fills paired by time when no order or intent id pairs them', integerAtLeast(0), 5000)
      .addHelpText('after', examples(
        'tradeloop compare reports/backtest-day1 reports/paper-day1',
        'tradeloop compare reports/try-1 reports/try-2 --out reports/try-1-vs-2',
        'tradeloop compare reports/backtest reports/paper --tolerance 5 --window 2000',
      ));
  },
  async run(values, args) {
    const [first, second] = args;
    const a = readRunFolder(first!, 'A');
    const b = readRunFolder(second!, 'B');
    const outDir = path.resolve(values.out);
    checkWritableDir(outDir, '--out');
    const comparison = compareRuns(a, b, { toleranceMs: values.tolerance, windowMs: values.window });
    const written = await writeComparison(comparison, outDir);
    console.log(formatComparison(comparison));
    console.log(`\ncomparison: ${written.html}\n            ${written.csv}`);
    return 0;
  },
};
