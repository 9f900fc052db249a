import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { LineTapeWriter } from './line-tape.js';
import { lineTapes } from './line-tapes.js';
import { LINE_TAPE_SLOTS, describeError, type LineTapeMessage, type LineTapeWorkerData } from './off-thread-line-tapes.js';

/**
 * Tapes between two full collections of this thread's heap: about 8 MiB of the recording. The
 * thread allocates little on its heap, so V8 seldom collects it, and the file's and zlib's buffers
 * it is done with live outside the heap until a collection finds their wrappers dead (the wrappers
 * of buffers that waited in the streams are old by then): left to V8, they piled up by 20 MB on a
 * 90 MB recording. A collection of this small heap takes a few milliseconds, on this thread.
 */
const TAPES_BETWEEN_COLLECTIONS = 32;

/** A full collection of this thread's heap, on demand. */
function heapCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  // Only this new context was to have it.
  setFlagsFromString('--no-expose-gc');
  return collect;
}

/** The decoding thread: sends the recording's tapes, and writes on in the slots the replay gives back. */
async function serve(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('tradeloop: the line tape task runs on a worker thread');
  const { path, scales, skipLines } = workerData as LineTapeWorkerData;
  const read: number[] = [];
  let wake: (() => void) | undefined;
  const onRead = (slots: readonly number[]): void => {
    read.push(...slots);
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  port.on('message', onRead);
  const tapesRead = {
    async slotsBack(writer: LineTapeWriter): Promise<void> {
      for (;;) {
        for (let slot = read.pop(); slot !== undefined; slot = read.pop()) writer.release(slot);
        if (writer.slotsOut < LINE_TAPE_SLOTS) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
  const collect = heapCollector();
  let sinceCollection = 0;
  try {
    for await (const tape of lineTapes(path, new Map(scales), { tapesRead, skipLines })) {
      if (++sinceCollection === TAPES_BETWEEN_COLLECTIONS) {
        sinceCollection = 0;
        collect();
      }
      // A slot's shared buffers go along the first time (and when they grew): the replay keeps them.
      const message: LineTapeMessage = tape.freshBuffers ? { tape } : { tape: { ...tape, numbers: undefined, bytes: undefined } };
      port.postMessage(message);
    }
  } catch (error) {
    const message: LineTapeMessage = { error: describeError(error) };
    port.postMessage(message);
  } finally {
    port.off('message', onRead);
  }
}

await serve();
