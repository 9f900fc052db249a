import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { ParseError } from '../../framework/model/errors.js';
import { parseRecordedFrame, parseRecordingHeader, type RecordedFrame, type RecordingHeader } from './recording-format.js';

/** Options of {@link RecordingReader}. */
export interface RecordingReaderOptions {
  /**
   * What to do with a line that is not valid JSON or not a frame: `throw` stops the read,
   * `skip` drops the line and reports it through `onBadLine` (a recording cut off mid-line by a
   * crash ends with such a line).
   */
  readonly onError?: 'throw' | 'skip';
  readonly onBadLine?: (error: ParseError) => void;
  /** Told of every chunk read from disk (its size in bytes, compressed), for progress and ETA. */
  readonly onBytesRead?: (bytes: number) => void;
}

/**
 * Streams a recording (JSON Lines, gzip when the name ends in `.gz`) in constant memory: the
 * header first, then one frame at a time in file order.
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

  /** Reads only the header line. */
  async readHeader(): Promise<RecordingHeader> {
    for await (const line of readLines(this.path)) {
      this.headerValue = parseRecordingHeader(parseJson(line, 1));
      return this.headerValue;
    }
    throw new ParseError(this.path, 'recording is empty (no header line)');
  }

  /** The frames in file order; the header is parsed first and kept in {@link header}. */
  async *frames(): AsyncGenerator<RecordedFrame> {
    let lineNo = 0;
    for await (const line of readLines(this.path)) {
      lineNo++;
      if (lineNo === 1) {
        this.headerValue = parseRecordingHeader(parseJson(line, 1));
        continue;
      }
      if (line.length === 0) continue;
      let frame: RecordedFrame;
      try {
        frame = parseRecordedFrame(parseJson(line, lineNo), lineNo);
      } catch (error) {
        if (this.options.onError !== 'skip' || !(error instanceof ParseError)) throw error;
        this.options.onBadLine?.(error);
        continue;
      }
      yield frame;
    }
    if (lineNo === 0) throw new ParseError(this.path, 'recording is empty (no header line)');
  }
}

function parseJson(line: string, lineNo: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new ParseError(`line ${lineNo}`, 'is not valid JSON', line);
  }
}

/**
 * Splits a (possibly gzipped) file into lines without readline's per-line overhead; memory stays
 * bounded by the longest line plus one chunk.
 */
export async function* readLines(path: string): AsyncGenerator<string> {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const source = path.endsWith('.gz') ? file.pipe(createGunzip({ chunkSize: 1 << 20 })) : file;
  source.setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of source as AsyncIterable<string>) {
      let text = rest + chunk;
      let start = 0;
      let nl = text.indexOf('\n', start);
      while (nl >= 0) {
        yield text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl);
        start = nl + 1;
        nl = text.indexOf('\n', start);
      }
      text = text.slice(start);
      rest = text;
    }
    if (rest.length > 0) yield rest;
  } finally {
    file.destroy();
  }
}
