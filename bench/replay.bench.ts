import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readLines } from '../backtest/recording/recording-reader.js';
import { mergeRecordings } from '../backtest/replay/merge-recordings.js';
import { backtestMarketMaker } from './replay-backtest.js';
import { writeRepeated } from './replay-repeat.js';
import { repoRoot } from './support/paths.js';
import { printTable } from './support/report.js';

const RECORDING = path.resolve(repoRoot, '..', 'shared', 'data', 'ethusdt-2024-08-08.v3.jsonl.gz');
const CHILD = path.join(repoRoot, 'bench', 'replay-child.ts');
const REPEATS = 10;
const TARGET_RATIO = 0.5;

/**
 * Replay throughput on real ETHUSDT depth diffs and trades, in one run: (a) the floor, reading,
 * gunzipping and JSON.parse-ing every line; (a') the recording reader with frame validation, as
 * the runner merges it; (b) a whole `runBacktest` of the market-maker example (events/s); the
 * ratio b/a says how much of the budget the simulation costs (target >= 0.5). Then the peak RSS of
 * a backtest in a child process, on the recording and on it repeated 10 times, which tells
 * whether memory grows with the length of the replay. Best of a few rounds for the timings.
 */
export async function run(): Promise<void> {
  if (!existsSync(RECORDING)) {
    console.log(`skipped: ${RECORDING} is absent (the replay benchmark needs the shared ETHUSDT recording)`);
    return;
  }
  const bare = await best(3, async () => {
    let events = -1; // the header line is not an event
    for await (const line of readLines(RECORDING)) {
      if (line.length === 0) continue;
      JSON.parse(line);
      events++;
    }
    return events;
  });
  const merged = await best(3, async () => {
    let events = 0;
    for await (const frame of mergeRecordings([RECORDING])) if (frame.src === 'ws/public') events++;
    return events;
  });
  let fills = 0;
  const backtest = await best(2, async () => {
    const result = await backtestMarketMaker(RECORDING);
    fills = result.fills.length;
    return result.meta.events;
  });
  printTable('replay throughput (ethusdt-2024-08-08)', [
    { stage: '(a) read + gunzip + JSON.parse', events: bare.events, seconds: bare.seconds, 'events/s': bare.rate, 'vs (a)': 1 },
    { stage: "(a') recording reader + merge", events: merged.events, seconds: merged.seconds, 'events/s': merged.rate, 'vs (a)': merged.rate / bare.rate },
    { stage: `(b) runBacktest market-maker (${fills} fills)`, events: backtest.events, seconds: backtest.seconds, 'events/s': backtest.rate, 'vs (a)': backtest.rate / bare.rate },
  ]);
  const ratio = backtest.rate / bare.rate;
  console.log(`ratio (b)/(a) = ${ratio.toFixed(3)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);

  const dir = await mkdtemp(path.join(tmpdir(), 'tradeloop-replay-bench-'));
  try {
    const repeated = path.join(dir, `ethusdt-x${REPEATS}.v3.jsonl.gz`);
    await writeRepeated(RECORDING, REPEATS, repeated);
    const rows = [];
    for (const [name, file] of [['recording x1', RECORDING], [`recording x${REPEATS}`, repeated]] as const) {
      const child = await backtestInChild(file);
      rows.push({ run: name, events: child.events, fills: child.fills, 'wall s': child.wallMs / 1000, 'events/s': child.events / (child.wallMs / 1000), 'peak RSS MiB': child.maxRssKiB / 1024 });
    }
    printTable('backtest peak RSS (own child process, process.resourceUsage().maxRSS)', rows);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface ChildFigures { events: number; fills: number; wallMs: number; maxRssKiB: number }

async function backtestInChild(recording: string): Promise<ChildFigures> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD, recording], { cwd: repoRoot, maxBuffer: 1 << 20 });
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
