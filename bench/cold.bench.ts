import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readLines } from '../backtest/recording/recording-reader.js';
import { writeRepeated } from './replay-repeat.js';
import { CANDLE_SYMBOL, writeCandleRecording } from './support/candle-recording.js';
import { repoRoot, sharedData } from './support/paths.js';
import { printTable, type Row } from './support/report.js';

/** The `tradeloop` command as npm links it (`npx tradeloop`, `node_modules/.bin/tradeloop`). */
const BIN = path.join(repoRoot, 'bin', 'tradeloop');
const EXIT_FIGURES = path.join(repoRoot, 'bench', 'support', 'exit-figures.mjs');
const BARE_READ = path.join(repoRoot, 'bench', 'support', 'bare-read.mjs');
const RECORDING_NAME = 'ethusdt-2024-08-08.v3.jsonl.gz';
const ROUNDS = 3;
const CANDLES = 45_000;
const MIB = 1024;

/** One whole `tradeloop` process as a user runs it: wall time from spawn to exit, its peak RSS. */
interface ProcessFigures {
  readonly wallMs: number;
  readonly maxRssMiB: number;
  /** For backtests: from spawn to the line the command prints as it starts the replay. */
  readonly toReplayMs?: number;
}

/**
 * What a user sees when they run one command: the whole process, start-up and JIT warm-up
 * included, next to the floor of the same work (the bare read: lines read, gunzipped and parsed),
 * also as a whole process (bench/support/bare-read.mjs: Node start-up and its own warm-up
 * included), the measure the targets are set in. The bare read inside this process, warm (best of
 * a few runs, no start-up, JIT warm), is shown beside it as a stricter floor.
 * Targets (the fast-start work): `tradeloop help` <= 100 ms; a backtest's start-up (process
 * start to the replay's start) <= 250 ms; the market maker on the ETHUSDT recording >= 0.5 of the
 * bare read at 1x and >= 0.7 at 10x, whole process; a 45,000-candle moving-average backtest
 * <= 1 s and <= 120 MB peak RSS; peak RSS at 10x <= 1.15 x at 1x. The market maker at 20x is
 * shown beside 10x: whether the peak still grows with the recording past V8's heap headroom. Each
 * figure is the best of a few runs (the fastest wall time, its RSS).
 */
export async function run(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tradeloop-cold-bench-'));
  try {
    const rows: Row[] = [];
    const help = await best(() => runCli(['help'], dir));
    rows.push(row('tradeloop help', help, `<= 100 ms`, help.wallMs <= 100));
    const sample = await best(() => runCli(['backtest', '--out', path.join(dir, 'sample')], dir));
    const startUp = sample.toReplayMs ?? Number.NaN;
    rows.push(row('backtest (sample): process start to the replay', { ...sample, wallMs: startUp }, '<= 250 ms', startUp <= 250));
    rows.push(row('backtest (sample): whole process', sample, '', true));

    const candles = path.join(dir, 'btc-m1-45k.jsonl');
    writeCandleRecording(candles, Date.UTC(2024, 0, 1), CANDLES);
    const maConfig = path.join(dir, 'ma.yaml');
    await writeFile(maConfig, [
      'bot: { id: cold1, account: spot }',
      `strategy: { name: ma-crossover, symbols: [${CANDLE_SYMBOL}], candles: M1, params: { average: sma, fastPeriod: 10, slowPeriod: 30, orderQuantity: "1" } }`,
      'backtest: { balances: { USDT: "100000000" }, seed: 1 }',
    ].join('\n'));
    const ma = await best(() => runCli(['backtest', '--quiet', '--config', maConfig, '--recording', candles, '--out', path.join(dir, 'ma')], dir));
    rows.push(row(`backtest ma-crossover SMA 10/30, ${CANDLES.toLocaleString('en')} candles`, ma, '<= 1000 ms, <= 120 MiB', ma.wallMs <= 1000 && ma.maxRssMiB <= 120));

    const recording = sharedData(RECORDING_NAME);
    if (recording === undefined) {
      console.log(`market maker on ${RECORDING_NAME}: skipped (shared/data absent)`);
    } else {
      const repeated = path.join(dir, 'ethusdt-x10.v3.jsonl.gz');
      await writeRepeated(recording, 10, repeated);
      for (const [label, file, target] of [['x1', recording, 0.5], ['x10', repeated, 0.7]] as const) {
        const bare = await bestMs(() => runBareRead(file));
        const warmBare = await bestMs(() => bareRead(file));
        const whole = await best(() => runCli(['backtest', '--quiet', '--recording', file, '--out', path.join(dir, `mm-${label}`)], dir));
        const ratio = bare / whole.wallMs;
        rows.push({
          ...row(`backtest market-maker on ETHUSDT ${label} (bare read ${bare.toFixed(0)} ms)`, whole, `>= ${target} of bare read`, ratio >= target, ratio),
          'vs warm in-process read': `${(warmBare / whole.wallMs).toFixed(2)} (${warmBare.toFixed(0)} ms)`,
        });
      }
      const one = rows.at(-2)!;
      const ten = rows.at(-1)!;
      const growth = (ten['peak RSS MiB'] as number) / (one['peak RSS MiB'] as number);
      rows.push({ run: 'peak RSS x10 / x1', 'wall ms': '', 'peak RSS MiB': growth.toFixed(2), 'vs bare read': '', target: '<= 1.15', status: growth <= 1.15 ? 'met' : 'NOT met' });
      // Twice as long again: whether the peak still follows the recording's length once V8 has
      // used the old generation's headroom (see cli/replay-heap.ts), which the 1x run ends before.
      const longer = path.join(dir, 'ethusdt-x20.v3.jsonl.gz');
      await writeRepeated(recording, 20, longer);
      const twenty = await best(() => runCli(['backtest', '--quiet', '--recording', longer, '--out', path.join(dir, 'mm-x20')], dir));
      const twentyRow = row('backtest market-maker on ETHUSDT x20', twenty, '', true);
      rows.push(twentyRow, { run: 'peak RSS x20 / x10', 'wall ms': '', 'peak RSS MiB': ((twentyRow['peak RSS MiB'] as number) / (ten['peak RSS MiB'] as number)).toFixed(2), 'vs bare read': '', target: '', status: '' });
      for (const r of rows) r['vs warm in-process read'] ??= '';
    }
    printTable('whole process, as a user runs it (best of runs)', rows);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function row(run: string, figures: ProcessFigures, target: string, met: boolean, ratio?: number): Row {
  return {
    run, 'wall ms': Math.round(figures.wallMs), 'peak RSS MiB': Math.round(figures.maxRssMiB), 'vs bare read': ratio === undefined ? '' : ratio.toFixed(2),
    target, status: target === '' ? '' : met ? 'met' : 'NOT met',
  };
}

/**
 * Runs `bin/tradeloop ...args`, the command a user runs, with the exit-figures preload (through
 * NODE_OPTIONS: the command starts node itself). A backtest that is not
 * quiet prints `backtest <strategy> on ...` as it starts the replay: the time that line arrives is
 * its start-up.
 */
async function runCli(args: readonly string[], dir: string): Promise<ProcessFigures> {
  const figuresFile = path.join(dir, 'exit-figures.json');
  const started = performance.now();
  let toReplayMs: number | undefined;
  const code = await new Promise<number | null>((resolve, reject) => {
    const nodeOptions = [process.env.NODE_OPTIONS, `--import ${JSON.stringify(EXIT_FIGURES)}`].filter((o) => o !== undefined && o !== '').join(' ');
    const child = spawn(BIN, args, {
      cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: nodeOptions, TRADELOOP_EXIT_FIGURES: figuresFile },
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (toReplayMs === undefined && chunk.toString().startsWith('backtest ')) toReplayMs = performance.now() - started;
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      if (exitCode !== 0) console.error(stderr);
      resolve(exitCode);
    });
  });
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`tradeloop ${args.join(' ')} exited with ${code}`);
  const figures = JSON.parse(await readFile(figuresFile, 'utf8')) as { maxRssKiB: number };
  return { wallMs, maxRssMiB: figures.maxRssKiB / MIB, toReplayMs };
}

async function best(once: () => Promise<ProcessFigures>): Promise<ProcessFigures> {
  let top: ProcessFigures | undefined;
  for (let i = 0; i < ROUNDS; i++) {
    const figures = await once();
    if (top === undefined || figures.wallMs < top.wallMs) top = figures;
  }
  return top!;
}

async function bestMs(once: () => Promise<unknown>): Promise<number> {
  let top = Infinity;
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await once();
    top = Math.min(top, performance.now() - started);
  }
  return top;
}

/** {@link BARE_READ} on `file` as a process of its own (the floor as a user would see it). */
async function runBareRead(file: string): Promise<void> {
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [BARE_READ, file], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`bare read of ${file} exited with ${code}`);
}

/** The floor of any replay inside this process: lines read, gunzipped and parsed, nothing else. */
async function bareRead(file: string): Promise<void> {
  for await (const line of readLines(file)) if (line.length > 0) JSON.parse(line);
}
