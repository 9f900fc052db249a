import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { CandlesEvent, TradesEvent } from '../../framework/model/stream/market-events.js';
import { availableParallelism } from 'node:os';
import { runsCompiled } from '../../framework/package-root.js';
import { LineTapeReader, TAPE_BATCH_END, TAPE_EMPTY, TAPE_RAW, type LineTape } from './line-tape.js';
import { lineTapes } from './line-tapes.js';
import type { BookScales } from './market-line-decoder.js';
import { offThreadLineTapes } from './off-thread-line-tapes.js';
import type { StreamBreak } from './recording-chunks.js';
import type { RecordedFrame } from './recording-format.js';
import { brokenStreamError, type RecordingLineCheck } from './recording-line-check.js';
import { emptyRecording, lineCheckFor, type RecordingReaderOptions } from './recording-reader.js';

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

/** Options of {@link readFrameBatches}. */
export interface FrameBatchOptions extends RecordingReaderOptions {
  /**
   * The symbols whose `orderbook/full`, `trades` and `candles/{period}` lines to decode without
   * JSON.parse (a {@link MarketLineDecoder} and a {@link CandleLineDecoder}), with the scales of
   * their books; every other line is parsed as usual.
   */
  readonly decodeMarketLines?: ReadonlyMap<string, BookScales>;
  /**
   * Read, gunzip, split and decode on a thread of its own, beside the replay. By default when
   * there are lines to decode, the compiled code runs and the machine has a second core; the
   * sources (tests, tsx) decode on the replay's thread unless asked, as a thread of theirs starts
   * with the TypeScript loader (about 0.25 s). The frames are the same either way.
   */
  readonly offThread?: boolean;
}

/**
 * The frames of a recording in file order, in batches: every complete line of the (gunzipped)
 * file, parsed and validated as {@link RecordingReader.frames} does (same header check, same rules
 * for bad lines, time going back, repeated headers and a broken gzip stream:
 * {@link RecordingLineCheck}). One await per chunk instead of several per line: a replay spends its
 * time on the frames, not on async-iterator hops. A chunk is handed over in batches of about 64 KiB
 * of lines. Memory stays bounded by a few chunks and one batch's frames.
 *
 * The bytes are split into lines and the book and trades lines `decodeMarketLines` names decoded
 * ({@link lineTapes}), on this thread or on one of its own (`offThread`); only the other lines are
 * decoded as UTF-8 and parsed here. Those carry their line and the file's
 * {@link RecordingLineCheck} (`origin`), so that a frame the market parsers refuse later is still
 * reported by file and line.
 */
export async function* readFrameBatches(path: string, options: FrameBatchOptions = {}): AsyncGenerator<ReplayFrame[]> {
  const scales = options.decodeMarketLines;
  const check = lineCheckFor(path, options);
  const reader = new LineTapeReader(scales === undefined ? [] : [...scales.keys()], scales === undefined ? [] : [...scales.values()]);
  const onBytesRead = options.onBytesRead;
  let lineNo = 0;
  let broken: StreamBreak | undefined;
  let tapes: AsyncGenerator<LineTape> | undefined;
  try {
    tapes = await tapesOf(path, scales, options.offThread);
    for await (const tape of tapes) {
      if (tape.bytesRead > 0) onBytesRead?.(tape.bytesRead);
      reader.load(tape);
      let out: ReplayFrame[] = [];
      for (let kind = reader.next(); kind >= 0 && !check.stopped; kind = reader.next()) {
        if (kind === TAPE_BATCH_END) {
          if (out.length > 0) {
            yield out;
            out = [];
          }
          continue;
        }
        lineNo++;
        if (kind === TAPE_EMPTY) continue;
        if (kind === TAPE_RAW) {
          const text = reader.text.toString('utf8', reader.rawStart, reader.rawEnd);
          if (lineNo === 1) {
            check.header(text);
            continue;
          }
          const frame = check.general(text, lineNo);
          if (frame !== undefined) out.push({ t: frame.t, src: frame.src, msg: frame.msg, origin: check, line: lineNo });
          continue;
        }
        const decoded = reader.decodedLine();
        const t = decoded.t;
        if (t < check.lastTime) {
          const held = check.behind(t, lineNo);
          if (!Number.isNaN(held)) out.push(receivedLater(decoded, held));
          continue;
        }
        check.lastTime = t;
        out.push(decoded);
      }
      if (out.length > 0) yield out;
      if (check.stopped) break;
      broken = tape.end?.broken;
    }
    if (!check.stopped && broken !== undefined) {
      const error = brokenStreamError(path, lineNo, broken);
      if (lineNo === 0) throw error;
      check.broken(error);
    }
  } finally {
    await tapes?.return(undefined);
    check.finish(lineNo);
  }
  if (lineNo === 0) throw emptyRecording(path);
}

/**
 * The tapes of a recording. With lines to decode, the first chunk is read here; when it holds
 * lines the decoder took (a depth recording) and more follows, the rest is read on a thread of its
 * own (`offThread`, by default when the compiled code runs on a machine with a second core). A
 * recording of candles only, or of one chunk, is not worth a thread: about 10 MB and 25 ms.
 */
async function tapesOf(path: string, scales: ReadonlyMap<string, BookScales> | undefined, offThread: boolean | undefined): Promise<AsyncGenerator<LineTape>> {
  const here = lineTapes(path, scales);
  if (scales === undefined || scales.size === 0 || offThread === false || (offThread === undefined && !(runsCompiled() && availableParallelism() > 1))) return here;
  const first = await here.next();
  if (first.done === true) return here;
  const tape = first.value;
  if (tape.end !== undefined || (offThread === undefined && tape.decodedLines === 0)) return resumed(tape, here);
  await here.return(undefined);
  return resumed(tape, offThreadLineTapes(path, scales, tape.lines), tape.bytesRead);
}

/**
 * `first`, then the tapes of `rest`; `readAgain`: compressed bytes `rest` reads again from the
 * file's start, left out of its tapes' counts (progress counts each byte once).
 */
async function* resumed(first: LineTape, rest: AsyncGenerator<LineTape>, readAgain = 0): AsyncGenerator<LineTape> {
  try {
    yield first;
    let uncounted = readAgain;
    for await (const tape of rest) {
      if (uncounted === 0) {
        yield tape;
        continue;
      }
      const again = Math.min(uncounted, tape.bytesRead);
      uncounted -= again;
      yield { ...tape, bytesRead: tape.bytesRead - again };
    }
  } finally {
    await rest.return(undefined);
  }
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

