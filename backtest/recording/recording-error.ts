import { TradeloopError } from '../../framework/model/errors.js';

/**
 * What is wrong with a recording: `damaged` (the gzip stream breaks: cut off, corrupt, not gzip),
 * `no-header` (nothing readable before the first complete line), `malformed-line` (a line that is
 * not a frame), `time-backwards` (a frame older than the one before it, beyond the tolerance),
 * `other-header` (another recording's header in the middle of the file).
 */
export type RecordingProblem = 'damaged' | 'no-header' | 'malformed-line' | 'time-backwards' | 'other-header';

/** Where in a recording a problem is; every field is optional, the message names those present. */
export interface RecordingPosition {
  /** 1-based number of the offending line. */
  readonly line?: number;
  /** The last complete line read before the problem (0: not even the header). */
  readonly lastGoodLine?: number;
  /** Offset in the file's compressed bytes (gzip) at which the stream broke. */
  readonly compressedOffset?: number;
}

/**
 * A recording that cannot be read as the format says (recording-format.md), naming the file, the
 * problem and where it is. Thrown by the readers in strict mode (and always when nothing of the file
 * is readable); in lenient mode the same facts are reported and the readable part is replayed.
 */
export class RecordingError extends TradeloopError {
  readonly code = 'RECORDING';
  readonly retryable = false;
  readonly line: number | undefined;
  readonly lastGoodLine: number | undefined;
  readonly compressedOffset: number | undefined;

  constructor(
    readonly file: string,
    readonly problem: RecordingProblem,
    readonly rule: string,
    position: RecordingPosition = {},
  ) {
    super(`${file}: ${where(position)}${rule}`);
    this.line = position.line;
    this.lastGoodLine = position.lastGoodLine;
    this.compressedOffset = position.compressedOffset;
  }
}

function where(position: RecordingPosition): string {
  const parts: string[] = [];
  if (position.line !== undefined) parts.push(`line ${position.line}`);
  if (position.compressedOffset !== undefined) parts.push(`compressed byte ${position.compressedOffset}`);
  if (position.lastGoodLine !== undefined) parts.push(position.lastGoodLine === 0 ? 'before the header line' : `after line ${position.lastGoodLine}`);
  return parts.length === 0 ? '' : `${parts.join(', ')}: `;
}
