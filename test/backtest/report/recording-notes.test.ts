import { describe, expect, it } from 'vitest';
import type { RecordingReadReport } from '../../../backtest/recording/recording-line-check.js';
import { recordingNotesHtml } from '../../../backtest/report/recording-notes.js';
import type { BacktestResult } from '../../../backtest/report/backtest-result.js';
import { meta } from './result-fixture.js';

const none = { count: 0, first: [] };
const clean = (file: string): RecordingReadReport => ({ file, lines: 10, malformedLines: none, timeBackwards: none, timeHeld: none, repeatedHeaders: none });
const result = (reads?: RecordingReadReport[]): BacktestResult => ({
  meta: meta(reads === undefined ? {} : { recordingReads: reads }), initialBalances: {}, finalBalances: {}, fills: [], orders: [], equity: [], prices: {},
});

describe('recordingNotesHtml', () => {
  it('says nothing for a result without read reports, one quiet line when every file was read whole', () => {
    expect(recordingNotesHtml(result())).toBe('');
    expect(recordingNotesHtml(result([clean('a.jsonl'), clean('b.jsonl')]))).toBe('<p class="note">Recordings replayed whole: 2 file(s), no line skipped or reordered.</p>');
  });

  it('lists each troubled file with its counts, the first lines noted and where it stopped, escaped', () => {
    const troubled: RecordingReadReport = {
      ...clean('<b>.jsonl.gz'), lines: 812,
      malformedLines: { count: 7, first: [{ line: 3, reason: 'not valid JSON: line skipped' }, { line: 9, reason: 't: must be a number (got "<x>")' }] },
      timeBackwards: { count: 1, first: [{ line: 40, reason: 'time goes back 150 ms' }] },
      stopped: { problem: 'damaged', reason: 'compressed byte 4096, after line 812: the gzip stream is cut off', lastGoodLine: 812, compressedOffset: 4096 },
    };
    const html = recordingNotesHtml(result([clean('a.jsonl'), troubled]));
    expect(html).toContain('Not every recording was replayed as recorded.');
    expect(html).not.toContain('a.jsonl</code>');
    expect(html).toContain('<code>&lt;b&gt;.jsonl.gz</code> (812 lines read)');
    expect(html).toContain('<li>reading stopped, compressed byte 4096, after line 812: the gzip stream is cut off</li>');
    expect(html).toContain('7 malformed line(s) skipped (lines 3, 9, ...; first: not valid JSON: line skipped)');
    expect(html).toContain('1 frame(s) skipped because time went back beyond the tolerance (line 40)');
    expect(html).toContain('<li>malformed, line 9: t: must be a number (got &quot;&lt;x&gt;&quot;)</li>');
    expect(html).not.toMatch(/<x>|<b>/);
  });
});
