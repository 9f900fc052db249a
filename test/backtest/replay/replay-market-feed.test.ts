import { describe, expect, it } from 'vitest';
import { backtest, book, T0, trades, writeRecording } from './support/replay-fixture.js';

describe('ReplayMarketFeed in a backtest', () => {
  it('makes the book stale at a sequence gap, lists the resync, and takes the book back at the next snapshot', async () => {
    const recording = writeRecording([
      book(T0, 1, [['99.00', '5']], [['100.00', '5']], true),
      book(T0 + 100, 2, [['99.10', '5']], []),
      // Sequence 3 is missing from the recording.
      book(T0 + 200, 4, [['99.20', '5']], []),
      book(T0 + 300, 5, [['99.30', '5']], []),
      trades(T0 + 350, 1, [['99.00', '1', 'sell']]),
      book(T0 + 400, 20, [['98.00', '5']], [['98.50', '5']], true),
      book(T0 + 500, 21, [['98.10', '5']], []),
      trades(T0 + 550, 2, [['98.10', '1', 'sell']]),
    ]);
    const seen: string[] = [];
    const result = await backtest(recording, () => ({
      onBook: (ctx, _symbol, view) => void seen.push(`${ctx.now() - T0} book ${view.bestBid()?.price}`),
      onTrades: (ctx, event) => void seen.push(`${ctx.now() - T0} trades ${ctx.book(event.symbol)?.bestBid()?.price ?? 'none'}`),
    }));
    expect(result.meta.bookResyncs).toEqual([{ symbol: 'XUSDT', time: T0 + 200, reason: 'sequence gap: expected 3, got 4' }]);
    // Between the gap and the snapshot the strategy has no book; the updates of that stretch are dropped.
    expect(seen).toEqual(['0 book 99.00', '100 book 99.10', '350 trades none', '400 book 98.00', '500 book 98.10', '550 trades 98.10']);
  });
});
