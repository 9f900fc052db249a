import { tmpdir } from 'node:os';
import path from 'node:path';
import { backtestOutcome, lockstepPaperOutcome, outcomeDifferences, type RunOutcome } from '../cli/lockstep-comparison.js';
import { loadBotConfig } from '../framework/config/bot-config.js';
import { repoRoot, sharedDataOr } from './support/paths.js';
import { printTable } from './support/report.js';

/** LOCKSTEP_BENCH_RECORDING, else the shared ETHUSDT recording beside the checkout, else the shipped sample. */
const RECORDING = process.env.LOCKSTEP_BENCH_RECORDING ?? sharedDataOr('ethusdt-2024-08-08.v3.jsonl.gz', 'backtest/samples/synthetic-btc-eth.v3.jsonl.gz');
const CONFIG = path.join(repoRoot, 'config', 'market-maker.yaml');
const ROUNDS = 3;
/**
 * Where the lockstep bot's journal goes (LOCKSTEP_BENCH_JOURNAL_DIR, else the temp folder); a paper
 * journal is written without fsync, as `tradeloop paper` writes it.
 */
const JOURNAL_PARENT = process.env.LOCKSTEP_BENCH_JOURNAL_DIR ?? tmpdir();
/** Lockstep events/s as a share of the backtest's. */
const TARGET_SHARE = 0.2;

/**
 * Lockstep paper (the bot over loopback sockets; each control round releases every frame within
 * the minimum entry latency of its first) against a backtest of the same recording, the market-maker example on its first symbol:
 * events/s of each (best of {@link ROUNDS}; the backtest's wall time includes its start-up, the
 * lockstep's counts from the bot trading to the end of the replay), and whether their executions
 * are the same.
 */
export async function run(): Promise<void> {
  const config = loadBotConfig(CONFIG);
  const recordingSymbol = path.basename(RECORDING).startsWith('ethusdt') || RECORDING.includes('synthetic-btc-eth') ? 'ETHUSDT' : config.strategy.symbols[0]!;
  const bot = { ...config, strategy: { ...config.strategy, symbols: [recordingSymbol] } };
  let backtest: RunOutcome | undefined;
  let lockstep: RunOutcome | undefined;
  let bestBacktest = 0;
  let bestLockstep = 0;
  for (let round = 0; round < ROUNDS; round++) {
    backtest = await backtestOutcome(bot, CONFIG, RECORDING);
    bestBacktest = Math.max(bestBacktest, backtest.frames / (backtest.wallMs / 1000));
    lockstep = await lockstepPaperOutcome(bot, CONFIG, RECORDING, undefined, JOURNAL_PARENT);
    bestLockstep = Math.max(bestLockstep, lockstep.frames / ((lockstep.replayMs ?? lockstep.wallMs) / 1000));
  }
  const differences = outcomeDifferences(backtest!, lockstep!);
  const share = bestLockstep / bestBacktest;
  printTable(`lockstep vs backtest (${path.basename(RECORDING)}, market-maker on ${recordingSymbol}; journal under ${JOURNAL_PARENT})`, [
    { run: 'backtest', events: backtest!.frames, fills: backtest!.fills.length, 'events/s': Math.round(bestBacktest) },
    { run: 'lockstep paper', events: lockstep!.frames, fills: lockstep!.fills.length, 'events/s': Math.round(bestLockstep) },
  ]);
  console.log(`lockstep at ${(share * 100).toFixed(1)}% of the backtest's events/s (target >= ${TARGET_SHARE * 100}%), ${lockstep!.rounds ?? 0} control rounds; executions ${differences.length === 0 ? 'identical' : `differ (${differences.length})`}`);
  if (differences.length > 0) throw new Error(`lockstep and backtest differ: ${differences.slice(0, 3).join('; ')}`);
}
