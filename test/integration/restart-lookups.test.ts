import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientVenuePort } from '../../framework/execution/client-venue-port.js';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import { ZERO } from '../../framework/model/decimal.js';
import { LiveClock } from '../../framework/time/clock.js';
import { readJournal, startExchange, until, type Exchange } from './support/bot-harness.js';
import { restartBot, seedRestartScenario, type RestartedBot, type RestartScenario } from './support/restart-scenario.js';

let exchange: Exchange | undefined;
let running: RestartedBot | undefined;
let scenario: RestartScenario | undefined;

afterEach(async () => {
  await running?.stop().catch(() => undefined);
  running = undefined;
  await exchange?.close();
  exchange = undefined;
  if (scenario !== undefined) rmSync(scenario.dir, { recursive: true, force: true });
  scenario = undefined;
});

/** Requests that look orders or executions up (order history, trade history, one order by id). */
const isLookup = (request: string): boolean => /^GET \/spot\/(history\/(order|trade)|order\/[^/]+)$/.test(request);

describe('a bot restarted on a long journal, against the sandbox over loopback', () => {
  it('settles the orders not final with a handful of history reads, and ends with the exchange\'s orders and position', async () => {
    const ex = (exchange = await startExchange());
    const s = (scenario = await seedRestartScenario(ex, 'rs', { historical: 2000, open: 20, filledWhileDown: 10, neverSent: 10 }));
    const bot = (running = await restartBot(ex, s));
    await bot.reconciled;
    const lookups = bot.requests.filter(isLookup);
    // One page of the order history reaches back past every unsettled order; no order is looked up on its own.
    // (The sandbox lists an order's executions with it, so no trade history read is needed either.)
    expect(lookups.filter((r) => r === 'GET /spot/history/order')).toHaveLength(1);
    expect(lookups.filter((r) => r !== 'GET /spot/history/order' && r !== 'GET /spot/history/trade')).toEqual([]);
    expect(lookups.length).toBeLessThanOrEqual(2);
    await bot.firstOrder;
    // The strategy's first quotes (and its cancels of the restored bids it finds extra) answered; checked while it runs,
    // as the shutdown does not wait for the strategy's own last cancels.
    await until(() => bot.bot.current!.pipeline.inFlight === 0, 8000, 'quotes answered');

    const journal = readJournal(path.join(s.journalDir, 'rs.journal.jsonl'));
    const reconciledNote = journal.find((r) => r['event'] === 'reconciled')!;
    expect(reconciledNote['adopted']).toEqual([]);
    expect(reconciledNote['canceled']).toEqual([]);
    expect([...(reconciledNote['missing'] as string[])].sort()).toEqual([...s.neverSent].sort());

    // Every journaled order is final, or open on the exchange; the final lines say what the exchange says.
    const exchangeOpen = new Set((await ex.rest.spot.getActiveOrders({ symbol: 'BTCUSDT' })).map((o) => o.client_order_id).filter((id) => id.startsWith('rs_')));
    const finals = new Map(journal.filter((r) => r['k'] === 'final').map((r) => [r['id'] as string, r['reason'] as string]));
    for (const id of new Set(journal.filter((r) => r['k'] === 'order').map((r) => r['id'] as string))) {
      expect(finals.has(id) !== exchangeOpen.has(id), `${id}: final ${finals.get(id)}, open on the exchange ${exchangeOpen.has(id)}`).toBe(true);
    }
    // The restored bids are open, or ended by the strategy (it keeps one bid).
    for (const id of s.open) expect([undefined, 'canceled', 'replaced']).toContain(finals.get(id));
    for (const id of s.filledWhileDown) expect(finals.get(id)).toBe('filled');
    for (const id of s.neverSent) expect(finals.get(id)).toBe('never-existed');

    // The bot's state is the exchange's: its open orders, and its position from the exchange's executions.
    const kernel = bot.bot.current!;
    expect(new Set(kernel.adapter.account.open().map((t) => t.clientOrderId))).toEqual(exchangeOpen);
    const trades = (await ex.rest.spot.getTradeHistory({ symbol: 'BTCUSDT', limit: 1000 })).filter((t) => t.client_order_id.startsWith('rs_'));
    const position = trades.reduce((q, t) => (t.side === 'buy' ? q.plus(t.quantity) : q.minus(t.quantity)), ZERO);
    expect(position.toFixed()).toBe('0.005');
    expect(kernel.adapter.account.positions.position('market-maker', 'BTCUSDT')?.quantity.toFixed()).toBe(position.toFixed());
  }, 60_000);

  it('the venue port reads the order history newest first by page and the trade history by exchange time over REST', async () => {
    const ex = (exchange = await startExchange());
    const s = (scenario = await seedRestartScenario(ex, 'rp', { historical: 1500, open: 2, filledWhileDown: 3, neverSent: 0 }));
    const session = TradingSession.create({
      url: `${ex.server.wsBaseUrl}/api/3/ws/trading`, clock: new LiveClock(),
      credentials: ApiCredentials.from({ apiKey: ex.apiKey, secretKey: ex.secretKey, scheme: 'hs256' }),
    });
    const port = new ClientVenuePort({ session, rest: ex.rest });
    try {
      const first = await port.orderHistoryPage(0);
      const second = await port.orderHistoryPage(1000);
      expect([first.items.length, first.last, second.items.length, second.last]).toEqual([1000, false, 505, true]);
      const ids = [...first.items, ...second.items].map((o) => o.client_order_id);
      expect(new Set(ids).size).toBe(1505);
      // Newest first: the unsettled orders were made last.
      for (const id of [...s.open, ...s.filledWhileDown]) expect(ids.indexOf(id)).toBeLessThan(5);
      const everything = await port.tradeHistory({ from: 0 });
      expect(everything).toMatchObject({ complete: true });
      const fills = everything.items.filter((t) => t.client_order_id.startsWith('rp_'));
      expect(fills).toHaveLength(30 + 3);
      const since = fills[fills.length - 3]!.timestamp;
      const recent = await port.tradeHistory({ from: since });
      expect(recent.items.map((t) => t.client_order_id).sort()).toEqual([...s.filledWhileDown].sort());
    } finally {
      port.close();
      await session.close();
    }
  }, 60_000);
});
