import type { LineCount, RecordingReadReport } from '../recording/recording-line-check.js';
import { describeRecordingRead, readClean } from '../recording/recording-read-log.js';
import type { BacktestResult } from './backtest-result.js';
import { escapeHtml } from './html-escape.js';

const BOX = 'border:1px solid #d9a400;background:#fff8e1;padding:4px 14px;margin:12px 0';

/**
 * The report page's notes on the recordings: a warning box at the top of the page when any file
 * was not replayed as recorded (a damaged file cut short, lines skipped, frames held or skipped
 * because time went back, repeated headers), with one sentence per problem and the first lines
 * noted of each kind; one quiet line when every file was replayed whole; nothing for a result
 * without read reports. All text is escaped.
 */
export function recordingNotesHtml(result: BacktestResult): string {
  const reads = result.meta.recordingReads;
  if (reads === undefined) return '';
  const troubled = reads.filter((r) => !readClean(r));
  if (troubled.length === 0) return `<p class="note">Recordings replayed whole: ${reads.length} file(s), no line skipped or reordered.</p>`;
  const files = troubled.map((report) => {
    const sentences = describeRecordingRead(report).map((s) => `<li>${escapeHtml(s)}</li>`).join('');
    return `<li><code>${escapeHtml(report.file)}</code> (${report.lines} lines read)<ul>${sentences}</ul>${notedLines(report)}</li>`;
  });
  return `<div class="recording-notes" style="${BOX}">
<p><strong>Not every recording was replayed as recorded.</strong> Counts per file are in summary.json (<code>meta.recordingReads</code>).</p>
<ul>
${files.join('\n')}
</ul>
</div>`;
}

function notedLines(report: RecordingReadReport): string {
  const kinds: readonly (readonly [string, LineCount])[] = [
    ['malformed', report.malformedLines], ['time back', report.timeBackwards], ['time held', report.timeHeld], ['header again', report.repeatedHeaders],
  ];
  const rows = kinds.flatMap(([kind, count]) => count.first.map((n) => `<li>${escapeHtml(kind)}, line ${n.line}: ${escapeHtml(n.reason)}</li>`));
  return rows.length === 0 ? '' : `<details><summary>First lines noted</summary><ul>${rows.join('')}</ul></details>`;
}
