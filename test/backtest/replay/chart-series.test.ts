import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../../backtest/replay/backtest-runner.js';
import { dec } from '../../../framework/model/decimal.js';
import type { Strategy } from '../../../framework/runtime/strategy.js';
import maCrossover from '../../../strategies/ma-crossover/ma-crossover.strategy.js';
import { backtest, book, candle, SYMBOL, T0, trades, writeRecording, type TestFrame } from './support/replay-fixture.js';

const written: string[] = [];
afterAll(() => {
  for (const file of written) rmSync(path.dirname(file), { recursive: true, force: true });
});

function recording(frames: readonly TestFrame[]): string {
  const file = writeRecording(frames);
  written.push(file);
  return file;
}

/** Bid 100 + k/100, ask 0.10 above, at T0 + k x 100 ms; a trade 50 ms after each book. */
function steppingBook(frames: number): TestFrame[] {
  const out: TestFrame[] = [book(T0, 1, [['100.00', '5']], [['100.10', '5']], true)];
  for (let k = 1; k <= frames; k++) {
    const t = T0 + k * 100;
    const cents = (x: number): string => (x / 100).toFixed(2);
    out.push(book(t, k + 1, [[cents(10_000 + k), '5'], [cents(10_000 + k - 1), '0']], [[cents(10_010 + k), '5'], [cents(10_010 + k - 1), '0']]));
    out.push(trades(t + 50, k, [[cents(10_000 + k), '0.1', 'sell']]));
  }
  return out;
}

/** Records the book's spread in cents on every book change. */
function spreadRecorder(): Strategy {
  return {
    indicators: [{ id: 'spread', label: 'spread (cents)', pane: 'separate' }],
    onBook: (ctx, symbol, view) => {
      const bid = view.bestBid();
      const ask = view.bestAsk();
      if (bid !== undefined && ask !== undefined) ctx.recordIndicator('spread', symbol, Math.round((Number(ask.price) - Number(bid.price)) * 100));
    },
  };
}

describe('chart series of a backtest', () => {
  it('samples the best bid and ask of a book run once a second, as the book stood then', async () => {
    const result = await backtest(recording(steppingBook(45)), spreadRecorder);
    const tops = result.bookTops?.[SYMBOL] ?? [];
    // The first frame of each second is the book at k = 10 j: bid 100 + j/10.
    expect(tops.map((p) => [p.time - T0, p.bid?.toFixed(), p.ask?.toFixed()])).toEqual([
      [0, '100', '100.1'], [1_000, '100.1', '100.2'], [2_000, '100.2', '100.3'], [3_000, '100.3', '100.4'], [4_000, '100.4', '100.5'],
    ]);
  });

  it('collects the declared indicators per symbol, the last value of each second', async () => {
    const result = await backtest(recording(steppingBook(45)), spreadRecorder);
    expect(result.indicators).toHaveLength(1);
    const [spread] = result.indicators!;
    expect(spread).toMatchObject({ id: 'spread', label: 'spread (cents)', pane: 'separate', symbol: SYMBOL });
    expect(spread!.points.map((p) => [p.time - T0, p.value])).toEqual([[0, 10], [1_000, 10], [2_000, 10], [3_000, 10], [4_000, 10]]);
  });

  it('follows the strategy\'s own best resting quotes, through a replace, with gaps where it quotes no side', async () => {
    let placed: string | undefined;
    const quoter = (): Strategy => ({
      onBook: (ctx, symbol) => {
        const open = ctx.openOrders(symbol)[0];
        if (placed === undefined) {
          placed = 'yes';
          return ctx.place({ symbol, side: 'buy', type: 'limit', quantity: dec('0.1'), price: dec('99.00'), timeInForce: 'GTC' });
        }
        if (open !== undefined && ctx.now() >= T0 + 2_000 && open.price?.toFixed() === '99') return ctx.replace(open.client_order_id, dec('0.1'), dec('99.50'));
        return [];
      },
    });
    const result = await backtest(recording(steppingBook(45)), quoter);
    const tops = result.bookTops?.[SYMBOL] ?? [];
    const bids = tops.map((p) => p.ownBid?.toFixed() ?? '-');
    // The first top is taken at the first frame, before the bid reaches the venue (1 ms later).
    expect([...new Set(bids)]).toEqual(['-', '99', '99.5']);
    expect(tops.every((p) => p.ownAsk === undefined)).toBe(true);
  });

  it('has no book tops in a candle run, and ma-crossover\'s averages as it computed them at each close', async () => {
    const closes = ['100', '102', '101', '105', '107', '104'];
    const frames = closes.map((c, i) => candle(T0 + i * 60_000, c, c, c, c));
    const params = maCrossover.parseParams({ average: 'sma', fastPeriod: 2, slowPeriod: 3, orderQuantity: '0.01' });
    const result = await runBacktest({
      strategyRef: 'ma-crossover', plugin: maCrossover, params, symbols: [SYMBOL], recordings: [recording(frames)],
      balances: { USDT: '10000' }, candles: 'M1',
    });
    expect(result.meta.mode).toBe('candles');
    expect(result.bookTops).toEqual({});
    const byId = new Map(result.indicators!.map((s) => [s.id, s]));
    expect([...byId.keys()]).toEqual(['fast', 'slow']);
    expect(byId.get('fast')!.label).toBe('fast SMA 2');
    // Oracle: plain means of the last n closes, recorded when each candle has closed (its end).
    const mean = (n: number, upTo: number): number => closes.slice(upTo - n + 1, upTo + 1).reduce((a, c) => a + Number(c), 0) / n;
    for (const [id, n] of [['fast', 2], ['slow', 3]] as const) {
      const points = byId.get(id)!.points;
      expect(points.map((p) => (p.time - T0) / 60_000)).toEqual(closes.map((_, i) => i + 1).slice(n - 1));
      points.forEach((p, k) => expect(p.value).toBeCloseTo(mean(n, k + n - 1), 9));
    }
  });
});
