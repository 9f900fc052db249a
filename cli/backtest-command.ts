import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Option } from 'commander';
import { SAMPLE_RECORDING } from '../backtest/recording/sample-recording.js';
import { runBacktest } from '../backtest/replay/backtest-runner.js';
import { formatSummary } from '../backtest/report/console-summary.js';
import { computeMetrics } from '../backtest/report/metrics.js';
import { createProgress } from '../backtest/report/progress.js';
import { writeReport } from '../backtest/report/write-report.js';
import { parseLatencySpec } from '../framework/config/latency-spec.js';
import { loadBotConfig } from '../framework/config/bot-config.js';
import { createLogger } from '../framework/log/logger.js';
import { ValidationError } from '../framework/model/errors.js';
import { checkWritableDir } from './check-writable.js';
import { examples, type CliCommand } from './command.js';
import { loadConfiguredStrategy } from './load-configured-strategy.js';
import { collect, integerAtLeast } from './option-parsers.js';
import { tuneHeapForReplay } from './replay-heap.js';
import { packageFile } from '../framework/package-root.js';

const DEFAULT_CONFIG = packageFile('config', 'market-maker.yaml');

interface BacktestOptions {
  readonly config: string;
  readonly recording?: readonly string[];
  readonly out?: string;
  readonly seed?: number;
  readonly latency?: string;
  readonly quiet: boolean;
  readonly strict: boolean;
}

/**
 * `tradeloop backtest`: replays recordings through the bot's strategy, risk and execution code
 * against the simulated venue, then writes the report (HTML, CSV, JSON) and prints a summary.
 * Without arguments it backtests the market-maker example on the shipped sample recording.
 */
export const backtestCommand: CliCommand<BacktestOptions> = {
  name: 'backtest',
  define(command) {
    command
      .description('Replay recordings through a bot\'s strategy, risk and execution on the simulated venue, then write an HTML/CSV/JSON report and print a summary.')
      .addOption(new Option('--config <file>', 'bot config YAML').default(DEFAULT_CONFIG, 'config/market-maker.yaml'))
      .option('--recording <file>', 'recording to replay (repeatable; default: the shipped sample)', collect)
      .option('--out <dir>', 'report folder (default: reports/<bot id>)')
      .option('--seed <n>', 'random seed of the simulated venue (default: from the config)', integerAtLeast(0))
      .option('--latency <spec>', 'order latency: ms (0.25), in/back ms (0.2/0.35) or a recorded *.jsonl (default: backtest.latency)')
      .option('--quiet', 'no progress bar, no summary', false)
      .option('--strict', 'refuse a damaged recording (cut or corrupt gzip, bad lines, time going back) instead of replaying what is readable', false)
      .addHelpText('after', examples(
        'tradeloop backtest',
        'tradeloop backtest --config my-bot.yaml --recording day1.jsonl.gz --recording day2.jsonl.gz',
        'tradeloop backtest --config my-bot.yaml --out reports/try-2 --seed 7 --latency 0.2/0.35',
        'tradeloop backtest --config my-bot.yaml --recording capture.jsonl.gz --strict',
      ));
  },
  async run(values) {
    const configFile = path.resolve(values.config);
    const config = loadBotConfig(configFile);
    const recordings = (values.recording ?? [SAMPLE_RECORDING]).map((r) => path.resolve(r));
    for (const file of recordings) {
      if (!existsSync(file)) throw new ValidationError('--recording', 'no such file', file);
      if (statSync(file).isDirectory()) throw new ValidationError('--recording', 'is a folder, not a file', file);
    }
    const seed = values.seed ?? config.backtest.seed;
    const latency = values.latency === undefined ? config.backtest.latency : parseLatencySpec(values.latency, '--latency', process.cwd());
    const outDir = path.resolve(values.out ?? path.join('reports', config.bot.id));
    checkWritableDir(outDir, '--out');
    const { plugin, params } = await loadConfiguredStrategy(config, configFile);
    const log = createLogger({ level: 'warn', console: values.quiet ? 'off' : 'pretty', consoleStream: process.stderr });
    // Progress in bytes of the recordings on disk, so a gzip stream of unknown length still has an ETA.
    const totalBytes = recordings.reduce((sum, file) => sum + statSync(file).size, 0);
    if (!values.quiet) console.log(`backtest ${config.strategy.name} on ${config.strategy.symbols.join(', ')} over ${recordings.map((r) => path.basename(r)).join(', ')}`);
    const progress = createProgress({ enabled: !values.quiet, total: totalBytes, unit: 'bytes' });
    let bytesRead = 0;
    let frames = 0;
    const untuneHeap = tuneHeapForReplay();
    const started = performance.now();
    try {
      const result = await runBacktest({
        strategyRef: config.strategy.name, plugin, params, symbols: config.strategy.symbols, recordings, account: config.bot.account, leverage: config.bot.leverage, queueModel: config.backtest.queueModel,
        balances: config.backtest.balances, risk: config.risk, seed, latency, candles: config.strategy.candles,
        candleSlippageBps: config.backtest.candleSlippageBps, errorPolicy: config.strategy.errorPolicy, botId: config.bot.id,
        strictRecordings: values.strict || config.backtest.strictRecordings, backwardsToleranceMs: config.backtest.backwardsToleranceMs,
        logger: log.runtime, progressEvery: 10_000, reportDir: outDir,
        onBytesRead: (bytes) => (bytesRead += bytes),
        onProgress: (count) => {
          frames = count;
          progress.update(bytesRead, { rate: frames / ((performance.now() - started) / 1000) });
        },
      });
      progress.stop();
      const metrics = computeMetrics(result);
      const written = await writeReport(result, outDir, metrics);
      if (!values.quiet) {
        console.log(formatSummary(result, metrics));
        const seconds = (result.meta.wallMs / 1000).toFixed(1);
        console.log(`\n${result.meta.events} events in ${seconds} s; report: ${written.html}`);
      }
      return 0;
    } finally {
      progress.stop();
      untuneHeap();
      await log.close();
    }
  },
};
