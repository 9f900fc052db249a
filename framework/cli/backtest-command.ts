import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runBacktest } from '../../backtest/replay/backtest-runner.js';
import { formatSummary } from '../../backtest/report/console-summary.js';
import { computeMetrics } from '../../backtest/report/metrics.js';
import { createProgress } from '../../backtest/report/progress.js';
import { writeReport } from '../../backtest/report/write-report.js';
import { loadBotConfig } from '../config/bot-config.js';
import { createLogger } from '../log/logger.js';
import { ValidationError } from '../model/errors.js';
import { loadStrategy } from '../runtime/plugin-loader.js';
import type { CliCommand } from './command.js';

/** The shipped sample: 8 minutes of the sandbox's synthetic BTCUSDT/ETHUSDT market. */
export const SAMPLE_RECORDING = new URL('../../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url).pathname;
const DEFAULT_CONFIG = new URL('../../config/market-maker.yaml', import.meta.url).pathname;

/**
 * `tradeloop backtest`: replays recordings through the bot's strategy, risk and execution code
 * against the simulated venue, then writes the report (HTML, CSV, JSON) and prints a summary.
 * Without arguments it backtests the market-maker example on the shipped sample recording.
 */
export const backtestCommand: CliCommand = {
  name: 'backtest',
  usage: 'backtest [--config FILE] [--recording FILE]... [--out DIR] [--seed N] [--latency MS] [--strict] [--quiet]',
  summary: 'replay recordings through a bot on the simulated venue and write an HTML report',
  async run(args) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        config: { type: 'string', default: DEFAULT_CONFIG },
        recording: { type: 'string', multiple: true },
        out: { type: 'string' },
        seed: { type: 'string' },
        latency: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const configFile = path.resolve(values.config);
    const config = loadBotConfig(configFile);
    const recordings = (values.recording ?? [SAMPLE_RECORDING]).map((r) => path.resolve(r));
    for (const file of recordings) if (!existsSync(file)) throw new ValidationError('--recording', 'no such file', file);
    const seed = values.seed === undefined ? config.backtest.seed : integer(values.seed, '--seed');
    const latencyMs = values.latency === undefined ? config.backtest.latencyMs : integer(values.latency, '--latency');
    const outDir = path.resolve(values.out ?? path.join('reports', config.bot.id));
    const { plugin, params } = await loadStrategy(config.strategy.name, config.strategy.params, { baseDir: path.dirname(configFile) });
    const log = createLogger({ level: 'warn', console: values.quiet ? 'off' : 'pretty', consoleStream: process.stderr });
    // Progress in bytes of the recordings on disk, so a gzip stream of unknown length still has an ETA.
    const totalBytes = recordings.reduce((sum, file) => sum + statSync(file).size, 0);
    const progress = createProgress({ enabled: !values.quiet, total: totalBytes, unit: 'bytes' });
    let bytesRead = 0;
    let frames = 0;
    const started = performance.now();
    try {
      if (!values.quiet) console.log(`backtest ${config.strategy.name} on ${config.strategy.symbols.join(', ')} over ${recordings.map((r) => path.basename(r)).join(', ')}`);
      const result = await runBacktest({
        strategyRef: config.strategy.name, plugin, params, symbols: config.strategy.symbols, recordings,
        balances: config.backtest.balances, risk: config.risk, seed, latencyMs, candles: config.strategy.candles,
        candleSlippageBps: config.backtest.candleSlippageBps, errorPolicy: config.strategy.errorPolicy, botId: config.bot.id,
        strictRecordings: values.strict || config.backtest.strictRecordings, backwardsToleranceMs: config.backtest.backwardsToleranceMs,
        logger: log.runtime, progressEvery: 10_000,
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
      await log.close();
    }
  },
};

function integer(text: string, field: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new ValidationError(field, 'must be a non-negative integer', text);
  return n;
}
