import { StringDecoder } from 'node:string_decoder';
import { RecordingChunks } from './recording-chunks.js';
import { RecordingError } from './recording-error.js';
import type { RecordedFrame, RecordingHeader } from './recording-format.js';
import { brokenStreamError, RecordingLineCheck, type LineCheckOptions } from './recording-line-check.js';
import type { RecordingReadLog } from './recording-read-log.js';

/**
 * Bytes read and gunzipped at a time for a header alone: a header is a line of a few hundred
 * bytes, and a backtest reads each recording's header before it replays it.
 */
const HEADER_CHUNK = 1 << 14;

/** Options of {@link RecordingReader}. */
export interface RecordingReaderOptions {
  /**
   * What to do with a damaged recording (see {@link RecordingLineCheck} for the rules): `throw`
   * (strict) makes every problem a {@link RecordingError} naming the file and the line; `skip`
   * reads what is readable, skipping bad lines and stopping at a broken gzip stream, and reports
   * it through `log`.
   */
  readonly onError?: 'throw' | 'skip';
  /** Notes what was skipped, per file, and warns as it goes. */
  readonly log?: RecordingReadLog;
  /** How far a frame's time may go back and still be replayed (at the earlier time); 5 ms by default. */
  readonly backwardsToleranceMs?: number;
  /** Told of every chunk read from disk (its size in bytes, compressed), for progress and ETA. */
  readonly onBytesRead?: (bytes: number) => void;
}

/** The reading rules of `path` under `options`, noted in the options' log when there is one. */
export function lineCheckFor(path: string, options: RecordingReaderOptions): RecordingLineCheck {
  const rules: LineCheckOptions = { strict: options.onError !== 'skip', backwardsToleranceMs: options.backwardsToleranceMs };
  return options.log?.open(path, rules) ?? new RecordingLineCheck(path, rules);
}

/**
 * Streams a recording (JSON Lines, gzip when the name ends in `.gz`) in constant memory: the
 * header first, then one frame at a time in file order, by the rules of {@link RecordingLineCheck}.
 */
export class RecordingReader {
  private headerValue: RecordingHeader | undefined;

  constructor(
    readonly path: string,
    private readonly options: RecordingReaderOptions = {},
  ) {}

  /** The header, available once iteration has started (or after {@link readHeader}). */
  get header(): RecordingHeader | undefined {
    return this.headerValue;
  }

  /** Reads only the header line; a {@link RecordingError} when the file has none. */
  async readHeader(): Promise<RecordingHeader> {
    const check = new RecordingLineCheck(this.path, { strict: true });
    for await (const line of readLines(this.path, HEADER_CHUNK)) {
      this.headerValue = check.header(line);
      return this.headerValue;
    }
    throw emptyRecording(this.path);
  }

  /** The frames in file order; the header is parsed first and kept in {@link header}. */
  async *frames(): AsyncGenerator<RecordedFrame> {
    const check = lineCheckFor(this.path, this.options);
    let lineNo = 0;
    try {
      for await (const line of readLines(this.path)) {
        lineNo++;
        if (lineNo === 1) {
          this.headerValue = check.header(line);
          continue;
        }
        if (line.length === 0) continue;
        const frame = check.general(line, lineNo);
        if (check.stopped) return;
        if (frame !== undefined) yield frame;
      }
    } catch (error) {
      if (!(error instanceof RecordingError) || error.problem !== 'damaged' || error.file !== this.path) throw error;
      check.broken(error);
      return;
    } finally {
      check.finish(lineNo);
    }
    if (lineNo === 0) throw emptyRecording(this.path);
  }
}

/** The error of a recording without a single line. */
export function emptyRecording(path: string): RecordingError {
  return new RecordingError(path, 'no-header', 'the recording is empty (no header line)');
}

/**
 * Splits a (possibly gzipped) file into lines without readline's per-line overhead; memory stays
 * bounded by the longest line plus one chunk. A broken gzip stream ends the lines after the last
 * complete one (the cut line is not handed out) with a {@link RecordingError} (`damaged`, or
 * `no-header` when not even line 1 is complete) naming the compressed offset and that line.
 * `chunkSize`: bytes per read and per gunzip output chunk.
 */
export async function* readLines(path: string, chunkSize = 1 << 20): AsyncGenerator<string> {
  const chunks = new RecordingChunks(path, { chunkSize });
  const utf8 = new StringDecoder('utf8');
  let rest = '';
  let lines = 0;
  try {
    for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) {
      const text = rest + utf8.write(chunk);
      let start = 0;
      let nl = text.indexOf('\n', start);
      while (nl >= 0) {
        lines++;
        yield text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl);
        start = nl + 1;
        nl = text.indexOf('\n', start);
      }
      rest = text.slice(start);
    }
    const broken = chunks.broken;
    if (broken !== undefined) throw brokenStreamError(path, lines, broken);
    rest += utf8.end();
    if (rest.length > 0) yield rest;
  } finally {
    chunks.close();
  }
}
