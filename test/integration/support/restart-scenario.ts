import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Subscription } from 'rxjs';
import { parseBotConfig } from '../../../framework/config/bot-config.js';
import { ClientOrderIdGenerator } from '../../../framework/execution/client-order-ids.js';
import { ClientVenuePort } from '../../../framework/execution/client-venue-port.js';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';
import type { RestClient } from '../../../framework/exchange/rest/rest-client.js';
import type { RestTransport } from '../../../framework/exchange/rest/rest-transport.js';
import type { TradingSession } from '../../../framework/exchange/ws/trading-session.js';
import { Journal } from '../../../framework/live/journal.js';
import type { LiveBot } from '../../../framework/live/live-bot.js';
import { createLiveContainer, resolveLiveBot } from '../../../framework/live/live-container.js';
import { TOKENS } from '../../../framework/live/tokens.js';
import { createLogger } from '../../../framework/log/logger.js';
import { loadStrategy } from '../../../framework/runtime/plugin-loader.js';
import { LiveClock, type Clock } from '../../../framework/time/clock.js';
import { book, until, type Exchange } from './bot-harness.js';

/** How many orders of each fate a generated journal holds. */
export interface RestartCounts {
  /** Orders the journal has final: canceled without executions, every 50th filled with its execution. */
  readonly historical: number;
  /** Resting on the exchange, not final in the journal. */
  readonly open: number;
  /** Filled on the exchange while the bot was down: the journal has them sent, nothing more. */
  readonly filledWhileDown: number;
  /** Journaled, then the process died before the request left: the exchange never saw them. */
  readonly neverSent: number;
}

/** What {@link seedRestartScenario} made. */
export interface RestartScenario {
  readonly dir: string;
  readonly botId: string;
  readonly journalDir: string;
  readonly open: readonly string[];
  readonly filledWhileDown: readonly string[];
  readonly neverSent: readonly string[];
}

/** Over how long (ms) before now the generated orders were sent, evenly. */
const SPAN_MS = 600_000;
const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;

/**
 * Makes the exchange's account and a journal of bot `botId` agree on a history of orders as a long
 * run killed with kill -9 would leave them: every order placed on the sandbox's venue directly (no
 * request budget spent), the venue's time moving with the orders' send times, and journaled as
 * the bot writes (order lines, intents, executions, final lines), the unsettled ones last.
 */
export async function seedRestartScenario(ex: Exchange, botId: string, counts: RestartCounts): Promise<RestartScenario> {
  ex.market.push(book(1, '99.00', '101.00'));
  await until(async () => (await ex.rest.marketData.getOrderBook('BTCUSDT')).ask.length > 0, 8000, 'book on the sandbox');
  const venue = ex.server.venue;
  const ids = new ClientOrderIdGenerator(botId, new LiveClock());
  const venueStart = venue.now();
  const sentStart = Date.now() - SPAN_MS;
  const total = counts.historical + counts.open + counts.filledWhileDown + counts.neverSent;
  const unsettled = total - counts.historical;
  const fates = [
    ...Array.from({ length: counts.open }, () => 'open' as const),
    ...Array.from({ length: counts.filledWhileDown }, () => 'filledWhileDown' as const),
    ...Array.from({ length: counts.neverSent }, () => 'neverSent' as const),
  ];
  const scenario = { open: [] as string[], filledWhileDown: [] as string[], neverSent: [] as string[] };
  const chunks: string[] = [line({ k: 'start', t: sentStart - 1000, pid: 1 })];
  for (let i = 0; i < total; i++) {
    const elapsed = Math.floor((i * SPAN_MS) / total);
    const sent = sentStart + elapsed;
    venue.advanceTo(venueStart + elapsed);
    const id = ids.next();
    const intent = `market-maker-${i + 1}`;
    // Spread over the unsettled orders: the three fates interleave in time.
    const fate = i < counts.historical ? (i % 50 === 0 ? 'filled' : 'canceled') : fates[((i - counts.historical) * 7) % unsettled]!;
    const market = fate === 'filled' || fate === 'filledWhileDown';
    chunks.push(line({ k: 'intent', t: sent, intent, kind: 'place', strategy: 'market-maker' }));
    chunks.push(line({ k: 'order', t: sent, id, intent, strategy: 'market-maker', symbol: 'BTCUSDT', side: 'buy', quantity: market ? '0.0001' : '0.001' }));
    if (fate === 'neverSent') {
      scenario.neverSent.push(id);
      continue;
    }
    const placed = venue.placeOrder('main', market
      ? { client_order_id: id, symbol: 'BTCUSDT', side: 'buy', type: 'market', quantity: '0.0001' }
      : { client_order_id: id, symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: '0.001', price: '50.00' });
    if (fate === 'open' || fate === 'filledWhileDown') {
      scenario[fate].push(id);
      continue;
    }
    if (fate === 'canceled') {
      venue.cancelOrder('main', id);
      chunks.push(line({ k: 'final', t: sent + 5, id, status: 'canceled', reason: 'canceled', executed: '0' }));
    } else {
      for (const t of venue.tradeHistory('main').filter((r) => r.client_order_id === id)) {
        chunks.push(line({ k: 'fill', t: sent + 1, id, trade: t.id, quantity: t.quantity.toFixed(), price: t.price.toFixed(), fee: t.fee.toFixed(), taker: t.taker, time: t.timestamp }));
      }
      chunks.push(line({ k: 'final', t: sent + 2, id, status: placed.status, reason: 'filled', executed: placed.quantity_cumulative.toFixed() }));
    }
    chunks.push(line({ k: 'note', t: sent + 10, event: 'status' }));
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-restart-'));
  const journalDir = path.join(dir, 'journal');
  mkdirSync(journalDir);
  writeFileSync(path.join(journalDir, `${botId}.journal.jsonl`), chunks.join(''));
  return { dir, botId, journalDir, ...scenario };
}

/** A bot restarted on a scenario's journal, with the moments of its start-up and its REST requests. */
export interface RestartedBot {
  readonly bot: LiveBot;
  readonly done: Promise<number>;
  /** performance.now() when the bot was started, reconciled, and sent its first new order. */
  readonly startedAt: number;
  readonly reconciled: Promise<number>;
  readonly firstOrder: Promise<number>;
  /** REST requests sent so far, as `METHOD path`, in order. */
  readonly requests: string[];
  /** Milliseconds the journal took to be read and compacted. */
  readonly journalMs: { readonly recover: number; readonly open: number };
  stop(): Promise<number>;
}

/**
 * Runs the live bot (market maker, through the live composition root) on the scenario's journal
 * against the exchange; the journal is the production one, watched for the reconciliation note and
 * the first order. `batchReads: false` takes the venue's history reads away (per-order lookups).
 */
export async function restartBot(ex: Exchange, scenario: RestartScenario, options: { batchReads?: boolean } = {}): Promise<RestartedBot> {
  const config = parseBotConfig({
    bot: { id: scenario.botId },
    strategy: {
      name: 'market-maker', symbols: ['BTCUSDT'],
      params: { halfSpreadBps: '10', orderQuantity: '0.01', maxInventory: '0.05', requoteBps: '5', minRequoteIntervalMs: 0 },
    },
    risk: { priceBand: '0.2' },
    execution: { unknownOrders: 'cancel', onShutdown: 'keep' },
    journal: { dir: scenario.journalDir }, logging: { console: 'off', level: 'warn' }, status: { intervalMs: 0 },
  }, scenario.dir);
  const credentials = ApiCredentials.from({ apiKey: ex.apiKey, secretKey: ex.secretKey, scheme: 'hs256' });
  const logger = createLogger({ level: 'warn', console: 'off', secrets: [ex.apiKey, ex.secretKey] });
  const strategy = await loadStrategy(config.strategy.name, config.strategy.params);
  const container = createLiveContainer({ config, baseUrl: ex.server.baseUrl, wsBaseUrl: ex.server.wsBaseUrl, credentials, logger, strategy });
  let reconciled: (at: number) => void = () => {};
  let firstOrder: (at: number) => void = () => {};
  const moments = {
    reconciled: new Promise<number>((resolve) => (reconciled = resolve)),
    firstOrder: new Promise<number>((resolve) => (firstOrder = resolve)),
  };
  const journal = new WatchedJournal(
    { dir: config.journal.dir, botId: config.bot.id, now: () => container.get<Clock>(TOKENS.Clock).now() },
    { reconciled, firstOrder },
  );
  container.rebindSync<Journal>(TOKENS.Journal).toConstantValue(journal);
  if (options.batchReads === false) {
    container.rebindSync<ClientVenuePort>(TOKENS.VenuePort).toDynamicValue((ctx) => {
      const port = new ClientVenuePort({ session: ctx.get<TradingSession>(TOKENS.TradingSession), rest: ctx.get<RestClient>(TOKENS.RestClient) });
      // Without history reads by page or range, the reconciliation looks each order up (two requests) and each short one's trades.
      const perOrder = port as { orderHistoryPage?: unknown; tradeHistory?: unknown };
      perOrder.orderHistoryPage = undefined;
      perOrder.tradeHistory = undefined;
      return port;
    });
  }
  const { bot, close } = resolveLiveBot(container);
  const transport = container.get<RestTransport>(TOKENS.RestTransport);
  const requests: string[] = [];
  const watching: Subscription = transport.events$.subscribe((e) => { if (e.kind === 'request-sent') requests.push(`${e.method} ${e.path}`); });
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const startedAt = performance.now();
  const done = bot.run(stopped).finally(async () => {
    watching.unsubscribe();
    await close();
    await logger.close();
  });
  return {
    bot, done, startedAt, requests, journalMs: journal.spent, ...moments,
    stop: async () => {
      stop();
      return done;
    },
  };
}

/** The production journal, telling when the reconciliation was noted and when the first new order was journaled. */
class WatchedJournal extends Journal {
  private ordered = false;
  /** Milliseconds spent reading (recover) and compacting (open) the journal. */
  readonly spent = { recover: 0, open: 0 };

  override recover(...args: Parameters<Journal['recover']>): ReturnType<Journal['recover']> {
    const started = performance.now();
    try {
      return super.recover(...args);
    } finally {
      this.spent.recover += performance.now() - started;
    }
  }

  override open(): ReturnType<Journal['open']> {
    const started = performance.now();
    try {
      return super.open();
    } finally {
      this.spent.open += performance.now() - started;
    }
  }

  constructor(options: ConstructorParameters<typeof Journal>[0], private readonly moments: { reconciled: (at: number) => void; firstOrder: (at: number) => void }) {
    super(options);
  }

  override onTrack(...args: Parameters<Journal['onTrack']>): void {
    super.onTrack(...args);
    if (!this.ordered) this.moments.firstOrder(performance.now());
    this.ordered = true;
  }

  override note(...args: Parameters<Journal['note']>): void {
    super.note(...args);
    if (args[0] === 'reconciled') this.moments.reconciled(performance.now());
  }
}
