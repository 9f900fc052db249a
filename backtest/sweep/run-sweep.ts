import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { loadBotConfig } from '../../framework/config/bot-config.js';
import { ValidationError } from '../../framework/model/errors.js';
import { loadStrategyPlugin } from '../../framework/runtime/plugin-loader.js';
import { codeFile } from '../../framework/package-root.js';
import type { SweepSpec } from './sweep-file.js';
import { checkGridParams, describeCombination, expandGrid } from './sweep-grid.js';
import { rankRows, type SweepRow } from './sweep-metrics.js';
import type { SweepTask } from './sweep-worker-task.js';

/** Options of {@link runSweep}. */
export interface SweepOptions {
  readonly spec: SweepSpec;
  /** Worker threads; `os.availableParallelism()` by default, never more than the combinations. */
  readonly workers?: number;
  /** Called after each finished combination. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A finished sweep. */
export interface SweepReport {
  readonly spec: SweepSpec;
  /** The strategy that ran. */
  readonly strategy: string;
  /** Grid keys, in the grid's order (the CSV's parameter columns). */
  readonly paramKeys: readonly string[];
  /** Every combination, best first (see {@link rankRows}). */
  readonly rows: readonly SweepRow[];
  readonly workers: number;
}

/** The worker entry: a plain module that registers the TypeScript loader, then loads the task. */
export const SWEEP_WORKER = pathToFileURL(codeFile('backtest', 'sweep', 'sweep-worker.mjs')).href;

/**
 * Runs every combination of the grid as its own backtest on a pool of worker threads and ranks
 * the results. The grid is checked against the strategy's parameter parser first, so a bad value
 * fails before any worker starts. Each run is deterministic and its row is placed by combination
 * index, so the report does not depend on the number of workers or on which finishes first.
 */
export async function runSweep(options: SweepOptions): Promise<SweepReport> {
  const { spec } = options;
  const workers = options.workers ?? availableParallelism();
  if (!Number.isSafeInteger(workers) || workers < 1) throw new ValidationError('workers', 'must be a positive integer', workers);
  const config = loadBotConfig(spec.config);
  const { plugin } = await loadStrategyPlugin(config.strategy.name, { baseDir: path.dirname(spec.config) });
  checkGridParams(spec.grid, config.strategy.params, (raw) => plugin.parseParams(raw));
  const combinations = expandGrid(spec.grid);
  const threads = Math.min(workers, combinations.length);
  // Atomics off: a backtest awaits macrotasks, and the pool's synchronous wait between tasks
  // would only save microseconds on runs that take seconds.
  const pool = new Piscina<SweepTask, SweepRow>({ filename: SWEEP_WORKER, minThreads: threads, maxThreads: threads, atomics: 'disabled', idleTimeout: 1000 });
  let done = 0;
  // As many runs at a time as the pool has threads, taken in order; after the first failure no
  // more start, and the pool is destroyed once the running ones have ended: a worker answering a
  // task the pool no longer tracks (a destroy with runs still queued) is an uncaught error in it.
  const rows: SweepRow[] = new Array<SweepRow>(combinations.length);
  let next = 0;
  let failure: Error | undefined;
  const runInTurn = async (): Promise<void> => {
    while (failure === undefined && next < combinations.length) {
      const index = next++;
      const params = combinations[index]!;
      const task: SweepTask = { index, configFile: spec.config, recordings: spec.recordings, params, ...(spec.seed === undefined ? {} : { seed: spec.seed }) };
      try {
        rows[index] = await pool.run(task);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        failure ??= new Error(`sweep combination ${index} (${describeCombination(params)}) failed: ${reason}`, { cause: error });
        return;
      }
      options.onProgress?.(++done, combinations.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: threads }, runInTurn));
    if (failure !== undefined) throw failure;
    return { spec, strategy: config.strategy.name, paramKeys: Object.keys(spec.grid), rows: rankRows(rows, spec.rankBy), workers: threads };
  } finally {
    await pool.destroy();
  }
}
