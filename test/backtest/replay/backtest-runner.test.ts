import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dec } from '../../../framework/model/decimal.js';
import type { Strategy } from '../../../framework/runtime/strategy.js';
import { runBacktest } from '../../../backtest/replay/backtest-runner.js';
import type { BacktestResult } from '../../../backtest/report/backtest-result.js';
import { loadBotConfig } from '../../../framework/config/bot-config.js';
import { loadStrategyPlugin } from '../../../framework/runtime/plugin-loader.js';
import { backtest, book, FIXTURE_HEADER, SYMBOL, T0, trades, writeRecording, type TestFrame } from './support/replay-fixture.js';

/** A book that moves up a cent per frame, with trades in between (sell aggressors at the bid). */
function movingMarket(frames: number): TestFrame[] {
  const out: TestFrame[] = [book(T0, 1, [['100.00', '5']], [['100.10', '5']], true)];
  for (let k = 1; k <= frames; k++) {
    const t = T0 + k * 100;
    const bid = (100 + k / 100).toFixed(2);
    const ask = (100.1 + k / 100).toFixed(2);
    const previousBid = (100 + (k - 1) / 100).toFixed(2);
    const previousAsk = (100.1 + (k - 1) / 100).toFixed(2);
    out.push(book(t, k + 1, [[bid, '5'], [previousBid, '0']], [[ask, '5'], [previousAsk, '0']]));
    out.push(trades(t + 50, k * 10, [[previousBid, '0.5', 'sell'], [bid, '0.5', 'sell']]));
  }
  return out;
}

/** Quotes a bid at the touch on every book change and buys at market on every 7th trades event. */
function busyStrategy(): Strategy {
  let tradesSeen = 0;
  return {
    onBook: (ctx, symbol, view) => {
      const bid = view.bestBid();
      if (bid === undefined || ctx.openOrders(symbol).length > 2) return [];
      return ctx.place({ symbol, side: 'buy', type: 'limit', quantity: dec('0.1'), price: dec(bid.price), timeInForce: 'GTC' });
    },
    onTrades: (ctx, event) => (++tradesSeen % 7 === 0 ? ctx.place({ symbol: event.symbol, side: 'buy', type: 'market', quantity: dec('0.2') }) : []),
  };
}

describe('runBacktest', () => {
  it('backtests a futures contract on a futures account: margin held, unrealized PnL in equity at the mid', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-futures-backtest-'));
    try {
      const perp = { ...FIXTURE_HEADER.symbols[SYMBOL], type: 'futures', contract_type: 'perpetual', base_currency: null, underlying: 'X', margin_trading: true };
      const file = path.join(dir, 'perp.v3.jsonl');
      const frames = [
        book(T0, 1, [['100.00', '5']], [['100.10', '5']], true),
        trades(T0 + 100, 1, [['100.00', '0.5', 'sell']]),
        book(T0 + 60_000, 2, [['110.00', '5'], ['100.00', '0']], [['110.10', '5'], ['100.10', '0']]),
        trades(T0 + 60_100, 2, [['110.00', '0.5', 'sell']]),
      ];
      // Futures info as the recorder polls it: mark 105 and a funding rate of 0.1 % due at T0 + 30 s.
      const info = { [SYMBOL]: { contract_type: 'perpetual', mark_price: '105', index_price: '105', open_interest: '1', timestamp: new Date(T0 + 20_000).toISOString(), funding_rate: '0.001', next_funding_time: new Date(T0 + 30_000).toISOString() } };
      const restLine = JSON.stringify({ t: T0 + 20_000, src: 'rest', msg: { method: 'GET', path: '/api/3/public/futures/info', status: 200, body: info } });
      const lines = frames.map((f) => JSON.stringify({ t: f.t, src: 'ws/public', msg: f.msg }));
      lines.splice(2, 0, restLine);
      writeFileSync(file, [JSON.stringify({ ...FIXTURE_HEADER, symbols: { [SYMBOL]: perp } }), ...lines].join('\n') + '\n');
      const buyOnce = (): Strategy => {
        let sent = false;
        return { onBook: (ctx, symbol) => (sent ? [] : ((sent = true), ctx.place({ symbol, side: 'buy', type: 'market', quantity: dec('1') }))) };
      };
      const result = await backtest(file, buyOnce, { balances: { USDT: '10000' } });
      // A market buy of 1 at the ask 100.10, taker fee 0.1 %: 0.1001; margin at leverage 1: 100.1.
      expect(result.fills.map((f) => [f.side, f.price.toFixed(), f.quantity.toFixed(), f.fee.toFixed()])).toEqual([['buy', '100.1', '1', '0.1001']]);
      // Right after the fill: the cash (10000 less the fee 0.1001) and 1 x (mid 100.05 - 100.10).
      const fillTime = result.fills[0]!.time;
      expect(result.equity.find((point) => point.time >= fillTime)?.equity.toFixed()).toBe('9999.8499');
      // The long pays funding at T0 + 30 s: 1 x mark 105 x 0.001 = 0.105.
      expect(result.meta.futures?.fundingPaid['USDT']?.toFixed()).toBe('0.105');
      expect(result.meta.futures?.liquidations).toEqual([]);
      // The position stays open: the balances hold its margin, less the fee and the funding.
      expect(result.finalBalances['USDT']?.toFixed()).toBe('9999.7949');
      // Equity at the end: the cash plus 1 x (mid 110.05 - entry 100.10).
      expect(result.equity.at(-1)?.equity.toFixed()).toBe('10009.7449');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a run mixing futures contracts and spot pairs, and an account the symbols do not fit', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-futures-refusal-'));
    try {
      const file = path.join(dir, 'mixed.v3.jsonl');
      const perp = { ...FIXTURE_HEADER.symbols[SYMBOL], type: 'futures', contract_type: 'perpetual', base_currency: null, underlying: 'X', margin_trading: true };
      writeFileSync(file, `${JSON.stringify({ ...FIXTURE_HEADER, symbols: { [SYMBOL]: FIXTURE_HEADER.symbols[SYMBOL], XPERP: perp } })}\n${JSON.stringify({ t: T0, src: 'ws/public', msg: book(T0, 1, [['100.00', '5']], [['100.10', '5']], true).msg })}\n`);
      await expect(backtest(file, () => ({}), { symbols: ['XPERP', SYMBOL] })).rejects.toThrow(/strategy\.symbols\[1\].*must be a futures contract like the other symbols/);
      await expect(backtest(file, () => ({}), { account: 'futures' })).rejects.toThrow(/bot\.account.*must be spot for spot pairs/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives identical results (fills, orders, equity) for identical inputs', async () => {
    const recording = writeRecording(movingMarket(60));
    const runs = [await backtest(recording, busyStrategy, { latency: { kind: 'jitter', entryMs: 3, responseMs: 3, jitterMs: 5 }, seed: 9 }), await backtest(recording, busyStrategy, { latency: { kind: 'jitter', entryMs: 3, responseMs: 3, jitterMs: 5 }, seed: 9 })];
    const [a, b] = runs.map(({ meta: { wallMs: _wall, ...meta }, ...rest }) => JSON.stringify({ meta, ...rest }));
    expect(runs[0]!.fills.length).toBeGreaterThan(5);
    expect(runs[0]!.orders.length).toBeGreaterThan(10);
    expect(runs[0]!.equity.length).toBeGreaterThan(1);
    expect(a).toBe(b);
  });

  it('gives the same results with book and trades lines decoded from the bytes as with every line JSON-parsed', async () => {
    const config = loadBotConfig(fileURLToPath(new URL('../../../config/market-maker.yaml', import.meta.url)));
    const { plugin: marketMaker } = await loadStrategyPlugin(config.strategy.name);
    const run = (decodeMarketLines: boolean): Promise<BacktestResult> => runBacktest({
      strategyRef: 'market-maker', plugin: marketMaker, params: marketMaker.parseParams(config.strategy.params), symbols: config.strategy.symbols,
      recordings: [fileURLToPath(new URL('../../../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url))],
      balances: config.backtest.balances, risk: config.risk, seed: config.backtest.seed, decodeMarketLines,
    });
    const [decoded, parsed] = [await run(true), await run(false)].map(({ meta: { wallMs: _wall, ...meta }, ...rest }) => ({ meta, ...rest }));
    expect(decoded!.fills.length).toBeGreaterThan(10);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(parsed));
  }, 60_000);

  it('never shows a strategy an event before its receive time, nor a book from a later frame', async () => {
    const frames = movingMarket(20);
    const recording = writeRecording(frames);
    const bookTimes = frames.filter((f) => (f.msg as { ch: string }).ch === 'orderbook/full').map((f) => f.t);
    const bidAt = (now: number): string => (100 + (bookTimes.filter((t) => t <= now).length - 1) / 100).toFixed(2);
    const seen: { now: number; receivedAt?: number; bid?: string }[] = [];
    await backtest(recording, () => ({
      onBook: (ctx, symbol, view) => void seen.push({ now: ctx.now(), bid: view.bestBid()?.price }),
      onTrades: (ctx, event) => void seen.push({ now: ctx.now(), receivedAt: event.receivedAt, bid: ctx.book(event.symbol)?.bestBid()?.price }),
    }));
    expect(seen.filter((s) => s.receivedAt !== undefined)).toHaveLength(20);
    for (const s of seen) {
      if (s.receivedAt !== undefined) expect(s.now).toBeGreaterThanOrEqual(s.receivedAt);
      expect(s.bid).toBe(bidAt(s.now));
    }
  });

  it('fills an order placed on event k on a frame after k, never on the frame that prompted it', async () => {
    // Frame k is a trade at 99.50; the strategy then bids 99.50 (below the ask: it rests). Only the
    // trade at 99.50 of frame k+1 may fill it.
    const recording = writeRecording([
      book(T0, 1, [['99.00', '5']], [['100.00', '5']], true),
      trades(T0 + 100, 1, [['99.50', '1', 'sell']]),
      trades(T0 + 200, 2, [['99.50', '1', 'sell']]),
    ]);
    const result = await backtest(recording, () => {
      let placed = false;
      return {
        onTrades: (ctx, event) => {
          if (placed) return [];
          placed = true;
          return ctx.place({ symbol: event.symbol, side: 'buy', type: 'limit', quantity: dec('0.5'), price: dec('99.50'), timeInForce: 'GTC' });
        },
      };
    });
    expect(result.fills.map((f) => `${f.time} ${f.side} ${f.price.toFixed()} ${f.quantity.toFixed()} ${f.liquidity}`)).toEqual([`${T0 + 200} buy 99.5 0.5 maker`]);
  });

  it('delays requests by the latency: a market order meets the book of its arrival time', async () => {
    // A market buy is sent at T0+100; the ask moves from 100.00 to 101.00 at T0+130.
    const recording = writeRecording([
      book(T0, 1, [['99.00', '5']], [['100.00', '5']], true),
      trades(T0 + 100, 1, [['99.00', '1', 'sell']]),
      book(T0 + 130, 2, [], [['100.00', '0'], ['101.00', '5']]),
      trades(T0 + 500, 2, [['99.00', '1', 'sell']]),
    ]);
    const buyOnce = (): Strategy => {
      let sent = false;
      return { onTrades: (ctx, e) => (sent ? [] : ((sent = true), ctx.place({ symbol: e.symbol, side: 'buy', type: 'market', quantity: dec('1') }))) };
    };
    const fill = async (latencyMs: number): Promise<string[]> => (await backtest(recording, buyOnce, { latency: { kind: 'constant', entryMs: latencyMs, responseMs: latencyMs } })).fills.map((f) => `${f.time} ${f.price.toFixed()}`);
    expect(await fill(0)).toEqual([`${T0 + 100} 100`]);
    expect(await fill(50)).toEqual([`${T0 + 150} 101`]);
    expect(await fill(50)).toEqual(await fill(50));
    expect(await fill(20)).toEqual([`${T0 + 120} 100`]);
    // A recorded series (a live bot's latency file) flat at 50 ms gives the constant 50 ms fill.
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-latency-series-'));
    try {
      const file = path.join(dir, 'bot.latency.jsonl');
      writeFileSync(file, `{"t":${T0},"entryMs":50,"responseMs":50}\n{"t":${T0 + 1000},"entryMs":50,"responseMs":50}\n`);
      const recorded = await backtest(recording, buyOnce, { latency: { kind: 'recorded', file } });
      expect(recorded.fills.map((f) => `${f.time} ${f.price.toFixed()}`)).toEqual(await fill(50));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`trades ${SYMBOL} only: frames of other symbols are ignored`, async () => {
    const recording = writeRecording([
      book(T0, 1, [['99.00', '5']], [['100.00', '5']], true),
      { t: T0 + 10, msg: { ch: 'trades', update: { OTHERUSDT: [{ t: T0 + 10, i: 1, p: '5', q: '1', s: 'buy' }] } } },
      trades(T0 + 20, 1, [['99.00', '1', 'sell']]),
    ]);
    const seen: string[] = [];
    const result = await backtest(recording, () => ({ onTrades: (_ctx, e) => void seen.push(e.symbol) }));
    expect(seen).toEqual([SYMBOL]);
    expect(result.meta.events).toBe(3);
  });
});
