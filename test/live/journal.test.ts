import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { OrderTracker, type TrackedOrderInfo } from '../../framework/execution/order-tracker.js';
import { Journal } from '../../framework/live/journal.js';
import { dec } from '../../framework/model/decimal.js';
import { VirtualClock } from '../../framework/time/clock.js';

const NOW = Date.UTC(2023, 10, 14, 22, 13, 20); // day 20231114
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function journalIn(dir?: string, syncEveryMs = 60_000): Journal {
  const where = dir ?? mkdtempSync(path.join(tmpdir(), 'journal-'));
  if (dir === undefined) dirs.push(where);
  return new Journal({ dir: where, botId: 'b', syncEveryMs, now: () => NOW });
}

const lines = (journal: Journal): Record<string, unknown>[] =>
  readFileSync(journal.file, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as Record<string, unknown>);

/** A tracker the exchange answered `status` for. */
const finished = (clientOrderId: string, status: 'canceled' | 'filled'): OrderTracker => {
  const tracker = new OrderTracker(info(clientOrderId));
  tracker.applyOrder({
    id: '1', client_order_id: clientOrderId, symbol: 'BTCUSDT', side: 'buy', status, type: 'limit', time_in_force: 'GTC', quantity: dec('1.5'),
    quantity_cumulative: dec(status === 'filled' ? '1.5' : '0'), price: dec('100'), post_only: false, created_at: NOW, updated_at: NOW,
  });
  return tracker;
};

const info = (clientOrderId: string, extra: Partial<TrackedOrderInfo> = {}): TrackedOrderInfo => ({
  clientOrderId, intentId: `i-${clientOrderId}`, strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('1.5'), ...extra,
});

describe('Journal records and recovery', () => {
  it('an order is on disk when onTrack returns, before any sync timer', () => {
    const journal = journalIn();
    journal.open();
    journal.onTrack(info('b_20231114_1'));
    expect(lines(journal).map((r) => [r['k'], r['id']])).toEqual([['start', undefined], ['order', 'b_20231114_1']]);
    journal.onVerdict({ kind: 'denied', intent: { kind: 'cancel', intentId: 'x', strategyId: 's', clientOrderId: 'c' }, check: 'balance', reason: 'short', time: NOW });
    expect(lines(journal).at(-1)).toMatchObject({ k: 'denied', intent: 'x', check: 'balance' });
    journal.close();
  });

  it('recover() restores orders, fills once per trade, finished flags (final statuses) and today\'s id counter', () => {
    const journal = journalIn();
    journal.open();
    const leg0 = info('b_20231114_1', { orderListId: 'b_20231114_1', leg: 0 });
    journal.onTrack(leg0);
    journal.onTrack(info('b_20231114_a', { side: 'sell', quantity: dec('2'), replaces: 'b_20231114_1' }));
    journal.onTrack(info('b_20231113_z'));
    const fill = { tradeId: 't1', quantity: dec('0.5'), price: dec('100'), fee: dec('0.05'), taker: false, time: NOW };
    journal.onFill(leg0, fill);
    journal.onFill(leg0, fill);
    journal.onFill(leg0, { tradeId: 't2', quantity: dec('0.25'), price: dec('101'), fee: dec('0'), time: NOW });
    // An execution of an order the journal never saw placed is left out.
    journal.onFill(info('b_20231114_9'), { ...fill, tradeId: 't3' });
    journal.onOrderFinished(finished('b_20231114_a', 'canceled'));
    journal.close();

    const recovered = journalIn(path.dirname(journal.file)).recover(new ClientOrderIdGenerator('b', new VirtualClock(NOW)));
    expect(recovered.skippedLines).toBe(0);
    expect(recovered.ids).toEqual({ day: '20231114', counter: 10 });
    const byId = new Map(recovered.orders.map((o) => [o.info.clientOrderId, o]));
    expect([...byId.keys()]).toEqual(['b_20231114_1', 'b_20231114_a', 'b_20231113_z']);
    const first = byId.get('b_20231114_1')!;
    expect(first.finished).toBe(false);
    expect(first.info).toMatchObject({ intentId: 'i-b_20231114_1', strategyId: 's', orderListId: 'b_20231114_1', leg: 0, side: 'buy' });
    expect(first.info.quantity.toFixed()).toBe('1.5');
    expect(first.fills.map((f) => [f.tradeId, f.quantity.toFixed(), f.price.toFixed(), f.fee.toFixed()])).toEqual([['t1', '0.5', '100', '0.05'], ['t2', '0.25', '101', '0']]);
    expect(byId.get('b_20231114_a')).toMatchObject({ finished: true, info: { side: 'sell', replaces: 'b_20231114_1' } });
    expect(byId.get('b_20231113_z')?.finished).toBe(false);
  });

  it('ids of other days and other prefixes leave the counter alone; no journal means nothing to recover', () => {
    const journal = journalIn();
    expect(journal.recover()).toMatchObject({ orders: [], ids: undefined, skippedLines: 0 });
    journal.open();
    journal.onTrack(info('b_20231113_zz'));
    journal.onTrack(info('other_20231114_5'));
    journal.close();
    const recovered = journal.recover(new ClientOrderIdGenerator('b', new VirtualClock(NOW)));
    expect(recovered.ids).toBeUndefined();
    expect(recovered.orders).toHaveLength(2);
  });

  it('a line cut off by a crash is skipped and counted; the lines before it count', () => {
    const journal = journalIn();
    journal.open();
    journal.onTrack(info('b_20231114_3'));
    journal.onFill(info('b_20231114_3'), { tradeId: 't9', quantity: dec('0.5'), price: dec('100'), fee: dec('0'), time: NOW });
    journal.close();
    appendFileSync(journal.file, '{"k":"final","t":1,"id":"b_2023');
    const recovered = journal.recover(new ClientOrderIdGenerator('b', new VirtualClock(NOW)));
    expect(recovered.skippedLines).toBe(1);
    expect(recovered.orders).toHaveLength(1);
    expect(recovered.orders[0]).toMatchObject({ finished: false, fills: [{ tradeId: 't9' }] });
    expect(recovered.ids).toEqual({ day: '20231114', counter: 3 });
  });
});
