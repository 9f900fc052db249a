import path from 'node:path';
import { readHeaders } from '../backtest/replay/merge-recordings.js';
import { runBacktest } from '../backtest/replay/backtest-runner.js';
import type { BacktestResult } from '../backtest/report/backtest-result.js';
import { loadBotConfig } from '../framework/config/bot-config.js';
import { loadStrategy } from '../framework/runtime/plugin-loader.js';
import { repoRoot } from './support/paths.js';

/** The market-maker example config whose parameters the replay benchmark trades with. */
export const MARKET_MAKER_CONFIG = path.join(repoRoot, 'config', 'market-maker.yaml');

/**
 * Backtests the market-maker example (its config's params, risk and balances) on `recording`,
 * trading the config's symbols the recording describes, or else the recording's first symbol.
 */
export async function backtestMarketMaker(recording: string): Promise<BacktestResult> {
  const config = loadBotConfig(MARKET_MAKER_CONFIG);
  const described = new Set((await readHeaders([recording])).flatMap((h) => Object.keys(h.symbols)));
  const wanted = config.strategy.symbols.filter((s) => described.has(s));
  const symbols = wanted.length > 0 ? wanted : [...described].slice(0, 1);
  const { plugin, params } = await loadStrategy(config.strategy.name, config.strategy.params, { baseDir: path.dirname(MARKET_MAKER_CONFIG) });
  return runBacktest({
    strategyRef: config.strategy.name, plugin, params, symbols, recordings: [recording],
    balances: config.backtest.balances, risk: config.risk, seed: config.backtest.seed, latency: config.backtest.latency,
    errorPolicy: config.strategy.errorPolicy, botId: config.bot.id,
  });
}
