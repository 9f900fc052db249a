import * as fs from 'node:fs';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { Journal, type RecoveredState } from '../../framework/live/journal.js';
import { VirtualClock } from '../../framework/time/clock.js';

// Each step of the rewrite can be made to fail, as a kill at that moment would stop it.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return { ...actual, writeSync: vi.fn(actual.writeSync), fsyncSync: vi.fn(actual.fsyncSync), renameSync: vi.fn(actual.renameSync) };
});

const NOW = Date.UTC(2023, 10, 14, 22, 13, 20); // day 20231114
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.mocked(fs.writeSync).mockReset();
  vi.mocked(fs.fsyncSync).mockReset();
  vi.mocked(fs.renameSync).mockReset();
});

const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;

/**
 * A journal written by hand (an oracle apart from the Journal's writer): `finished` orders
 * canceled without executions, one filled order with two executions, two open orders (one with an
 * execution), intents and notes; the highest id of the day is b_20231114_<finished + 9>.
 */
function longJournal(finished: number): { dir: string; text: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'journal-compaction-'));
  dirs.push(dir);
  const order = (id: string, t: number, extra: Record<string, unknown> = {}) =>
    line({ k: 'order', t, id, intent: `s-${t}`, strategy: 's', symbol: 'BTCUSDT', side: 'buy', quantity: '1', ...extra });
  const fill = (id: string, trade: string, quantity: string) =>
    line({ k: 'fill', t: NOW, id, trade, quantity, price: '100', fee: '0.01', taker: false, time: NOW });
  let text = line({ k: 'start', t: NOW - 10_000, pid: 1 });
  text += order('b_20231114_1', NOW - 9000) + fill('b_20231114_1', 't1', '0.4') + fill('b_20231114_1', 't2', '0.6');
  text += line({ k: 'final', t: NOW, id: 'b_20231114_1', status: 'filled', reason: 'filled', executed: '1' });
  text += order('b_20231114_2', NOW - 8000) + fill('b_20231114_2', 't3', '0.25');
  text += order('b_20231114_3', NOW - 7000, { replaces: 'b_20231114_2', list: 'b_20231114_3', leg: 0 });
  for (let i = 0; i < finished; i++) {
    const id = `b_20231114_${i + 10}`;
    text += line({ k: 'intent', t: NOW, intent: `s-${i + 10}`, kind: 'place', strategy: 's' }) + order(id, NOW - 5000 + i);
    text += line({ k: 'final', t: NOW, id, status: 'canceled', reason: 'canceled', executed: '0' });
    text += line({ k: 'note', t: NOW, event: 'reconciled' });
  }
  text += line({ k: 'denied', t: NOW, intent: 's-999', check: 'balance', reason: 'short' });
  writeFileSync(path.join(dir, 'b.journal.jsonl'), text);
  return { dir, text };
}

const journalIn = (dir: string): Journal => new Journal({ dir, botId: 'b', syncEveryMs: 60_000, now: () => NOW });
const ids = () => new ClientOrderIdGenerator('b', new VirtualClock(NOW));

/** What a restart takes from a recovered state. */
function restartView(state: RecoveredState) {
  return {
    open: state.orders.filter((o) => !o.finished).map((o) => ({ ...o.info, quantity: o.info.quantity.toFixed(), fills: o.fills.map((f) => [f.tradeId, f.quantity.toFixed()]) })),
    fills: state.orders.flatMap((o) => o.fills.map((f) => [o.info.clientOrderId, f.tradeId, f.quantity.toFixed(), f.price.toFixed(), f.fee.toFixed()])),
    ids: state.ids,
    intents: [...state.intents].sort(),
  };
}

describe('Journal compaction on open', () => {
  it('keeps what a restart needs (open orders, executions, counters) and drops the rest', () => {
    const { dir } = longJournal(500);
    const journal = journalIn(dir);
    const before = journal.recover(ids());
    // Counters are base 36 in client_order_ids.
    expect(before.ids).toEqual({ day: '20231114', counter: Number.parseInt('509', 36) });
    const compaction = journal.open();
    journal.close();
    expect(compaction).toEqual({ linesBefore: 2009, linesAfter: 8 });
    const after = journalIn(dir).recover(ids());
    expect(restartView(after)).toEqual(restartView(before));
    expect(restartView(after).open.map((o) => o.clientOrderId)).toEqual(['b_20231114_2', 'b_20231114_3']);
    expect(after.intents.get('s')).toBe(999);
    expect(after.orders.find((o) => o.info.clientOrderId === 'b_20231114_1')).toMatchObject({ finished: true, final: { reason: 'filled' } });
    expect(existsSync(`${journal.file}.compact`)).toBe(false);
  });

  it('a journal compacted once is not rewritten again until it has something to drop', () => {
    const { dir } = longJournal(3);
    const first = journalIn(dir);
    first.recover(ids());
    expect(first.open()).toBeDefined();
    first.close();
    const second = journalIn(dir);
    second.recover(ids());
    // Counters and three orders (8 lines), and the first run's start mark, the one line to drop.
    expect(second.open()).toEqual({ linesBefore: 9, linesAfter: 8 });
    second.close();
    expect(readFileSync(first.file, 'utf8').split('\n').filter((l) => l.length > 0)).toHaveLength(9);
  });

  it('without the id generator there is no compaction (the id counter could not be kept)', () => {
    const { dir, text } = longJournal(3);
    const journal = journalIn(dir);
    journal.recover();
    expect(journal.open()).toBeUndefined();
    journal.close();
    expect(readFileSync(journal.file, 'utf8').startsWith(text)).toBe(true);
  });

  for (const [step, fn] of [['writing', 'writeSync'], ['fsync of the copy', 'fsyncSync'], ['rename', 'renameSync']] as const) {
    it(`a kill during the ${step} leaves the old journal whole: the restart reads the same`, () => {
      const { dir, text } = longJournal(50);
      const journal = journalIn(dir);
      const before = journal.recover(ids());
      vi.mocked(fs[fn]).mockImplementationOnce(() => {
        throw new Error(`killed during ${step}`);
      });
      expect(journal.open()).toMatchObject({ failed: `killed during ${step}` });
      journal.close();
      expect(readFileSync(journal.file, 'utf8').startsWith(text)).toBe(true);
      expect(restartView(journalIn(dir).recover(ids()))).toEqual(restartView(before));
    });
  }

  it('a short write (fewer bytes than asked) is carried on to the end: the copy is whole', async () => {
    const { dir } = longJournal(50);
    const journal = journalIn(dir);
    const before = journal.recover(ids());
    const actual = await vi.importActual<typeof fs>('node:fs');
    vi.mocked(fs.writeSync).mockImplementationOnce(((fd: number, bytes: Buffer, offset: number, length: number) =>
      actual.writeSync(fd, bytes, offset, Math.min(length, 100))) as typeof fs.writeSync);
    expect(journal.open()).toEqual({ linesBefore: 209, linesAfter: 8 });
    journal.close();
    expect(restartView(journalIn(dir).recover(ids()))).toEqual(restartView(before));
  });

  it('a half-written copy left by a kill is ignored, then replaced by the next compaction', () => {
    const { dir } = longJournal(50);
    const journal = journalIn(dir);
    writeFileSync(`${journal.file}.compact`, '{"k":"counters","t":1,"int');
    const before = journal.recover(ids());
    journal.open();
    journal.close();
    expect(existsSync(`${journal.file}.compact`)).toBe(false);
    expect(restartView(journalIn(dir).recover(ids()))).toEqual(restartView(before));
  });
});
