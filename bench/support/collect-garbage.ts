import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A full garbage collection, now. Run before a timed task that allocates nothing: with
 * BENCH_CLOCK=cpu the process's CPU time includes the collector's background threads, so the
 * marking of garbage an earlier task left (new books or markets, each with MiBs of windows) would
 * otherwise be charged to this task's iterations.
 */
export function collectGarbage(): void {
  gc();
}
