import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Niceness a live bot gives the threads of its process but the main one, by default. */
export const DEFAULT_HELPER_THREAD_NICENESS = 10;

/** How often {@link keepHelperThreadsBehind} looks for threads started since. */
const RESCAN_MS = 10_000;

/** Where Linux lists the threads of this process, one folder per thread id. */
const THREADS_DIR = '/proc/self/task';

/**
 * Gives every thread of this process but the main one (V8's compiler and garbage-collector
 * helpers, libuv's thread pool, worker threads) the niceness `niceness`, unless it has a higher
 * one already; returns how many it changed. A bot's main thread handles every book and intent;
 * on a machine with few cores its own helpers took the core from it for a time slice now and then:
 * against the sandbox on two cores, a market maker's tick-to-intent showed one or two stalls of
 * 1-6 ms every 15 s (p99 over 500 µs in about half the runs), and none in runs with its helpers
 * at 10. A helper then runs when the main thread waits, which a live bot does most of the time.
 *
 * Linux only: there a nice value is a thread's own, and `setpriority` on a thread id sets that
 * thread's alone. Elsewhere (where it would set the whole process) nothing is done. Raising a
 * nice value needs no privilege; a thread that ended meanwhile is skipped.
 */
export function deprioritizeHelperThreads(niceness: number, threadsDir: string = THREADS_DIR): number {
  if (process.platform !== 'linux' || niceness <= 0) return 0;
  let threads: string[];
  try {
    threads = readdirSync(threadsDir);
  } catch {
    return 0;
  }
  let changed = 0;
  for (const name of threads) {
    const tid = Number(name);
    if (!Number.isInteger(tid) || tid === process.pid) continue;
    try {
      if (getPriority(tid) >= niceness) continue;
      setPriority(tid, niceness);
      changed++;
    } catch {
      // The thread ended since the folder was read.
    }
  }
  return changed;
}

/**
 * {@link deprioritizeHelperThreads} now and every {@link RESCAN_MS} after (threads start later too:
 * libuv's pool on its first use, a strategy's workers), until the returned function is called.
 * The timer keeps no process alive. Does nothing for a niceness of 0.
 */
export function keepHelperThreadsBehind(niceness: number): () => void {
  if (process.platform !== 'linux' || niceness <= 0) return () => undefined;
  deprioritizeHelperThreads(niceness);
  const timer = setInterval(() => deprioritizeHelperThreads(niceness), RESCAN_MS);
  timer.unref();
  return () => clearInterval(timer);
}
