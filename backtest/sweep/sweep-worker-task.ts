import path from 'node:path';
import { loadBotConfig, type BotConfig } from '../../framework/config/bot-config.js';
import { loadStrategy } from '../../framework/runtime/plugin-loader.js';
import { runBacktest } from '../replay/backtest-runner.js';
import { computeMetrics } from '../report/metrics.js';
import type { Combination } from './sweep-grid.js';
import { plainMetrics, type SweepRow } from './sweep-metrics.js';

/**
 * One combination to run, as plain data: workers get the config's path and the parameter
 * override, never functions, and load the plugin themselves.
 */
export interface SweepTask {
  readonly index: number;
  /** Absolute path of the bot config. */
  readonly configFile: string;
  readonly recordings: readonly string[];
  /** Layered over the config's `strategy.params`. */
  readonly params: Combination;
  /** Overrides the config's `backtest.seed`. */
  readonly seed?: number;
}

// A worker runs many combinations of one config: read and validate it once per thread.
const configs = new Map<string, BotConfig>();

/**
 * Runs one combination's backtest (the same options `tradeloop backtest` builds from a config)
 * and returns its row: plain numbers and strings, cheap to pass back to the main thread.
 */
export default async function runSweepTask(task: SweepTask): Promise<SweepRow> {
  let config = configs.get(task.configFile);
  if (config === undefined) {
    config = loadBotConfig(task.configFile);
    configs.set(task.configFile, config);
  }
  const { plugin, params } = await loadStrategy(config.strategy.name, { ...config.strategy.params, ...task.params }, { baseDir: path.dirname(task.configFile) });
  const result = await runBacktest({
    strategyRef: config.strategy.name, plugin, params, symbols: config.strategy.symbols, recordings: task.recordings,
    balances: config.backtest.balances, risk: config.risk, seed: task.seed ?? config.backtest.seed, latency: config.backtest.latency,
    candles: config.strategy.candles, candleSlippageBps: config.backtest.candleSlippageBps, errorPolicy: config.strategy.errorPolicy,
    botId: config.bot.id, strictRecordings: config.backtest.strictRecordings, backwardsToleranceMs: config.backtest.backwardsToleranceMs,
    account: config.bot.account === 'margin' ? undefined : config.bot.account, leverage: config.bot.leverage, queueModel: config.backtest.queueModel,
  });
  return { index: task.index, params: task.params, events: result.meta.events, metrics: plainMetrics(computeMetrics(result)) };
}
