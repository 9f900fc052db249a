import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BacktestResult } from '../../../backtest/report/backtest-result.js';
import { dec } from '../../../framework/model/decimal.js';
import type { OrderHandle } from '../../../framework/runtime/order-handle.js';
import type { StrategyContext, Submittable } from '../../../framework/runtime/strategy.js';
import { backtest, book, candle, SYMBOL, T0, trades, writeRecording } from './support/replay-fixture.js';

const M = 60_000;

/**
 * Without a book the strategy side has no price for a market buy's reserve (nor a band for a
 * limit), so the gate's book-priced checks would refuse the orders: these tests run the others.
 */
const CANDLE_RISK = { checks: ['kill-switch', 'order-rate', 'instrument-status', 'grid'] };

/** Sends `orders(ctx)` once, on the `nth` closed candle (1-based); records the closed candles' times. */
async function onClose(
  recording: string, nth: number, slippageBps: number, orders: (ctx: StrategyContext) => Submittable[],
): Promise<{ result: BacktestResult; closes: number[] }> {
  const closes: number[] = [];
  const result = await backtest(recording, () => ({
    onCandle: (ctx, event, closed) => {
      if (!closed) return [];
      closes.push(event.candles[0]!.timestamp);
      return closes.length === nth ? orders(ctx) : [];
    },
  }), { candleSlippageBps: slippageBps, risk: CANDLE_RISK });
  return { result, closes };
}

/** {@link onClose} on the first closed candle with 5 bps of slippage. */
function onFirstClose(recording: string, orders: (ctx: StrategyContext) => Submittable[]): Promise<{ result: BacktestResult; closes: number[] }> {
  return onClose(recording, 1, 5, orders);
}

const market = (ctx: StrategyContext, side: 'buy' | 'sell'): OrderHandle => ctx.place({ symbol: SYMBOL, side, type: 'market', quantity: dec('1') });

const fills = (r: BacktestResult): string[] => r.fills.map((f) => `${(f.time - T0) / M} ${f.side} ${f.price.toFixed()} ${f.quantity.toFixed()} ${f.liquidity}`);

describe('candle-only backtests (CandleMarket rules)', () => {
  const recording = writeRecording([
    candle(T0, '100', '101', '99', '100.5'),
    candle(T0 + M, '102', '104', '101.5', '103'),
    candle(T0 + 2 * M, '103', '103.5', '98', '99'),
    candle(T0 + 3 * M, '99.2', '100', '98.8', '99.5'),
  ]);
  afterAll(() => rmSync(path.dirname(recording), { recursive: true, force: true }));

  it('fills a market buy and a market sell both at the next open when the slippage is zero', async () => {
    const { result } = await onClose(recording, 2, 0, (ctx) => [market(ctx, 'buy'), market(ctx, 'sell')]);
    // Next open after the second candle: 103. Fee 0.1 % of 103.
    expect(fills(result)).toEqual(['2 buy 103 1 taker', '2 sell 103 1 taker']);
    expect(result.fills.map((f) => f.fee.toFixed())).toEqual(['0.103', '0.103']);
  });

  it('fills a market sell at the next open x (1 - slippage), rounded down to the tick', async () => {
    const { result } = await onFirstClose(recording, (ctx) => [market(ctx, 'sell')]);
    // 102 x 0.9995 = 101.949 -> 101.94
    expect(fills(result)).toEqual(['1 sell 101.94 1 taker']);
  });

  it('leaves a market order sent on the last candle unfilled: there is no next open', async () => {
    const { result, closes } = await onClose(recording, 4, 0, (ctx) => [market(ctx, 'buy'), market(ctx, 'sell')]);
    expect(closes).toHaveLength(4);
    expect(result.fills).toEqual([]);
    expect(result.orders.map((o) => `${o.side} ${o.type} ${o.status} ${o.filledQuantity.toFixed()}`))
      .toEqual(['buy market expired 0', 'sell market expired 0']);
  });

  it('fills a limit sell priced at the next open at once, as taker, when the slippage is zero', async () => {
    // After the first candle both sides of the book sit at the next open, 102.
    const { result } = await onClose(recording, 1, 0, (ctx) => [
      ctx.place({ symbol: SYMBOL, side: 'sell', type: 'limit', quantity: dec('1'), price: dec('102'), timeInForce: 'GTC' }),
    ]);
    expect(fills(result)).toEqual(['1 sell 102 1 taker']);
  });

  it('fills a market buy sent on a closed candle at the next open x (1 + slippage), rounded up to the tick', async () => {
    const { result, closes } = await onFirstClose(recording, (ctx) => [ctx.place({ symbol: SYMBOL, side: 'buy', type: 'market', quantity: dec('1') })]);
    expect(closes).toEqual([T0, T0 + M, T0 + 2 * M, T0 + 3 * M]);
    expect(result.meta.mode).toBe('candles');
    // 102 x 1.0005 = 102.051 -> 102.06, at the time the first candle closed (its end).
    expect(fills(result)).toEqual(['1 buy 102.06 1 taker']);
  });

  it('fills a resting limit when a later candle range reaches it, at its own price, as maker', async () => {
    const { result } = await onFirstClose(recording, (ctx) => [
      ctx.place({ symbol: SYMBOL, side: 'buy', type: 'limit', quantity: dec('1'), price: dec('98.50'), timeInForce: 'GTC' }),
      ctx.place({ symbol: SYMBOL, side: 'sell', type: 'limit', quantity: dec('1'), price: dec('105'), timeInForce: 'GTC' }),
    ]);
    // The second candle (low 101.5) does not reach 98.50; the third (low 98) does. Nothing reaches 105.
    expect(fills(result)).toEqual(['3 buy 98.5 1 maker']);
  });

  it('triggers a stop when a candle range reaches its stop price', async () => {
    const { result } = await onFirstClose(recording, (ctx) => [
      ctx.place({ symbol: SYMBOL, side: 'sell', type: 'stopMarket', quantity: dec('1'), stopPrice: dec('99.00') }),
    ]);
    expect(result.fills.map((f) => `${(f.time - T0) / M} ${f.side} ${f.quantity.toFixed()}`)).toEqual(['3 sell 1']);
  });

  it('judges a stop placed while no order worked against the last close, as after a whole path', async () => {
    // Placed on the second close (103): a sell stop at 103.5 is due at once; one at 101.6 waits for the third candle.
    const due = await onClose(recording, 2, 5, (ctx) => [ctx.place({ symbol: SYMBOL, side: 'sell', type: 'stopMarket', quantity: dec('1'), stopPrice: dec('103.50') })]);
    expect(due.result.fills.map((f) => `${(f.time - T0) / M} ${f.side} ${f.quantity.toFixed()}`)).toEqual(['2 sell 1']);
    const waits = await onClose(recording, 2, 5, (ctx) => [ctx.place({ symbol: SYMBOL, side: 'sell', type: 'stopMarket', quantity: dec('1'), stopPrice: dec('101.60') })]);
    expect(waits.result.fills.map((f) => `${(f.time - T0) / M} ${f.side} ${f.quantity.toFixed()}`)).toEqual(['3 sell 1']);
  });

  it('finds the next open however many other frames come before it', async () => {
    const busy = writeRecording([
      candle(T0, '100', '101', '99', '100.5'),
      ...Array.from({ length: 200 }, (_, i) => trades(T0 + M + 1 + i, i + 1, [['100.5', '1', 'buy']])),
      candle(T0 + M, '102', '104', '101.5', '103'),
    ]);
    try {
      const { result } = await onClose(busy, 1, 0, (ctx) => [market(ctx, 'buy')]);
      expect(fills(result)).toEqual(['1 buy 102 1 taker']);
    } finally {
      rmSync(path.dirname(busy), { recursive: true, force: true });
    }
  });

  it('builds M1 candles from trades when the recording has none', async () => {
    const tradeOnly = writeRecording([
      book(T0, 1, [['99', '5']], [['101', '5']], true),
      trades(T0 + 1_000, 1, [['100', '1', 'buy']]),
      trades(T0 + 30_000, 2, [['103', '1', 'buy'], ['98', '1', 'sell']]),
      trades(T0 + 59_000, 4, [['101', '1', 'sell']]),
      trades(T0 + M + 5_000, 5, [['105', '2', 'buy']]),
      trades(T0 + 2 * M + 1_000, 6, [['104', '1', 'buy']]),
    ]);
    const closed: string[] = [];
    const result = await backtest(tradeOnly, () => ({
      onCandle: (ctx, event, isClosed) => {
        if (!isClosed) return;
        const c = event.candles[0]!;
        closed.push(`${(c.timestamp - T0) / M} ${c.open} ${c.high} ${c.low} ${c.close} ${c.volume} at ${ctx.now() - T0}`);
      },
    }), { candles: 'M1' });
    expect(result.meta.mode).toBe('book');
    expect(closed).toEqual(['0 100 103 98 101 4 at 65000', '1 105 105 105 105 2 at 121000']);
  });
});
