import { appendFileSync, mkdtempSync } from 'node:fs';
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
});
