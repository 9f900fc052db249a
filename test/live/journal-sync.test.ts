import * as fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal } from '../../framework/live/journal.js';
import { dec } from '../../framework/model/decimal.js';

// fsyncSync is observed (and still done): it is what makes a record durable.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return { ...actual, fsyncSync: vi.fn(actual.fsyncSync), fsync: vi.fn(actual.fsync) };
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.mocked(fs.fsyncSync).mockClear();
  vi.mocked(fs.fsync).mockClear();
  vi.useRealTimers();
});

function journal(syncEveryMs: number, durable?: boolean): Journal {
  const dir = mkdtempSync(path.join(tmpdir(), 'journal-sync-'));
  dirs.push(dir);
  return new Journal({ dir, botId: 'b', syncEveryMs, now: () => 0, durable });
}

const order = { clientOrderId: 'b_19700101_1', intentId: 'i', strategyId: 's', symbol: 'BTCUSDT', side: 'buy' as const, quantity: dec('1') };

describe('Journal durability', () => {
  it('fsyncs an order before onTrack returns, while other records wait for the sync period', () => {
    const j = journal(60_000);
    j.open();
    const fsync = vi.mocked(fs.fsyncSync);
    expect(fsync).not.toHaveBeenCalled();
    j.note('reconciled');
    expect(fsync).not.toHaveBeenCalled();
    j.onTrack(order);
    expect(fsync).toHaveBeenCalledTimes(1);
    // Every order is synced on its own, whatever the period.
    j.onTrack({ ...order, clientOrderId: 'b_19700101_2' });
    expect(fsync).toHaveBeenCalledTimes(2);
    j.close();
    expect(fsync).toHaveBeenCalledTimes(3);
  });

  it('syncEveryMs 0 fsyncs every record', () => {
    const j = journal(0);
    j.open();
    const fsync = vi.mocked(fs.fsyncSync);
    expect(fsync).toHaveBeenCalledTimes(1);
    j.note('a');
    j.note('b');
    expect(fsync).toHaveBeenCalledTimes(3);
    j.close();
  });

  it('flushes other records after the sync period in the background, never blocking the event loop', () => {
    vi.useFakeTimers();
    const j = journal(100);
    j.open();
    j.note('reconciled');
    vi.advanceTimersByTime(99);
    expect(fs.fsync).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fs.fsync).toHaveBeenCalledTimes(1);
    expect(fs.fsyncSync).not.toHaveBeenCalled();
    // Nothing new written: the next period flushes nothing.
    vi.advanceTimersByTime(500);
    expect(fs.fsync).toHaveBeenCalledTimes(1);
    j.close();
    expect(fs.fsyncSync).toHaveBeenCalledTimes(1);
  });

  it('never fsyncs when not durable (a paper run\'s journal), yet writes every record at once', () => {
    vi.useFakeTimers();
    const j = journal(0, false);
    j.open();
    j.onTrack(order);
    j.note('reconciled');
    vi.advanceTimersByTime(1_000);
    j.close();
    expect(fs.fsyncSync).not.toHaveBeenCalled();
    expect(fs.fsync).not.toHaveBeenCalled();
    const kinds = fs.readFileSync(j.file, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => (JSON.parse(l) as { k: string }).k);
    expect(kinds).toEqual(['start', 'order', 'note']);
  });

  it('writes nothing before open and after close', () => {
    const j = journal(0);
    j.onTrack(order);
    expect(fs.existsSync(j.file)).toBe(false);
    j.open();
    j.close();
    j.note('late');
    expect(fs.readFileSync(j.file, 'utf8').split('\n').filter((l) => l.length > 0)).toHaveLength(1);
  });
});
