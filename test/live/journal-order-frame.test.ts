import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { Journal } from '../../framework/live/journal.js';
import { dec } from '../../framework/model/decimal.js';
import { VirtualClock } from '../../framework/time/clock.js';

const NOW = Date.UTC(2023, 10, 14, 22, 13, 20);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function journalIn(): Journal {
  const dir = mkdtempSync(path.join(tmpdir(), 'journal-frame-'));
  dirs.push(dir);
  return new Journal({ dir, botId: 'b', syncEveryMs: 60_000, now: () => NOW });
}

describe('journal order lines: price, type and decision frame', () => {
  it('writes each order\'s type, limit price and the frame behind its decision, and reads them back', () => {
    const journal = journalIn();
    journal.open();
    const decidedOn = { symbol: 'BTCUSDT', receivedAt: 1_700_000_000_123.5, exchangeTime: 1_700_000_000_100, sequence: 42, index: 7 };
    journal.onTrack({ clientOrderId: 'b_20231114_1', intentId: 's-1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('1.5'), type: 'limit', price: dec('100.25'), decidedOn, sentAt: NOW });
    journal.onTrack({ clientOrderId: 'b_20231114_2', intentId: 's-2', strategyId: 's', symbol: 'BTCUSDT', side: 'sell', quantity: dec('0.1'), type: 'market', decidedOn: { symbol: 'BTCUSDT', receivedAt: 5, index: 8 }, sentAt: NOW });
    journal.close();
    const written = readFileSync(journal.file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r['k'] === 'order');
    expect(written[0]).toMatchObject({ quantity: '1.5', type: 'limit', price: '100.25', frame: { symbol: 'BTCUSDT', receivedAt: 1_700_000_000_123.5, exchangeTime: 1_700_000_000_100, sequence: 42, index: 7 } });
    expect(written[1]).toMatchObject({ quantity: '0.1', type: 'market', frame: { symbol: 'BTCUSDT', receivedAt: 5, index: 8 } });
    expect(written[1]!['price']).toBeUndefined();

    const orders = journal.recover(new ClientOrderIdGenerator('b', new VirtualClock(NOW))).orders;
    expect(orders[0]!.info).toMatchObject({ type: 'limit', decidedOn });
    expect(orders[0]!.info.price!.toFixed()).toBe('100.25');
    expect(orders[1]!.info.decidedOn).toEqual({ symbol: 'BTCUSDT', receivedAt: 5, index: 8 });
    expect(orders[1]!.info.price).toBeUndefined();
  });

  it('still reads a journal written before order lines carried them', () => {
    const journal = journalIn();
    writeFileSync(journal.file, [
      JSON.stringify({ k: 'start', t: NOW, pid: 1 }),
      JSON.stringify({ k: 'order', t: NOW, id: 'b_20231114_1', intent: 's-1', strategy: 's', symbol: 'BTCUSDT', side: 'buy', quantity: '2' }),
      JSON.stringify({ k: 'fill', t: NOW, id: 'b_20231114_1', trade: 't1', quantity: '1', price: '100', fee: '0.1', time: NOW }),
      '',
    ].join('\n'));
    const [order] = journal.recover().orders;
    expect(order!.info).toEqual({
      clientOrderId: 'b_20231114_1', intentId: 's-1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('2'),
      orderListId: undefined, leg: undefined, replaces: undefined, sentAt: NOW,
    });
    expect(order!.fills.map((f) => f.price.toFixed())).toEqual(['100']);
  });
});
