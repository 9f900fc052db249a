import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import { ParseError } from '../../framework/model/errors.js';
import type { TradesEvent } from '../../framework/model/stream/market-events.js';
import type { MarketLineDecoder } from '../recording/market-line-decoder.js';
import { RecordingChunks } from '../recording/recording-chunks.js';
import { brokenStreamError } from '../recording/recording-line-check.js';
import { parseRecordedFrame, parseRecordingHeader, type RecordedFrame } from '../recording/recording-format.js';

/**
 * An `orderbook/full` or `trades` line of the public stream, decoded straight from its bytes (no
 * JSON.parse), with the message exactly as recorded: subscribers of every symbol it carries get
 * those bytes, not a re-serialised copy.
 */
export interface DecodedMarketFrame {
  readonly t: number;
  readonly src: 'ws/public';
  readonly msg?: undefined;
  readonly channel: 'orderbook/full' | 'trades';
  /** The `msg` of the line, byte for byte (UTF-8 JSON). */
  readonly text: Buffer;
  readonly books: readonly ScaledOrderBookFrame[];
  readonly events: readonly TradesEvent[];
}

/** What the sandbox's market feed hands over: a recorded frame, or a decoded book or trades line. */
export type FeedFrame = (RecordedFrame & { readonly text?: undefined }) | DecodedMarketFrame;

const CHUNK = 1 << 18;
const NEWLINE = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const FRAME_START_LENGTH = '{"t":'.length;
const SRC_AND_MSG_KEY_LENGTH = ',"src":"ws/public","msg":'.length;
/** Where the channel name starts in `{"ch":"...`, and the first letter of `orderbook/full` (the other is `trades`). */
const CHANNEL_INITIAL_AT = '{"ch":"'.length;
const BOOK_INITIAL = 'o'.charCodeAt(0);

/**
 * The frames of a recording in file order, in batches of one file chunk (one await per chunk).
 * Lines the `decoder` takes (the canonical `orderbook/full` and `trades` lines of the symbols it
 * knows, nearly all of a depth recording) become {@link DecodedMarketFrame}s; every other line is
 * parsed and validated as {@link RecordingReader.frames} does (a bad line throws).
 */
export async function* readMarketBatches(path: string, decoder: MarketLineDecoder): AsyncGenerator<FeedFrame[]> {
  // Two chunks decompressed ahead on the thread pool while the feed works on one.
  const chunks = new RecordingChunks(path, { chunkSize: CHUNK, readAhead: 2 * CHUNK });
  let lineNo = 0;
  let out: FeedFrame[] = [];
  const take = (bytes: Buffer, start: number, end: number): void => {
    lineNo++;
    if (end > start && bytes[end - 1] === CR) end--;
    if (lineNo === 1) {
      parseRecordingHeader(parseJson(bytes.toString('utf8', start, end), 1));
      return;
    }
    if (end === start) return;
    const decoded = decoder.decode(bytes, start, end);
    if (decoded !== undefined) {
      // The decoder took the canonical layout {"t":..,"src":"ws/public","msg":{..}}: msg runs from its key to the last
      // byte but one, and the first comma (the time is a plain number) starts the fixed text before it.
      let comma = start + FRAME_START_LENGTH;
      while (bytes[comma] !== COMMA) comma++;
      const msgStart = comma + SRC_AND_MSG_KEY_LENGTH;
      const channel = bytes[msgStart + CHANNEL_INITIAL_AT] === BOOK_INITIAL ? 'orderbook/full' : 'trades';
      out.push({ t: decoded.t, src: 'ws/public', channel, text: bytes.subarray(msgStart, end - 1), books: decoded.books, events: decoded.events });
      return;
    }
    out.push(parseRecordedFrame(parseJson(bytes.toString('utf8', start, end), lineNo), lineNo));
  };
  let rest: Buffer | undefined;
  try {
    for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) {
      let start = 0;
      let nl = chunk.indexOf(NEWLINE);
      if (rest !== undefined) {
        // Only the line cut by the chunk boundary is copied, not the whole chunk.
        if (nl < 0) {
          rest = Buffer.concat([rest, chunk]);
          continue;
        }
        const line = Buffer.concat([rest, chunk.subarray(0, nl)]);
        take(line, 0, line.length);
        start = nl + 1;
        nl = chunk.indexOf(NEWLINE, start);
      }
      while (nl >= 0) {
        take(chunk, start, nl);
        start = nl + 1;
        nl = chunk.indexOf(NEWLINE, start);
      }
      rest = start < chunk.length ? chunk.subarray(start) : undefined;
      if (out.length > 0) {
        yield out;
        out = [];
      }
    }
    // The sandbox serves a recording strictly: a broken gzip stops it, named by file and line.
    const broken = chunks.broken;
    if (broken !== undefined) throw brokenStreamError(path, lineNo, broken);
    if (rest !== undefined) take(rest, 0, rest.length);
    if (out.length > 0) yield out;
  } finally {
    chunks.close();
  }
  if (lineNo === 0) throw new ParseError(path, 'recording is empty (no header line)');
}

function parseJson(line: string, lineNo: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new ParseError(`line ${lineNo}`, 'is not valid JSON', line);
  }
}
