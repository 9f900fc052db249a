import { ParseError } from '../../framework/model/errors.js';
import { RecordingError, type RecordingPosition, type RecordingProblem } from './recording-error.js';
import { parseRecordedFrame, parseRecordingHeader, type RecordedFrame, type RecordingHeader } from './recording-format.js';
import type { StreamBreak } from './recording-chunks.js';

/** Lines noted by number and reason per kind of problem; the rest are only counted. */
export const NOTED_LINES = 5;

/**
 * A frame may be this many milliseconds older than the frame before it (a wall clock stepped back a
 * little while recording): it is replayed at the earlier frame's time. Beyond it, see
 * {@link RecordingLineCheck}.
 */
export const DEFAULT_BACKWARDS_TOLERANCE_MS = 5;

/** A line by its number, and what was done with it or why. */
export interface LineNote {
  readonly line: number;
  readonly reason: string;
}

/** How many lines met one problem, and the first {@link NOTED_LINES} of them. */
export interface LineCount {
  readonly count: number;
  readonly first: readonly LineNote[];
}

/**
 * What reading one recording met besides clean frames (plain data, for the backtest report). All
 * counts are 0 and `stopped` is absent for a clean recording.
 */
export interface RecordingReadReport {
  readonly file: string;
  /** Lines read, the header included (the number of the last line read). */
  readonly lines: number;
  /** Lines that are not frames (bad JSON, missing or wrong fields, frames the market parsers refuse), skipped. */
  readonly malformedLines: LineCount;
  /** Frames older than the frame before them by more than the tolerance, skipped. */
  readonly timeBackwards: LineCount;
  /** Frames older than the frame before them by at most the tolerance, replayed at that frame's time. */
  readonly timeHeld: LineCount;
  /** Copies of the header line after line 1 (recordings joined end to end), passed over. */
  readonly repeatedHeaders: LineCount;
  /** Why reading stopped before the end of the file, and where; absent when the whole file was read. */
  readonly stopped?: RecordingStop;
}

/** Why reading a file stopped before its end, and where. */
export interface RecordingStop extends RecordingPosition {
  readonly problem: RecordingProblem;
  /** Where and why, without the file's name (`after line 812, compressed byte 40960: ...`). */
  readonly reason: string;
}

/** The {@link RecordingStop} an error describes. */
export function stopOf(error: RecordingError): RecordingStop {
  const reason = error.message.startsWith(`${error.file}: `) ? error.message.slice(error.file.length + 2) : error.message;
  return {
    problem: error.problem, reason,
    ...(error.line === undefined ? {} : { line: error.line }),
    ...(error.lastGoodLine === undefined ? {} : { lastGoodLine: error.lastGoodLine }),
    ...(error.compressedOffset === undefined ? {} : { compressedOffset: error.compressedOffset }),
  };
}

/** Options of {@link RecordingLineCheck}. */
export interface LineCheckOptions {
  /** Every problem is a {@link RecordingError} (true), or it is skipped, counted and reported (false). */
  readonly strict: boolean;
  readonly backwardsToleranceMs?: number;
  /** Told of the first few lines of each problem and of a stop, one line of text each. */
  readonly warn?: (message: string) => void;
}

class Counter {
  count = 0;
  readonly first: LineNote[] = [];
}

/**
 * The reading rules of one recording, shared by every reader so that they agree line for line:
 *
 * - line 1 must be the header (a file without one is a {@link RecordingError} in every mode);
 * - a copy of the header later in the file (files joined with `cat a.gz b.gz` or
 *   `zcat a b | gzip`) is passed over with a warning; the time rule below still applies across it;
 * - a header that differs from line 1 (another venue or other symbols) ends the file: what follows
 *   belongs to a recording this run did not load the instruments of;
 * - time never goes backwards in what a reader hands out: a frame at most the tolerance older than
 *   the frame before it is handed out at that frame's time; an older one is skipped;
 * - a line that is not a frame is skipped;
 * - a broken gzip stream ends the file after its last complete line (the cut line is dropped).
 *
 * In strict mode every skip or stop above (not the tolerated header copy, not a frame held within
 * the tolerance) is a {@link RecordingError} naming the file and the line instead.
 */
export class RecordingLineCheck {
  /** Time of the last frame handed out; a reader's hot path compares against it directly. */
  lastTime = -Infinity;
  /** Set when the rest of the file must not be read. */
  stopped = false;
  private lines = 0;
  private headerText = '';
  private headerKey = '';
  private stop: RecordingReadReport['stopped'];
  private readonly tolerance: number;
  private readonly malformed = new Counter();
  private readonly backwards = new Counter();
  private readonly held = new Counter();
  private readonly headers = new Counter();

  constructor(readonly file: string, private readonly options: LineCheckOptions) {
    this.tolerance = options.backwardsToleranceMs ?? DEFAULT_BACKWARDS_TOLERANCE_MS;
  }

  /** Line 1: the header, validated. */
  header(text: string): RecordingHeader {
    this.lines = 1;
    let header: RecordingHeader;
    try {
      const raw = JSON.parse(text) as { venue?: unknown; symbols?: unknown };
      header = parseRecordingHeader(raw);
      this.headerKey = JSON.stringify([raw.venue, raw.symbols ?? {}]);
    } catch (error) {
      const rule = error instanceof ParseError ? error.message : 'is not valid JSON';
      throw new RecordingError(this.file, 'no-header', `not a recording header: ${rule}`, { line: 1 });
    }
    this.headerText = text;
    return header;
  }

  /**
   * A frame at `t` after one at {@link lastTime} > `t`: the time to hand it out at, or NaN when it
   * is skipped.
   */
  behind(t: number, line: number): number {
    const back = this.lastTime - t;
    if (back <= this.tolerance) {
      this.note(this.held, line, `${ms(back)} ms older than the frame before it: replayed at that frame's time`, 1);
      return this.lastTime;
    }
    const reason = `time goes back ${ms(back)} ms (t ${t} after ${this.lastTime}), beyond the ${this.tolerance} ms tolerance`;
    if (this.options.strict) throw new RecordingError(this.file, 'time-backwards', reason, { line });
    this.note(this.backwards, line, `${reason}: frame skipped`);
    return Number.NaN;
  }

  /**
   * A line the byte decoder did not take: the frame it holds (its time checked), or undefined when
   * it is skipped or passed over (and {@link stopped} when the file must end here).
   */
  general(text: string, line: number): RecordedFrame | undefined {
    this.lines = line;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.malformedLine(line, 'not valid JSON');
      return undefined;
    }
    if ((value as { format?: unknown } | null)?.format === 'tradeloop.recording') {
      this.headerAgain(text, value as { venue?: unknown; symbols?: unknown }, line);
      return undefined;
    }
    let frame: RecordedFrame;
    try {
      frame = parseRecordedFrame(value, line);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      this.malformedLine(line, fieldRule(error, line));
      return undefined;
    }
    let t = frame.t;
    if (t < this.lastTime) {
      t = this.behind(t, line);
      if (Number.isNaN(t)) return undefined;
    }
    this.lastTime = t;
    return t === frame.t ? frame : { ...frame, t };
  }

  /** A line that is not a frame (or a frame the market parsers refuse): skipped, or a RecordingError in strict mode. */
  malformedLine(line: number, reason: string): void {
    if (this.options.strict) throw new RecordingError(this.file, 'malformed-line', reason, { line });
    this.note(this.malformed, line, `${reason}: line skipped`);
  }

  /** The gzip stream broke ({@link brokenStreamError}): thrown in strict mode, else reading ends here. */
  broken(error: RecordingError): void {
    if (this.options.strict) throw error;
    this.end(error);
  }

  /** Reading ended after `lines` lines (the number of the last line). */
  finish(lines: number): void {
    this.lines = Math.max(this.lines, lines);
  }

  /** What reading met so far. */
  report(): RecordingReadReport {
    const count = (c: Counter): LineCount => ({ count: c.count, first: [...c.first] });
    return {
      file: this.file, lines: this.lines, malformedLines: count(this.malformed), timeBackwards: count(this.backwards),
      timeHeld: count(this.held), repeatedHeaders: count(this.headers), ...(this.stop === undefined ? {} : { stopped: this.stop }),
    };
  }

  private headerAgain(text: string, raw: { venue?: unknown; symbols?: unknown }, line: number): void {
    if (text === this.headerText || JSON.stringify([raw.venue, raw.symbols ?? {}]) === this.headerKey) {
      this.note(this.headers, line, 'the header again (recordings joined end to end): passed over');
      return;
    }
    const error = new RecordingError(this.file, 'other-header', 'the header of another recording (venue or symbols differ from line 1): the rest of the file is not read', { line });
    if (this.options.strict) throw error;
    this.end(error);
  }

  private end(error: RecordingError): void {
    this.stopped = true;
    this.stop = stopOf(error);
    this.options.warn?.(error.message);
  }

  private note(counter: Counter, line: number, reason: string, warnings = NOTED_LINES): void {
    counter.count++;
    if (counter.first.length < NOTED_LINES) counter.first.push({ line, reason });
    if (counter.count <= warnings) this.options.warn?.(`${this.file}: line ${line}: ${reason}`);
  }
}

/** The RecordingError of a gzip stream that broke after line `lastGoodLine`. */
export function brokenStreamError(file: string, lastGoodLine: number, streamBreak: StreamBreak): RecordingError {
  const size = streamBreak.compressedSize > 0 ? `; the file has ${streamBreak.compressedSize} bytes` : '';
  return new RecordingError(file, lastGoodLine === 0 ? 'no-header' : 'damaged', `${streamBreak.reason}${size}`, {
    compressedOffset: streamBreak.compressedOffset, lastGoodLine,
  });
}

/** A ParseError about line `line` as a rule without the line number (`t: must be a number`). */
function fieldRule(error: ParseError, line: number): string {
  const prefix = `line ${line}`;
  const field = error.path.startsWith(prefix) ? error.path.slice(prefix.length).replace(/^\./, '') : error.path;
  const message = error.message.slice(error.path.length + 2);
  return field.length > 0 ? `${field}: ${message}` : message;
}

function ms(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
