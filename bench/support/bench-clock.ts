import { performance } from 'node:perf_hooks';

/**
 * The clock a tinybench benchmark times with. Wall time by default; with `BENCH_CLOCK=cpu`, this
 * process's CPU time (user + system, all its threads): on a machine shared with other work, the
 * time the process spends waiting for a core is then left out, so figures of two builds taken at
 * different moments can be compared (cache and core sharing still show).
 */
export function benchClock(): { readonly now?: () => number; readonly name: string } {
  if (process.env.BENCH_CLOCK !== 'cpu') return { name: 'wall time' };
  return {
    name: 'process CPU time (BENCH_CLOCK=cpu)',
    now: () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    },
  };
}

/** tinybench's run options: how long (timed work) and how many runs at least, warm-up and measured. */
export interface RunBudget {
  readonly time: number;
  readonly warmupTime: number;
  readonly iterations: number;
  readonly warmupIterations: number;
}

/**
 * How long tinybench runs a task whose every run follows an untimed `reset` (its `beforeEach`).
 * tinybench runs a task until its timed work adds up to `time`, however long the resets take: on a
 * small data set (the shipped fixture, on a clone without the shared recordings) a run takes
 * microseconds while its reset does not, and 3 s of timed work took hours. A run that takes less
 * than a millisecond (the fastest of a few calls, on the wall clock) is therefore run a fixed
 * number of times, enough for about `wallMs` with its resets; a longer one keeps `time: wallMs` of
 * timed work as before.
 */
export function runBudget(wallMs: number, reset: () => void, run: () => void, minIterations = 10): RunBudget {
  let resetMs = Number.POSITIVE_INFINITY;
  let runMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    reset();
    const between = performance.now();
    run();
    resetMs = Math.min(resetMs, between - start);
    runMs = Math.min(runMs, performance.now() - between);
  }
  if (runMs >= 1) return { time: wallMs, warmupTime: wallMs / 6, iterations: minIterations, warmupIterations: minIterations };
  const iterations = Math.max(minIterations, Math.min(100_000, Math.ceil(wallMs / Math.max(resetMs + runMs, 0.001))));
  return { time: 0, warmupTime: 0, iterations, warmupIterations: Math.ceil(iterations / 6) };
}
