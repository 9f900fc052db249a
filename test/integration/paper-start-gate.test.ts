import { afterEach, describe, expect, it } from 'vitest';
import { readLatencySeries } from '../../backtest/venue/matching/recorded-latency.js';
import { book, startBot, startExchange, until, type Exchange, type RunningBot } from './support/bot-harness.js';

let exchange: Exchange | undefined;
let running: RunningBot | undefined;

afterEach(async () => {
  await running?.stop();
  await exchange?.close();
  running = exchange = undefined;
});

describe('the paper start gate', () => {
  it('holds the replay until the bot has subscribed, so the bot sees the market from its first frame', async () => {
    exchange = await startExchange({ paused: true });
    exchange.market.push(book(1, '99.00', '101.00'));
    running = await startBot(exchange, {
      bot: { id: 'gate1' },
      strategy: { name: 'market-maker', symbols: ['BTCUSDT'], params: { halfSpreadBps: '10', orderQuantity: '0.01', maxInventory: '0.05', requoteBps: '5', minRequoteIntervalMs: 0 } },
      risk: { priceBand: '0.2' },
    });
    await running.bot.trading;
    expect(running.bot.phase).toBe('running');
    // Subscribed, and still nothing replayed: the first frame waits for the gate.
    expect(exchange.server.framesServed).toBe(0);
    exchange.server.play();
    const ex = exchange;
    await until(() => ex.server.framesServed === 1 || undefined);
    // The strategy quotes around the first frame's book.
    const open = await until(async () => {
      const orders = await ex.rest.spot.getActiveOrders();
      return orders.length === 2 ? orders : undefined;
    });
    expect(open.map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    // Every answered order request's latency is written beside the journal, as a backtest reads it.
    await running.stop();
    const series = readLatencySeries(running.journalFile.replace('.journal.jsonl', '.latency.jsonl'));
    expect(series.length).toBeGreaterThanOrEqual(2);
    for (const sample of series) expect(sample.entryMs + sample.responseMs).toBeLessThan(5_000);
    running = undefined;
  });
});
