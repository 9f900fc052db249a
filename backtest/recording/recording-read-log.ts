import type { RecordingError } from './recording-error.js';
import { RecordingLineCheck, stopOf, type LineCheckOptions, type RecordingReadReport } from './recording-line-check.js';

/**
 * What the readers of one run met in each recording: the {@link RecordingLineCheck} of every file
 * read, plus the files that had nothing readable, in the order they were opened. A backtest keeps
 * one and puts its {@link reports} in the result.
 */
export class RecordingReadLog {
  private readonly entries: (RecordingLineCheck | RecordingReadReport)[] = [];

  /** `warn` is told of each problem as it is met (first few lines of each kind) and of every stop. */
  constructor(readonly warn?: (message: string) => void) {}

  /** The rules for reading `file`, noted in this log. */
  open(file: string, options: Omit<LineCheckOptions, 'warn'>): RecordingLineCheck {
    const check = new RecordingLineCheck(file, { ...options, warn: this.warn });
    this.entries.push(check);
    return check;
  }

  /** A file skipped whole because nothing of it is readable (no header line). */
  unreadable(error: RecordingError): void {
    this.warn?.(`${error.message}; the file is not replayed`);
    const none = { count: 0, first: [] };
    this.entries.push({
      file: error.file, lines: error.lastGoodLine ?? 0, malformedLines: none, timeBackwards: none, timeHeld: none, repeatedHeaders: none,
      stopped: stopOf(error),
    });
  }

  /** One report per file, in the order they were opened. */
  reports(): RecordingReadReport[] {
    return this.entries.map((e) => (e instanceof RecordingLineCheck ? e.report() : e));
  }
}

/** True when a file was read whole and every line of it replayed as it was. */
export function readClean(report: RecordingReadReport): boolean {
  return report.stopped === undefined && report.malformedLines.count === 0 && report.timeBackwards.count === 0
    && report.timeHeld.count === 0 && report.repeatedHeaders.count === 0;
}

/**
 * One sentence per problem a file met (empty for a clean file): counts with the first line
 * numbers, and where reading stopped. For the console and the report page.
 */
export function describeRecordingRead(report: RecordingReadReport): string[] {
  const out: string[] = [];
  const lines = (c: RecordingReadReport['malformedLines']): string => {
    const shown = c.first.map((n) => n.line).join(', ');
    return `line${c.count === 1 ? '' : 's'} ${shown}${c.count > c.first.length ? ', ...' : ''}`;
  };
  if (report.stopped !== undefined) out.push(`reading stopped, ${report.stopped.reason}`);
  if (report.malformedLines.count > 0) out.push(`${report.malformedLines.count} malformed line(s) skipped (${lines(report.malformedLines)}; first: ${report.malformedLines.first[0]!.reason})`);
  if (report.timeBackwards.count > 0) out.push(`${report.timeBackwards.count} frame(s) skipped because time went back beyond the tolerance (${lines(report.timeBackwards)})`);
  if (report.timeHeld.count > 0) out.push(`${report.timeHeld.count} frame(s) slightly older than the frame before them replayed at its time (${lines(report.timeHeld)})`);
  if (report.repeatedHeaders.count > 0) out.push(`${report.repeatedHeaders.count} repeated header line(s) passed over (${lines(report.repeatedHeaders)})`);
  return out;
}
