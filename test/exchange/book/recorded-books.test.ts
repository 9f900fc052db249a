import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecordingReader } from '../../../backtest/recording/recording-reader.js';
import { parseOrderBookFrames } from '../../../framework/exchange/book/order-book-frame.js';
import { OrderBookKeeper } from '../../../framework/exchange/book/order-book-keeper.js';
import type { OrderBook } from '../../../framework/exchange/book/order-book.js';
import { NaiveBook, normalised } from './naive-book.js';

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/fmfw-public-excerpt.v3.jsonl');

function checksum(book: OrderBook): string {
  const side = (s: 'bid' | 'ask'): string => normalised(book.topN(s, Infinity)).map((l) => l.join(':')).join(',');
  return `${side('bid')}|${side('ask')}`;
}

describe('books rebuilt from a real API v3 capture', () => {
  it('rebuilds all 10 symbols with no gap, never crossed, equal to the naive model', async () => {
    const resyncs: string[][] = [];
    const keeper = new OrderBookKeeper({ resync: { resync: async (_ch, symbols) => void resyncs.push(symbols) } });
    const naive = new Map<string, NaiveBook>();
    let crossedSeen = 0;
    for await (const record of new RecordingReader(fixture).frames()) {
      keeper.handleMessage(record.msg, record.t);
      for (const frame of parseOrderBookFrames(record.msg, record.t)) {
        const model = naive.get(frame.symbol) ?? new NaiveBook();
        naive.set(frame.symbol, model);
        model.apply(frame.snapshot, frame.bids, frame.asks);
        if (keeper.book(frame.symbol)?.crossed !== false) crossedSeen++;
      }
    }
    expect(keeper.symbols()).toHaveLength(10);
    expect(keeper.stats).toMatchObject({ gaps: 0, crossed: 0, invalid: 0, ignoredBeforeSnapshot: 0, snapshots: 10 });
    expect(keeper.stats.updates).toBeGreaterThan(200);
    expect(crossedSeen).toBe(0);
    expect(resyncs).toEqual([]);
    for (const symbol of keeper.symbols()) {
      const book = keeper.book(symbol);
      expect(book?.valid, symbol).toBe(true);
      expect(checksum(book as OrderBook), symbol).toBe((naive.get(symbol) as NaiveBook).checksum());
    }
  });
});
