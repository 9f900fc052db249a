import path from 'node:path';
import { parseArgs } from 'node:util';
import { backtestOutcome, lockstepPaperOutcome, outcomeDifferences } from '../cli/lockstep-comparison.js';
import { loadBotConfig, type BotConfig } from '../framework/config/bot-config.js';
import { parseLatencySpec } from '../framework/config/latency-spec.js';
import { packageFile } from '../framework/package-root.js';

/**
 * Lockstep paper against a backtest on a whole recording, fill by fill:
 *
 *   node --import tsx --conditions=tradeloop-source bench/lockstep-compare.ts RECORDING
 *     [--config FILE]... [--symbol SYMBOL] [--latency SPEC]
 *
 * Runs each config (default: the three examples, config/{market-maker,bracket,ma-crossover}.yaml)
 * as a backtest and as a lockstep paper run on RECORDING with the same latency (SPEC as
 * `--latency` of the backtest command: `20`, `5/10`, or JSON such as `{"entryMs":5,"jitterMs":20}`;
 * default: each config's backtest.latency), `--symbol` replacing the configs' symbols (a recording
 * of another market). Prints each run's fills, final balances and events/s, then the differences;
 * exits 1 when any run differs.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { config: { type: 'string', multiple: true }, symbol: { type: 'string' }, latency: { type: 'string' } },
});
const recording = positionals[0];
if (recording === undefined) {
  console.error('usage: lockstep-compare.ts RECORDING [--config FILE]... [--symbol SYMBOL] [--latency SPEC]');
  process.exit(2);
}
const configs = values.config ?? ['market-maker', 'bracket', 'ma-crossover'].map((name) => packageFile('config', `${name}.yaml`));
const latency = values.latency === undefined ? undefined : parseLatencySpec(latencyValue(values.latency), '--latency', process.cwd());

let differing = 0;
for (const file of configs) {
  const loaded = loadBotConfig(path.resolve(file));
  const config: BotConfig = values.symbol === undefined ? loaded : { ...loaded, strategy: { ...loaded.strategy, symbols: [values.symbol] } };
  const backtest = await backtestOutcome(config, file, path.resolve(recording), latency);
  const paper = await lockstepPaperOutcome(config, file, path.resolve(recording), latency);
  const differences = outcomeDifferences(backtest, paper);
  if (differences.length > 0) differing++;
  const rate = (frames: number, ms: number): string => `${Math.round(frames / (ms / 1000)).toLocaleString('en-US')} events/s`;
  console.log(`${path.basename(file)} on ${config.strategy.symbols.join(',')}: ${differences.length === 0 ? 'IDENTICAL' : `${differences.length} DIFFERENCE(S)`}`);
  console.log(`  backtest: ${backtest.fills.length} fills, final ${JSON.stringify(backtest.finalBalances)}, ${backtest.frames} events in ${backtest.wallMs} ms (${rate(backtest.frames, backtest.wallMs)})`);
  console.log(`  lockstep: ${paper.fills.length} fills, final ${JSON.stringify(paper.finalBalances)}, ${paper.frames} events in ${paper.wallMs} ms (${rate(paper.frames, paper.wallMs)}, start-up included)`);
  for (const line of differences.slice(0, 20)) console.log(`  ${line}`);
  if (differences.length > 20) console.log(`  ... ${differences.length - 20} more`);
}
process.exitCode = differing === 0 ? 0 : 1;

/** A number, `a/b`, or a JSON mapping, as the backtest command's --latency takes them. */
function latencyValue(text: string): unknown {
  if (text.trim().startsWith('{')) return JSON.parse(text) as unknown;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}
