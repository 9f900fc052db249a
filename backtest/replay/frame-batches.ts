import { createReadStream } from 'node:fs';
import type { TransformOptions } from 'node:stream';
import { createGunzip, type ZlibOptions } from 'node:zlib';
import { ParseError } from '../../framework/model/errors.js';
import { parseRecordedFrame, parseRecordingHeader, type RecordedFrame } from '../recording/recording-format.js';
import type { RecordingReaderOptions } from '../recording/recording-reader.js';

/** Bytes per read and per gunzip output chunk. */
const CHUNK = 1 << 16;

/**
 * Gunzipped bytes decompressed ahead (on the thread pool) while the replay works on a batch: two
 * chunks. More buys no measurable speed and raises peak RSS with the recording's length (1 MiB
 * ahead: 280 MiB peak on the ETHUSDT recording x10, against 185 MiB with 128 KiB).
 */
const READ_AHEAD = 1 << 17;

/** Frames gathered before a multi-recording merge hands a batch over. */
const MERGE_BATCH = 512;

/**
 * The frames of a recording in file order, in batches: every complete line of each chunk the
 * (gunzipped) file stream delivers, parsed and validated as {@link RecordingReader.frames} does
 * (same header check, same bad-line handling). One await per chunk instead of several per line:
 * a replay spends its time on the frames, not on async-iterator hops. Chunks are 64 KiB: a batch's
 * parsed frames then die young (a larger batch keeps thousands of parsed frames alive across
 * scavenges, and the collector promotes and later sweeps them). Memory stays bounded by one chunk
 * and its frames.
 */
export async function* readFrameBatches(path: string, options: RecordingReaderOptions = {}): AsyncGenerator<RecordedFrame[]> {
  const file = createReadStream(path, { highWaterMark: CHUNK });
  const gunzip: ZlibOptions & TransformOptions = { chunkSize: CHUNK, readableHighWaterMark: READ_AHEAD };
  const onBytes = options.onBytesRead;
  if (onBytes !== undefined) file.on('data', (chunk: Buffer | string) => onBytes(chunk.length));
  const source = path.endsWith('.gz') ? file.pipe(createGunzip(gunzip)) : file;
  source.setEncoding('utf8');
  let lineNo = 0;
  const take = (line: string, out: RecordedFrame[]): void => {
    lineNo++;
    if (lineNo === 1) {
      parseRecordingHeader(parseJson(line, 1));
      return;
    }
    if (line.length === 0) return;
    try {
      out.push(parseRecordedFrame(parseJson(line, lineNo), lineNo));
    } catch (error) {
      if (options.onError !== 'skip' || !(error instanceof ParseError)) throw error;
      options.onBadLine?.(error);
    }
  };
  let rest = '';
  try {
    for await (const chunk of source as AsyncIterable<string>) {
      const text = rest + chunk;
      const out: RecordedFrame[] = [];
      let start = 0;
      let nl = text.indexOf('\n', start);
      while (nl >= 0) {
        take(text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl), out);
        start = nl + 1;
        nl = text.indexOf('\n', start);
      }
      rest = text.slice(start);
      if (out.length > 0) yield out;
    }
    const out: RecordedFrame[] = [];
    if (rest.length > 0) take(rest, out);
    if (out.length > 0) yield out;
  } finally {
    file.destroy();
  }
  if (lineNo === 0) throw new ParseError(path, 'recording is empty (no header line)');
}

/** One recording's batches and the position in the current one. */
interface Cursor {
  readonly batches: AsyncIterator<RecordedFrame[]>;
  batch: RecordedFrame[];
  index: number;
  done: boolean;
}

/**
 * {@link mergeRecordings} in batches: the frames of several recordings ordered by local receive
 * time, ties in the order of `paths` then file order (the same order, frame for frame). Memory
 * holds one chunk per file and one output batch.
 */
export async function* mergeFrameBatches(paths: readonly string[], options: RecordingReaderOptions = {}): AsyncGenerator<RecordedFrame[]> {
  if (paths.length === 1) {
    yield* readFrameBatches(paths[0]!, options);
    return;
  }
  const cursors: Cursor[] = paths.map((path) => ({ batches: readFrameBatches(path, options)[Symbol.asyncIterator](), batch: [], index: 0, done: false }));
  const refill = async (c: Cursor): Promise<void> => {
    while (!c.done && c.index >= c.batch.length) {
      const next = await c.batches.next();
      if (next.done === true) c.done = true;
      else {
        c.batch = next.value;
        c.index = 0;
      }
    }
  };
  await Promise.all(cursors.map(refill));
  let out: RecordedFrame[] = [];
  for (;;) {
    let pick: Cursor | undefined;
    for (const c of cursors) {
      if (c.done) continue;
      if (pick === undefined || c.batch[c.index]!.t < pick.batch[pick.index]!.t) pick = c;
    }
    if (pick === undefined) break;
    out.push(pick.batch[pick.index++]!);
    if (pick.index >= pick.batch.length) {
      // The next frame of this file decides the order: hand over what is merged, then read on.
      if (out.length >= MERGE_BATCH) {
        yield out;
        out = [];
      }
      await refill(pick);
    }
  }
  if (out.length > 0) yield out;
}

function parseJson(line: string, lineNo: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new ParseError(`line ${lineNo}`, 'is not valid JSON', line);
  }
}
