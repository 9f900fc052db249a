import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { codeFile } from '../../framework/package-root.js';
import type { LineTape } from './line-tape.js';
import type { BookScales } from './market-line-decoder.js';

/** The worker's entry: registers the TypeScript loader when the sources run, then starts the task. */
const WORKER_ENTRY = pathToFileURL(codeFile('backtest', 'recording', 'line-tape-worker.mjs'));

/**
 * The decoding thread's young generation, in MiB: what it allocates (a decoded line, dead once on
 * its tape) dies young, and V8 would otherwise grow it to 32 MiB and more, all of it resident.
 */
const YOUNG_GENERATION_MB = 4;

/** Slots the replay hands back in one message (of {@link LINE_TAPE_SLOTS}). */
const SLOTS_BACK_TOGETHER = 8;

/**
 * Slots out at most (tapes sent and not yet given back, and the one being written): enough to keep
 * the replay fed while slots come back {@link SLOTS_BACK_TOGETHER} at a time, about 5 MB. (Eight
 * at a time rather than four took the wake-ups' cost on a busy machine from about 260 to 100 ms
 * of the replay thread's time on the ETHUSDT recording x10.)
 */
export const LINE_TAPE_SLOTS = 16;

/** What the decoding thread is given. */
export interface LineTapeWorkerData {
  readonly path: string;
  readonly scales: readonly (readonly [string, BookScales])[];
  /** Lines the reader has already: read again, not written. */
  readonly skipLines: number;
}

/**
 * What the decoding thread sends: a tape, or the error that stopped it. A tape's buffers (shared
 * memory) come along only when they are new to its slot; the replay keeps each slot's buffers.
 */
export type LineTapeMessage = { readonly tape: PostedTape } | { readonly error: ErrorDescription };

/** A tape as posted: its buffers only when they are new to its slot. */
export type PostedTape = Omit<LineTape, 'numbers' | 'bytes'> & { readonly numbers?: Float64Array; readonly bytes?: Uint8Array };

/** An error as it crosses threads: what the command's error reporting reads of it. */
export interface ErrorDescription {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly syscall?: unknown;
  readonly path?: unknown;
}

/** `error` as it can be posted to another thread. */
export function describeError(error: unknown): ErrorDescription {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = error as Error & { code?: unknown; errno?: unknown; syscall?: unknown; path?: unknown };
  return { name: error.name, message: error.message, stack: error.stack, code: fields.code, errno: fields.errno, syscall: fields.syscall, path: fields.path };
}

/** The error a description stands for (an Error with the same name, message, stack and system fields). */
function errorOf(description: ErrorDescription): Error {
  const error = new Error(description.message);
  error.name = description.name;
  if (description.stack !== undefined) error.stack = description.stack;
  for (const key of ['code', 'errno', 'syscall', 'path'] as const) {
    if (description[key] !== undefined) (error as unknown as Record<string, unknown>)[key] = description[key];
  }
  return error;
}

/**
 * {@link lineTapes} on a thread of its own (the first `skipLines` lines not written): reading, gunzipping, splitting and decoding the lines
 * run beside the replay instead of inside it, and the tapes come over in shared memory, without a
 * copy. Each tape's slot goes back once it is read; the thread stays a few tapes ahead (it waits
 * for a slot back before it writes more than a few), and ends when the iteration does, however it
 * ends.
 */
export async function* offThreadLineTapes(path: string, scales: ReadonlyMap<string, BookScales>, skipLines = 0): AsyncGenerator<LineTape> {
  const workerData: LineTapeWorkerData = { path, scales: [...scales], skipLines };
  const worker = new Worker(WORKER_ENTRY, { workerData, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const tapes: PostedTape[] = [];
  const read: number[] = [];
  const giveBack = (): void => {
    if (read.length === 0) return;
    worker.postMessage(read.splice(0));
  };
  const slotNumbers: Float64Array[] = [];
  const slotBytes: Uint8Array[] = [];
  let failure: Error | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const resume = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  worker.on('message', (message: LineTapeMessage) => {
    if ('tape' in message) tapes.push(message.tape);
    else failure ??= errorOf(message.error);
    resume();
  });
  worker.on('error', (error) => {
    failure ??= error;
    resume();
  });
  worker.on('exit', (code) => {
    if (!ended) failure ??= new Error(`tradeloop: the thread decoding ${path} stopped (exit code ${code}) before the recording's end`);
    resume();
  });
  try {
    for (;;) {
      // One turn of the event loop a tape, as reading on this thread takes: what runs between
      // turns (the collector's notices, which the replay's heap tuning follows) keeps running.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const posted = tapes.shift();
      if (posted !== undefined) {
        const slot = posted.slot;
        if (posted.numbers !== undefined && posted.bytes !== undefined) {
          slotNumbers[slot] = posted.numbers;
          slotBytes[slot] = posted.bytes;
        }
        const tape: LineTape = { ...posted, numbers: slotNumbers[slot] as Float64Array, bytes: slotBytes[slot] as Uint8Array };
        if (tape.end !== undefined) {
          ended = true;
          yield tape;
          return;
        }
        yield tape;
        // Asked for the next tape: the reader is through with this one; its slot goes back, with
        // others: each message wakes the thread, and on a busy machine a wake-up can cost the
        // replay's thread its core for a while.
        read.push(slot);
        if (read.length >= SLOTS_BACK_TOGETHER) giveBack();
        continue;
      }
      if (failure !== undefined) throw failure;
      // Nothing to read: the thread may be waiting for slots.
      giveBack();
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    ended = true;
    void worker.terminate();
  }
}
