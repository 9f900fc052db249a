import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../framework/model/resources/order.js';
import { book, startBot, startExchange, trade, until, type Exchange, type RunningBot } from './support/bot-harness.js';

let exchange: Exchange | undefined;
let running: RunningBot | undefined;

afterEach(async () => {
  await running?.stop().catch(() => undefined);
  running = undefined;
  await exchange?.close();
  exchange = undefined;
});

const MARKET_MAKER = {
  bot: { id: 'mm' },
  strategy: {
    name: 'market-maker', symbols: ['BTCUSDT'],
    params: { halfSpreadBps: '10', orderQuantity: '0.01', maxInventory: '0.05', requoteBps: '5', minRequoteIntervalMs: 0 },
  },
  risk: { priceBand: '0.2' },
  execution: { unknownOrders: 'cancel', onShutdown: 'cancel' },
};

async function openOrders(ex: Exchange): Promise<Order[]> {
  return ex.rest.spot.getActiveOrders({ symbol: 'BTCUSDT' });
}

describe('live bot against the sandbox exchange over loopback', () => {
  it('market maker: quotes both sides, keeps them with replaces, re-quotes after a fill, cancels at shutdown', async () => {
    const ex = (exchange = await startExchange());
    ex.market.push(book(1, '99.00', '101.00'));
    running = await startBot(ex, MARKET_MAKER);
    const quotes = await until(async () => {
      const open = await openOrders(ex);
      return open.length === 2 ? open : undefined;
    }, 8000, 'two quotes');
    expect(quotes.map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    expect(quotes.every((o) => o.client_order_id.startsWith('mm_') && o.post_only)).toBe(true);
    const bid = quotes.find((o) => o.side === 'buy')!;
    expect(bid.price?.toFixed()).toBe('99.9');

    // Mid 100 -> 100.5 (50 bps, over requoteBps): bid 100.5 x 0.999 floored to the tick, ask ceiled.
    ex.market.push(book(2, '99.50', '101.50'));
    const moved = await until(async () => {
      const open = await openOrders(ex);
      const b = open.find((o) => o.side === 'buy');
      const a = open.find((o) => o.side === 'sell');
      return b?.price?.toFixed() === '100.39' && a?.price?.toFixed() === '100.61' ? open : undefined;
    }, 8000, 'quotes moved');
    // A replace keeps one order per side under a new client_order_id, never cancel + place.
    expect(moved).toHaveLength(2);
    const intents = running.journal().filter((r) => r['k'] === 'intent').map((r) => r['kind']);
    expect(intents).toContain('replace');
    expect(intents.filter((k) => k === 'place')).toHaveLength(2);

    // A sell trade through the bid fills it; the bot quotes the bid again.
    const filledId = moved.find((o) => o.side === 'buy')!.client_order_id;
    ex.market.push(trade(1, '100.00', '1', 'sell'));
    await until(() => running!.journal().some((r) => r['k'] === 'fill' && r['id'] === filledId), 8000, 'fill journaled');
    await until(async () => {
      const open = await openOrders(ex);
      return open.some((o) => o.side === 'buy' && o.client_order_id !== filledId) ? open : undefined;
    }, 8000, 'bid re-quoted');
    const status = running.bot.current!.status();
    expect(status.positions.find((p) => p.symbol === 'BTCUSDT')?.quantity.toFixed()).toBe('0.01');

    expect(await running.stop()).toBe(0);
    running = undefined;
    expect(await openOrders(ex)).toEqual([]);
  }, 30_000);

  it('a risk denial reaches the strategy as a report and nothing is sent', async () => {
    const ex = (exchange = await startExchange());
    ex.market.push(book(1, '99.00', '101.00'));
    running = await startBot(ex, {
      ...MARKET_MAKER, strategy: { ...MARKET_MAKER.strategy, params: { ...MARKET_MAKER.strategy.params, minRequoteIntervalMs: 200 } },
      risk: { defaultLimits: { maxOrderNotional: '0.5' } },
    });
    await until(() => running!.journal().filter((r) => r['k'] === 'denied').length >= 2, 8000, 'denials');
    const denied = running.journal().filter((r) => r['k'] === 'denied');
    expect(denied.every((r) => r['check'] === 'max-notional')).toBe(true);
    expect(await openOrders(ex)).toEqual([]);
  }, 30_000);

  it('bracket: places a oneTriggerOneCancelOther list; the entry fill activates the exits; the take-profit ends it', async () => {
    const ex = (exchange = await startExchange());
    ex.market.push(book(1, '99.00', '101.00'));
    running = await startBot(ex, {
      bot: { id: 'brk' },
      strategy: { name: 'bracket', symbols: ['BTCUSDT'], params: { orderQuantity: '0.01', entryOffsetBps: '10', takeProfitBps: '100', stopLossBps: '100', cooldownMs: 600000, entryTimeoutMs: 600000 } },
      risk: { priceBand: '0.2' },
    });
    const list = await until(async () => {
      const open = await openOrders(ex);
      return open.length === 3 ? open : undefined;
    }, 8000, 'three list orders');
    expect(new Set(list.map((o) => o.order_list_id)).size).toBe(1);
    expect(list.every((o) => o.contingency_type === 'oneTriggerOneCancelOther')).toBe(true);
    const entry = list.find((o) => o.side === 'buy')!;
    expect(list.filter((o) => o.side === 'sell').every((o) => o.inactive === true)).toBe(true);

    ex.market.push(trade(1, entry.price!.minus('1').toFixed(), '1', 'sell'));
    await until(async () => {
      const open = await openOrders(ex);
      return open.length === 2 && open.every((o) => o.side === 'sell' && o.inactive !== true) ? open : undefined;
    }, 8000, 'exits active');
    // The first print above the take-profit's stop price triggers it (a limit sell then rests at its
    // price); the next buy print through that price fills it, and the stop is canceled with it.
    ex.market.push(trade(2, '150.00', '1', 'buy'));
    ex.market.push(trade(3, '150.00', '1', 'buy'));
    await until(async () => ((await openOrders(ex)).length === 0 ? true : undefined), 8000, 'bracket done');
    expect(running.bot.current!.status().positions.find((p) => p.symbol === 'BTCUSDT')?.quantity.isZero()).toBe(true);
  }, 30_000);

  it('ma-crossover: closed candles drive a market buy on the golden cross and a market sell on the death cross', async () => {
    const ex = (exchange = await startExchange());
    ex.market.push(book(1, '99.00', '101.00'));
    running = await startBot(ex, {
      bot: { id: 'mac' },
      strategy: { name: 'ma-crossover', symbols: ['BTCUSDT'], candles: 'M1', params: { average: 'sma', fastPeriod: 2, slowPeriod: 3, orderQuantity: '0.01' } },
      risk: { priceBand: '0.5' },
    });
    await until(() => running!.journal().some((r) => r['k'] === 'note' && r['event'] === 'reconciled'), 8000, 'bot started');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Candles of past minutes are complete on arrival, so each one closes at once.
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000;
    ['100', '100', '90', '80', '110', '130'].forEach((close, i) => ex.market.push(candle(start + i * 60_000, close)));
    await until(() => running!.journal().filter((r) => r['k'] === 'fill').length >= 1, 8000, 'buy filled');
    ['70', '60'].forEach((close, i) => ex.market.push(candle(start + (6 + i) * 60_000, close)));
    await until(() => running!.journal().filter((r) => r['k'] === 'fill').length >= 2, 8000, 'sell filled');
    const intents = running.journal().filter((r) => r['k'] === 'intent');
    expect(intents.map((r) => r['kind'])).toEqual(['place', 'place']);
    expect(running.bot.current!.status().positions.find((p) => p.symbol === 'BTCUSDT')?.quantity.isZero()).toBe(true);
  }, 30_000);
});

function candle(t: number, close: string): Record<string, unknown> {
  return { ch: 'candles/M1', update: { BTCUSDT: [{ t, o: close, c: close, h: close, l: close, v: '1', q: close }] } };
}
