import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { CandlesEvent, TradesEvent } from '../../framework/model/stream/market-events.js';
import { RecordingChunks } from './recording-chunks.js';
import type { RecordedFrame } from './recording-format.js';
import { brokenStreamError, type RecordingLineCheck } from './recording-line-check.js';
import { emptyRecording, lineCheckFor, type RecordingReaderOptions } from './recording-reader.js';

/**
 * Bytes per read and per gunzip output chunk: 256 KiB. Each chunk is a round trip to the thread pool
 * and through the stream machinery (with 64 KiB chunks those trips cost a replay of the ETHUSDT
 * recording x10 about 0.1 s of its 1.3 s); each is also a buffer outside the heap that is freed
 * only when the collector finds its wrapper dead, and a chunk lives as long as the replay takes
 * to go through its lines, so chunks are promoted and pile up until a full collection: with
 * 1 MiB chunks they made peak RSS grow with the recording's length. At 256 KiB the trips still
 * cost nothing measurable (CPU time of the x10 replay the same within the noise).
 */
const CHUNK = 1 << 18;

/**
 * Bytes of lines per batch handed over: a chunk is split into batches of about 64 KiB, so a
 * batch's parsed frames die young (a larger batch keeps thousands of parsed frames alive across
 * scavenges, and the collector promotes and later sweeps them).
 */
const BATCH_BYTES = 1 << 16;

/**
 * Gunzipped bytes decompressed ahead (on the thread pool) while the replay works on a chunk: two
 * chunks.
 */
const READ_AHEAD = 2 * CHUNK;

/** Frames gathered before a multi-recording merge hands a batch over. */
const MERGE_BATCH = 512;

/**
 * A frame as a replay reads it: the recorded frame, or, for a line the {@link MarketLineDecoder}
 * took, the frame's time and what it holds, decoded already (no `msg` object is built for it).
 */
export type ReplayFrame = ParsedReplayFrame | DecodedFrame;

/** A line parsed the general way, with where it came from when a reader knows it. */
export interface ParsedReplayFrame extends RecordedFrame {
  readonly books?: undefined;
  /** The reading rules of the frame's file, which also note what a later stage refuses of it. */
  readonly origin?: RecordingLineCheck;
  /** The frame's line in its file. */
  readonly line?: number;
}

/** A `ws/public` `orderbook/full`, `trades` or `candles/{period}` line decoded straight from its bytes. */
export interface DecodedFrame {
  readonly t: number;
  readonly src: 'ws/public';
  readonly msg?: undefined;
  readonly books: readonly ScaledOrderBookFrame[];
  readonly events: readonly (TradesEvent | CandlesEvent)[];
}

/**
 * Decodes the recording lines it takes straight from their bytes (undefined for any other line):
 * a MarketLineDecoder, a CandleLineDecoder, or both.
 */
export interface LineDecoder {
  decode(bytes: Buffer, start: number, end: number): DecodedFrame | undefined;
}

/** Options of {@link readFrameBatches}. */
export interface FrameBatchOptions extends RecordingReaderOptions {
  /** Decodes the lines it takes without JSON.parse; every other line is parsed as usual. */
  readonly lineDecoder?: LineDecoder;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * The frames of a recording in file order, in batches: every complete line of each chunk the
 * (gunzipped) file stream delivers, parsed and validated as {@link RecordingReader.frames} does
 * (same header check, same rules for bad lines, time going back, repeated headers and a broken
 * gzip stream: {@link RecordingLineCheck}). One await per chunk instead of several per line:
 * a replay spends its time on the frames, not on async-iterator hops. A chunk is handed over in
 * batches of about {@link BATCH_BYTES} of lines. Memory stays bounded by a few chunks and one
 * batch's frames.
 *
 * Lines are split on the raw bytes; with a `lineDecoder`, the lines it takes are decoded from
 * those bytes and never become text, and only the other lines are decoded as UTF-8 and parsed.
 * Those carry their line and the file's {@link RecordingLineCheck} (`origin`), so that a frame
 * the market parsers refuse later is still reported by file and line.
 */
export async function* readFrameBatches(path: string, options: FrameBatchOptions = {}): AsyncGenerator<ReplayFrame[]> {
  const chunks = new RecordingChunks(path, { chunkSize: CHUNK, readAhead: READ_AHEAD, onBytesRead: options.onBytesRead });
  const check = lineCheckFor(path, options);
  const decoder = options.lineDecoder;
  let lineNo = 0;
  const take = (bytes: Buffer, start: number, end: number, out: ReplayFrame[]): void => {
    lineNo++;
    if (end > start && bytes[end - 1] === CR) end--;
    if (lineNo === 1) {
      check.header(bytes.toString('utf8', start, end));
      return;
    }
    if (end === start) return;
    const decoded = decoder?.decode(bytes, start, end);
    if (decoded !== undefined) {
      const t = decoded.t;
      if (t < check.lastTime) {
        const held = check.behind(t, lineNo);
        if (!Number.isNaN(held)) out.push(receivedLater(decoded, held));
        return;
      }
      check.lastTime = t;
      out.push(decoded);
      return;
    }
    const frame = check.general(bytes.toString('utf8', start, end), lineNo);
    if (frame !== undefined) out.push({ t: frame.t, src: frame.src, msg: frame.msg, origin: check, line: lineNo });
  };
  let rest: Buffer | undefined;
  try {
    for (let chunk = await chunks.next(); chunk !== undefined && !check.stopped; chunk = await chunks.next()) {
      let out: ReplayFrame[] = [];
      let start = 0;
      let nl = chunk.indexOf(NEWLINE, start);
      if (rest !== undefined) {
        // Only the line cut by the chunk boundary is copied, not the whole chunk.
        if (nl < 0) {
          rest = Buffer.concat([rest, chunk]);
          continue;
        }
        const line = Buffer.concat([rest, chunk.subarray(0, nl)]);
        take(line, 0, line.length, out);
        start = nl + 1;
        nl = chunk.indexOf(NEWLINE, start);
      }
      let batchEnd = start + BATCH_BYTES;
      while (nl >= 0 && !check.stopped) {
        take(chunk, start, nl, out);
        start = nl + 1;
        if (start >= batchEnd && out.length > 0) {
          yield out;
          out = [];
          batchEnd = start + BATCH_BYTES;
        }
        nl = chunk.indexOf(NEWLINE, start);
      }
      rest = start < chunk.length ? chunk.subarray(start) : undefined;
      if (out.length > 0) yield out;
    }
    if (!check.stopped) {
      const broken = chunks.broken;
      // The line a break cuts is dropped whole: its beginning may well parse, and be wrong.
      if (broken !== undefined) {
        const error = brokenStreamError(path, lineNo, broken);
        if (lineNo === 0) throw error;
        check.broken(error);
      } else if (rest !== undefined) {
        const out: ReplayFrame[] = [];
        take(rest, 0, rest.length, out);
        if (out.length > 0) yield out;
      }
    }
  } finally {
    chunks.close();
    check.finish(lineNo);
  }
  if (lineNo === 0) throw emptyRecording(path);
}

/** A decoded frame replayed at `t`, later than it was recorded: its books and events say so too. */
function receivedLater(decoded: DecodedFrame, t: number): DecodedFrame {
  return {
    t, src: 'ws/public',
    books: decoded.books.map((b) => ({ ...b, receivedAt: t })),
    events: decoded.events.map((e) => ({ ...e, receivedAt: t })),
  };
}

/** One recording's batches and the position in the current one. */
interface Cursor {
  readonly batches: AsyncIterator<ReplayFrame[]>;
  batch: ReplayFrame[];
  index: number;
  done: boolean;
}

/**
 * {@link mergeRecordings} in batches: the frames of several recordings ordered by local receive
 * time, ties in the order of `paths` then file order (the same order, frame for frame). Memory
 * holds one chunk per file and one output batch.
 */
export async function* mergeFrameBatches(paths: readonly string[], options: FrameBatchOptions = {}): AsyncGenerator<ReplayFrame[]> {
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
  let out: ReplayFrame[] = [];
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

