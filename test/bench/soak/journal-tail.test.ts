import { appendFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalTail } from '../../../bench/soak/journal-tail.js';

describe('JournalTail', () => {
  it('reads only what was appended, keeps a line without its newline for later, and counts a line cut by a kill', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'journal-tail-')), 'bot.journal.jsonl');
    const tail = new JournalTail(file);
    expect(tail.poll()).toEqual([]);

    appendFileSync(file, '{"k":"start","pid":1}\n{"k":"order","id":"a');
    expect(tail.poll()).toEqual([{ k: 'start', pid: 1 }]);
    appendFileSync(file, '_1"}\n');
    expect(tail.poll()).toEqual([{ k: 'order', id: 'a_1' }]);

    // A record cut off by SIGKILL, then the next life's first record on the same line.
    appendFileSync(file, '{"k":"fill","id":"a_1",{"k":"start","pid":2}\n[1]\n{"k":"final","id":"a_1"}\n');
    expect(tail.poll()).toEqual([{ k: 'final', id: 'a_1' }]);
    expect(tail.unreadable).toEqual(['{"k":"fill","id":"a_1",{"k":"start","pid":2}', '[1]']);
    expect(tail.records.map((r) => r['k'])).toEqual(['start', 'order', 'final']);
  });

  it('follows a journal compacted by the next life: the snapshot adds only what is new, then the life\'s records come in', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'journal-tail-')), 'bot.journal.jsonl');
    const tail = new JournalTail(file);
    const lines = (records: readonly object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
    appendFileSync(file, lines([{ k: 'start', pid: 1 }, { k: 'order', id: 'a_1' }, { k: 'fill', id: 'a_1', trade: '7' }, { k: 'order', id: 'a_2' },
      { k: 'final', id: 'a_1', status: 'filled' }, { k: 'note', event: 'padding', text: 'x'.repeat(200) }]));
    expect(tail.poll()).toHaveLength(6);
    // The next life's compaction: a shorter file renamed over the journal, then its own records.
    writeFileSync(`${file}.compact`, lines([{ k: 'counters', counter: 2 }, { k: 'order', id: 'a_1' }, { k: 'fill', id: 'a_1', trade: '7' },
      { k: 'final', id: 'a_1', status: 'filled' }, { k: 'order', id: 'a_2' }, { k: 'start', pid: 2 }, { k: 'order', id: 'a_3' }]));
    renameSync(`${file}.compact`, file);
    expect(tail.poll()).toEqual([{ k: 'counters', counter: 2 }, { k: 'start', pid: 2 }, { k: 'order', id: 'a_3' }]);
    appendFileSync(file, lines([{ k: 'fill', id: 'a_3', trade: '8' }]));
    expect(tail.poll()).toEqual([{ k: 'fill', id: 'a_3', trade: '8' }]);
    expect(tail.records.filter((r) => r['k'] === 'order').map((r) => r['id'])).toEqual(['a_1', 'a_2', 'a_3']);
  });
});
