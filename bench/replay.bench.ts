import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readLines } from '../backtest/recording/recording-reader.js';
import { mergeFrameBatches } from '../backtest/recording/frame-batches.js';
import { backtestMarketMaker } from './replay-backtest.js';
import { writeRepeated } from './replay-repeat.js';
import { repoRoot, sharedData } from './support/paths.js';
import { printTable } from './support/report.js';

const RECORDING_NAME = 'ethusdt-2024-08-08.v3.jsonl.gz';
const CHILD = path.join(repoRoot, 'bench', 'replay-child.ts');
const REPEATS = 10;
/** Backtests of the recording after the first one; the best is the warm figure. */
const WARM_ROUNDS = 7;
const TARGET_RATIO = 0.8;
const MIB = 1024 * 1024;

/**
 * Replay throughput on real ETHUSDT depth diffs and trades, in one run: (a) the floor, reading,
 * gunzipping and JSON.parse-ing every line; (a') the batched recording reader with frame validation,
 * as the runner reads it; (b) a whole `runBacktest` of the market-maker example (events/s), its
 * first run in the process (cold JIT) and the best of the next few (warm); the ratio b/a says how
 * much of the budget the simulation costs (target >= 0.8). Both again on the
 * recording repeated 10 times, where fixed costs and warm-up fade. Then the memory of a backtest
 * in a child process (its own peak RSS, and the heap left after a full GC), on the recording and
 * on it x10: peak RSS growing while the retained heap stays flat is garbage, not a leak. Timings
 * are the best of a few rounds.
 */
export async function run(): Promise<void> {
  const recording = sharedData(RECORDING_NAME);
  if (recording === undefined) {
    console.log(`skipped: shared/data/${RECORDING_NAME} is absent (the replay benchmark needs the shared ETHUSDT recording)`);
    return;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'tradeloop-replay-bench-'));
  try {
    const repeated = path.join(dir, `ethusdt-x${REPEATS}.v3.jsonl.gz`);
    await writeRepeated(recording, REPEATS, repeated);
    const bare = await best(3, () => bareRead(recording));
    const merged = await best(3, async () => {
      let events = 0;
      for await (const batch of mergeFrameBatches([recording])) for (const frame of batch) if (frame.src === 'ws/public') events++;
      return events;
    });
    let fills = 0;
    const backtestOnce = async (): Promise<number> => {
      const result = await backtestMarketMaker(recording);
      fills = result.fills.length;
      return result.meta.events;
    };
    // The first run in a process pays for compiling: V8 keeps optimising the order path's many
    // small functions over the first ~100k events (one recording is 21k). Both figures are shown.
    const cold = await best(1, backtestOnce);
    const backtest = await best(WARM_ROUNDS, backtestOnce);
    // Ten copies amortise the fixed costs (config, plugin, channel scan) and the JIT's warm-up.
    const bareLong = await best(2, () => bareRead(repeated));
    const backtestLong = await best(1, async () => (await backtestMarketMaker(repeated)).meta.events);
    const ratio = backtest.rate / bare.rate;
    const coldRatio = cold.rate / bare.rate;
    const ratioLong = backtestLong.rate / bareLong.rate;
    printTable('replay throughput (ethusdt-2024-08-08)', [
      { stage: '(a) read + gunzip + JSON.parse', events: bare.events, seconds: bare.seconds, 'events/s': bare.rate, 'vs bare read': 1 },
      { stage: "(a') batched reader + merge (as the runner)", events: merged.events, seconds: merged.seconds, 'events/s': merged.rate, 'vs bare read': merged.rate / bare.rate },
      { stage: '(b) runBacktest market-maker, first run (cold JIT)', events: cold.events, seconds: cold.seconds, 'events/s': cold.rate, 'vs bare read': coldRatio },
      { stage: `(b) runBacktest market-maker, best of ${WARM_ROUNDS} more (${fills} fills)`, events: backtest.events, seconds: backtest.seconds, 'events/s': backtest.rate, 'vs bare read': ratio },
      { stage: `(a) on the recording x${REPEATS}`, events: bareLong.events, seconds: bareLong.seconds, 'events/s': bareLong.rate, 'vs bare read': 1 },
      { stage: `(b) on the recording x${REPEATS}`, events: backtestLong.events, seconds: backtestLong.seconds, 'events/s': backtestLong.rate, 'vs bare read': ratioLong },
    ]);
    const verdict = (r: number): string => `${r.toFixed(3)} (${r >= TARGET_RATIO ? 'meets' : 'below'} the ${TARGET_RATIO} target)`;
    console.log(`ratio (b)/(a): ${verdict(ratio)} on the recording (warm; ${coldRatio.toFixed(3)} on the first, cold run), ${verdict(ratioLong)} on it x${REPEATS}`);

    const rows = [];
    for (const [name, file] of [['recording x1', recording], [`recording x${REPEATS}`, repeated]] as const) {
      const child = await backtestInChild(file);
      rows.push({
        run: name, events: child.events, orders: child.orders, fills: child.fills, 'wall s': child.wallMs / 1000,
        'events/s': child.events / (child.wallMs / 1000), 'peak RSS MiB': child.maxRssKiB / 1024,
        'heap after GC MiB': child.retainedBytes === undefined ? '-' : child.retainedBytes / MIB,
      });
    }
    printTable('backtest memory (own child process: peak RSS from process.resourceUsage().maxRSS; heap in use after a full GC with the result alive)', rows);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The floor of any replay: lines read, gunzipped and parsed, nothing else. */
async function bareRead(file: string): Promise<number> {
  let events = -1; // the header line is not an event
  for await (const line of readLines(file)) {
    if (line.length === 0) continue;
    JSON.parse(line);
    events++;
  }
  return events;
}

interface ChildFigures { events: number; fills: number; orders: number; wallMs: number; maxRssKiB: number; retainedBytes?: number }

async function backtestInChild(recording: string): Promise<ChildFigures> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--conditions=tradeloop-source', '--import', 'tsx', CHILD, recording], { cwd: repoRoot, maxBuffer: 1 << 20 });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as ChildFigures;
}

async function best(rounds: number, once: () => Promise<number>): Promise<{ events: number; seconds: number; rate: number }> {
  let top = { events: 0, seconds: Infinity, rate: 0 };
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const events = await once();
    const seconds = (performance.now() - started) / 1000;
    if (seconds < top.seconds) top = { events, seconds, rate: events / seconds };
  }
  return top;
}
