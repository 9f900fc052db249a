import { takeLines } from './chunk-lines.js';
import { LineTapeWriter, type LineTape } from './line-tape.js';
import { CandleLineDecoder } from './candle-line-decoder.js';
import { MarketLineDecoder, type BookScales } from './market-line-decoder.js';
import { RecordingChunks } from './recording-chunks.js';

/**
 * Bytes per read and per gunzip output chunk: 256 KiB. Each chunk is a round trip to the thread pool
 * and through the stream machinery (with 64 KiB chunks those trips cost a replay of the ETHUSDT
 * recording x10 about 0.1 s of its 1.3 s); each is also a buffer outside the heap that is freed
 * only when the collector finds its wrapper dead. At 256 KiB the trips cost nothing measurable.
 */
export const TAPE_CHUNK = 1 << 18;

/**
 * Bytes of lines between two batch ends: about 64 KiB, so a replay's batch of parsed frames dies
 * young (a larger batch keeps thousands of frames alive across scavenges, and the collector
 * promotes and later sweeps them).
 */
const BATCH_BYTES = 1 << 16;

/** Gunzipped bytes decompressed ahead (on the thread pool) while a chunk is split: two chunks. */
const READ_AHEAD = 2 * TAPE_CHUNK;

const CR = 0x0d;

/**
 * For a reader on another thread (the tapes are then in shared memory): before each tape after
 * the first, {@link slotsBack} gives the writer back the slots of the tapes read
 * ({@link LineTapeWriter.release}), waiting when the reader has all the slots it may have.
 */
export interface TapesRead {
  slotsBack(writer: LineTapeWriter): Promise<void>;
}

/** Options of {@link lineTapes}. */
export interface LineTapesOptions {
  /** For a reader on another thread: see {@link TapesRead}. */
  readonly tapesRead?: TapesRead;
  /** Lines not written (a reader that has them already): counted, nothing else. */
  readonly skipLines?: number;
}

/**
 * The lines of a recording (gunzipped when the name ends in `.gz`) as {@link LineTape}s, one per
 * chunk: split on the raw bytes, the book and trades lines of the symbols in `scales` decoded by a
 * {@link MarketLineDecoder} and their candle lines by a {@link CandleLineDecoder} (none without
 * `scales`), every other line left raw. Line 1 is always
 * raw (the header). The last tape carries `end`, with where the gzip stream broke if it did; a line
 * a break cuts is dropped whole (its beginning may well parse, and be wrong). Errors of the file
 * itself (missing, unreadable) are thrown.
 *
 * Pure work on bytes and no state shared with the replay, so it can run on a thread of its own
 * ({@link offThreadLineTapes}).
 */
export async function* lineTapes(path: string, scales?: ReadonlyMap<string, BookScales>, options: LineTapesOptions = {}): AsyncGenerator<LineTape> {
  const tapesRead = options.tapesRead;
  const skipLines = options.skipLines ?? 0;
  let bytesRead = 0;
  const chunks = new RecordingChunks(path, { chunkSize: TAPE_CHUNK, readAhead: READ_AHEAD, onBytesRead: (bytes) => (bytesRead += bytes) });
  const decoder = scales === undefined || scales.size === 0 ? undefined : new MarketLineDecoder(scales);
  const candleDecoder = decoder === undefined ? undefined : new CandleLineDecoder(decoder.symbols);
  const tape = new LineTapeWriter(decoder?.symbols ?? [], tapesRead !== undefined);
  let lineNo = 0;
  let sinceBatchEnd = 0;
  const take = (bytes: Buffer, start: number, end: number): void => {
    if (++lineNo <= skipLines) return;
    sinceBatchEnd += end - start + 1;
    if (end > start && bytes[end - 1] === CR) end--;
    if (lineNo === 1) tape.raw(bytes, start, end);
    else if (end === start) tape.empty();
    else {
      const decoded = decoder?.decode(bytes, start, end) ?? candleDecoder?.decode(bytes, start, end);
      if (decoded === undefined) tape.raw(bytes, start, end);
      else tape.decoded(decoded);
    }
    if (sinceBatchEnd >= BATCH_BYTES) {
      tape.batchEnd();
      sinceBatchEnd = 0;
    }
  };
  const handOver = (end?: LineTape['end']): LineTape => {
    const read = bytesRead;
    bytesRead = 0;
    // A batch never spans two tapes: the replay hands one over at each tape's end too.
    sinceBatchEnd = 0;
    return tape.take(read, end);
  };
  let rest: Buffer | undefined;
  try {
    for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) {
      rest = takeLines(rest, chunk, take);
      const handed = handOver();
      yield handed;
      // Asked for the next tape: the reader is through with this one (on this thread).
      if (tapesRead === undefined) tape.release(handed.slot);
      else await tapesRead.slotsBack(tape);
    }
    const broken = chunks.broken;
    if (broken === undefined && rest !== undefined) take(rest, 0, rest.length);
    yield handOver(broken === undefined ? {} : { broken });
  } finally {
    chunks.close();
  }
}
