import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { BookEvent, ResyncPort } from '../../../framework/exchange/book/book-event.js';
import { OrderBookKeeper } from '../../../framework/exchange/book/order-book-keeper.js';
import { ParseError } from '../../../framework/model/errors.js';

class FakeResync implements ResyncPort {
  readonly calls: [string, string[]][] = [];
  fail = false;
  async resync(channel: string, symbols: string[]): Promise<void> {
    this.calls.push([channel, symbols]);
    if (this.fail) throw new Error('socket closed');
  }
}

function message(kind: 'snapshot' | 'update', s: number, bids: [string, string][] = [], asks: [string, string][] = [], symbol = 'ETHUSDT'): unknown {
  return { ch: 'orderbook/full', [kind]: { [symbol]: { t: 1_700_000_000_000 + s, s, a: asks, b: bids } } };
}

function setup(): { keeper: OrderBookKeeper; port: FakeResync; events: BookEvent[] } {
  const port = new FakeResync();
  const events: BookEvent[] = [];
  const keeper = new OrderBookKeeper({ resync: port, onEvent: (e) => events.push(e) });
  return { keeper, port, events };
}

describe('OrderBookKeeper', () => {
  it('applies a snapshot then consecutive updates', () => {
    const { keeper, port, events } = setup();
    keeper.handleMessage(message('snapshot', 10, [['100', '1']], [['101', '1']]), 1);
    keeper.handleMessage(message('update', 11, [['100.5', '2']]), 2);
    keeper.handleMessage(message('update', 12, [], [['101', '0'], ['102', '3']]), 3);
    expect(events.map((e) => e.kind)).toEqual(['snapshot', 'update', 'update']);
    expect(keeper.book('ETHUSDT')?.bestBid()?.price).toBe('100.5');
    expect(keeper.book('ETHUSDT')?.bestAsk()?.price).toBe('102.0');
    expect(keeper.status('ETHUSDT')).toBe('live');
    expect(keeper.stats).toMatchObject({ snapshots: 1, updates: 2, gaps: 0 });
    expect(port.calls).toEqual([]);
  });

  it('ignores and counts updates before the first snapshot', () => {
    const { keeper, events } = setup();
    keeper.handleMessage(message('update', 5, [['1', '1']]), 0);
    keeper.handleMessage(message('update', 6, [['1', '1']]), 0);
    expect(keeper.book('ETHUSDT')).toBeUndefined();
    expect(keeper.status('ETHUSDT')).toBe('awaiting-snapshot');
    expect(keeper.stats.ignoredBeforeSnapshot).toBe(2);
    expect(events).toEqual([]);
  });

  it.each([
    ['a skipped message', [12], 11, 12, 0],
    ['a duplicate', [11, 11], 12, 11, 0],
    ['an older message', [11, 10], 12, 10, 0],
    ['a reordered pair', [12, 11], 11, 12, 1],
  ])('treats %s as a gap: stale, dropped, resync requested, then resynced', async (_name, sequences, expected, got, ignoredAfterGap) => {
    const { keeper, port, events } = setup();
    keeper.handleMessage(message('snapshot', 10, [['100', '1']], [['101', '1']]), 0);
    for (const s of sequences) keeper.handleMessage(message('update', s, [['99', '1']]), 0);
    const stale = events.find((e) => e.kind === 'stale');
    expect(stale).toEqual({ kind: 'stale', symbol: 'ETHUSDT', reason: { kind: 'gap', expected, got } });
    expect(keeper.book('ETHUSDT')).toBeUndefined();
    expect(keeper.status('ETHUSDT')).toBe('stale');
    expect(port.calls).toEqual([['orderbook/full', ['ETHUSDT']]]);
    expect(keeper.stats.gaps).toBe(1);
    // Updates are dropped until the snapshot; the new snapshot restarts the sequence.
    keeper.handleMessage(message('update', 13), 0);
    expect(keeper.stats.ignoredWhileStale).toBe(ignoredAfterGap + 1);
    await Promise.resolve();
    keeper.handleMessage(message('snapshot', 500, [['98', '1']], [['99.5', '1']]), 0);
    keeper.handleMessage(message('update', 501, [['98.5', '1']]), 0);
    expect(events.slice(-2).map((e) => e.kind)).toEqual(['resynced', 'update']);
    expect(keeper.book('ETHUSDT')?.bestBid()?.price).toBe('98.5');
    expect(port.calls).toHaveLength(1);
  });

  it('drops a book that an update leaves crossed', () => {
    const { keeper, port, events } = setup();
    keeper.handleMessage(message('snapshot', 1, [['100', '1']], [['101', '1']]), 0);
    keeper.handleMessage(message('update', 2, [['101', '1']]), 0);
    expect(events.at(-1)).toEqual({ kind: 'stale', symbol: 'ETHUSDT', reason: { kind: 'crossed', sequence: 2 } });
    expect(keeper.book('ETHUSDT')).toBeUndefined();
    expect(keeper.stats.crossed).toBe(1);
    expect(port.calls).toHaveLength(1);
  });

  it('marks the named symbol stale on a malformed frame and rethrows the ParseError', () => {
    const { keeper, port } = setup();
    keeper.handleMessage(message('snapshot', 1, [['100', '1']], [['101', '1']]), 0);
    expect(() => keeper.handleMessage({ ch: 'orderbook/full', update: { ETHUSDT: { t: 1, s: 'x' } } }, 0)).toThrow(ParseError);
    expect(keeper.status('ETHUSDT')).toBe('stale');
    expect(port.calls).toHaveLength(1);
  });

  it('marks a book stale when a level cannot be applied', () => {
    const { keeper, events } = setup();
    keeper.handleMessage(message('snapshot', 1, [['100', '1']], [['101', '1']]), 0);
    keeper.handleMessage(message('update', 2, [['9x9', '1']]), 0);
    expect(events.at(-1)).toMatchObject({ kind: 'stale', reason: { kind: 'invalid', sequence: 2 } });
    expect(keeper.stats.invalid).toBe(1);
  });

  it('keeps symbols independent', () => {
    const { keeper } = setup();
    keeper.handleMessage(message('snapshot', 1, [['1', '1']], [], 'A'), 0);
    keeper.handleMessage(message('snapshot', 50, [['2', '1']], [], 'B'), 0);
    keeper.handleMessage(message('update', 2, [['1.5', '1']], [], 'A'), 0);
    keeper.handleMessage(message('update', 51, [['2.5', '1']], [], 'B'), 0);
    expect(keeper.symbols()).toEqual(['A', 'B']);
    expect(keeper.stats.gaps).toBe(0);
  });

  it('reports a failed resync, and retries on request', async () => {
    const { keeper, port, events } = setup();
    port.fail = true;
    keeper.handleMessage(message('snapshot', 1, [['100', '1']], [['101', '1']]), 0);
    keeper.handleMessage(message('update', 3), 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.at(-1)).toEqual({ kind: 'stale', symbol: 'ETHUSDT', reason: { kind: 'resync-failed', message: 'Error: socket closed' } });
    expect(keeper.stats.resyncFailures).toBe(1);
    port.fail = false;
    await keeper.resync('ETHUSDT');
    expect(port.calls).toHaveLength(2);
  });

  it('publishes the same events on its Observable', async () => {
    const keeper = new OrderBookKeeper({ resync: new FakeResync() });
    const collected = firstValueFrom(keeper.events.pipe(toArray()));
    keeper.handleMessage(message('snapshot', 1, [['100', '1']], [['101', '1']]), 0);
    keeper.handleMessage(message('update', 2, [['99', '1']]), 0);
    keeper.handleMessage(message('update', 4), 0);
    keeper.close();
    expect((await collected).map((e) => e.kind)).toEqual(['snapshot', 'update', 'stale']);
  });
});
