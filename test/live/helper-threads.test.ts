import { mkdtempSync, mkdirSync, readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { deprioritizeHelperThreads, keepHelperThreadsBehind } from '../../framework/live/helper-threads.js';

const onLinux = process.platform === 'linux';

/** The ids of this process's threads but the main one, read from Linux's own list. */
function helperThreads(): number[] {
  return readdirSync('/proc/self/task').map(Number).filter((tid) => tid !== process.pid);
}

/** A worker thread that waits until terminated (a thread started after the others, as a strategy's would be). */
async function idleWorker(): Promise<Worker> {
  const worker = new Worker('setInterval(() => undefined, 1000); require("node:worker_threads").parentPort.postMessage("up");', { eval: true });
  await new Promise((resolve) => worker.once('message', resolve));
  return worker;
}

describe('helper threads behind the main one', () => {
  const workers: Worker[] = [];
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.terminate();
  });

  it.runIf(onLinux)('gives every thread but the main one the niceness, once, and leaves the main thread as it was', async () => {
    workers.push(await idleWorker());
    const mainBefore = getPriority(process.pid);
    // Each test file runs in a process of its own: raising its threads' niceness touches no other test.
    const changed = deprioritizeHelperThreads(5);
    expect(changed).toBeGreaterThan(0);
    for (const tid of helperThreads()) expect(getPriority(tid)).toBeGreaterThanOrEqual(5);
    expect(getPriority(process.pid)).toBe(mainBefore);
    // Nothing left to change; a lower niceness never lowers one that is higher already.
    expect(deprioritizeHelperThreads(5)).toBe(0);
    expect(deprioritizeHelperThreads(3)).toBe(0);
    for (const tid of helperThreads()) expect(getPriority(tid)).toBeGreaterThanOrEqual(5);
  });

  it.runIf(onLinux)('keeps doing it for threads started later, until stopped', async () => {
    const stop = keepHelperThreadsBehind(6);
    try {
      for (const tid of helperThreads()) expect(getPriority(tid)).toBeGreaterThanOrEqual(6);
      workers.push(await idleWorker());
      // The worker's thread was started by the main thread, at its niceness; the next scan (or a call now) moves it.
      expect(deprioritizeHelperThreads(6)).toBeGreaterThan(0);
      for (const tid of helperThreads()) expect(getPriority(tid)).toBeGreaterThanOrEqual(6);
    } finally {
      stop();
    }
  });

  it('does nothing for a niceness of 0, nor where the thread list cannot be read', () => {
    expect(deprioritizeHelperThreads(0)).toBe(0);
    const empty = mkdtempSync(path.join(tmpdir(), 'threads-'));
    mkdirSync(path.join(empty, 'not-a-thread'));
    expect(deprioritizeHelperThreads(8, empty)).toBe(0);
    expect(deprioritizeHelperThreads(8, path.join(empty, 'missing'))).toBe(0);
    keepHelperThreadsBehind(0)();
  });
});
