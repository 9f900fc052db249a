import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simulatedVenueFactory } from '../../../backtest/sandbox/simulated-venue-factory.js';
import type { SandboxOptions } from '../../../backtest/sandbox/sandbox-config.js';
import type { SandboxServer } from '../../../backtest/sandbox/sandbox-server.js';
import { parseBotConfig } from '../../../framework/config/bot-config.js';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../../framework/exchange/rest/rest-transport.js';
import type { LiveBot } from '../../../framework/live/live-bot.js';
import { createLiveContainer, resolveLiveBot } from '../../../framework/live/live-container.js';
import { createLogger } from '../../../framework/log/logger.js';
import { loadStrategy } from '../../../framework/runtime/plugin-loader.js';
import { PushedMarket, startSandbox } from '../../backtest/sandbox/support/sandbox-fixture.js';

/** A sandbox exchange over the real simulated venue, with a pushed market and a REST client of its account. */
export interface Exchange {
  readonly server: SandboxServer;
  readonly market: PushedMarket;
  readonly rest: RestClient;
  readonly apiKey: string;
  readonly secretKey: string;
  close(): Promise<void>;
}

/** Starts the sandbox (BTCUSDT, USDT 1000 / BTC 1; `overrides` e.g. faults, latency) and a REST client of its account. */
export async function startExchange(overrides: Partial<SandboxOptions> = {}): Promise<Exchange> {
  const { server, market } = await startSandbox({ venue: simulatedVenueFactory(PushedMarket.START), ...overrides });
  const key = server.apiKeys[0]!;
  const transport = new RestTransport({ baseUrl: server.baseUrl, credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }) });
  return {
    server, market, rest: new RestClient(transport), apiKey: key.apiKey, secretKey: key.secretKey,
    close: async () => {
      market.end();
      await transport.close();
      await server.close();
    },
  };
}

/** A bot running in this process against the exchange, as `tradeloop live` runs it. */
export interface RunningBot {
  readonly bot: LiveBot;
  readonly journalFile: string;
  readonly done: Promise<number>;
  /** Lines of the journal so far, parsed. */
  journal(): Record<string, unknown>[];
  stop(): Promise<number>;
}

/** Builds the bot from a raw config (as YAML would give it) through the live composition root and runs it. */
export async function startBot(exchange: Exchange, raw: Record<string, unknown>): Promise<RunningBot> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-bot-'));
  const config = parseBotConfig({ journal: { dir: path.join(dir, 'journal') }, logging: { console: 'off', level: 'warn' }, status: { intervalMs: 0 }, ...raw }, dir);
  const credentials = ApiCredentials.from({ apiKey: exchange.apiKey, secretKey: exchange.secretKey, scheme: 'hs256' });
  const logger = createLogger({ level: 'warn', console: 'off', secrets: [exchange.apiKey, exchange.secretKey] });
  const strategy = await loadStrategy(config.strategy.name, config.strategy.params);
  const { bot, close } = resolveLiveBot(createLiveContainer({
    config, baseUrl: exchange.server.baseUrl, wsBaseUrl: exchange.server.wsBaseUrl, credentials, logger, strategy,
  }));
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const done = bot.run(stopped).finally(async () => {
    await close();
    await logger.close();
  });
  const journalFile = path.join(config.journal.dir, `${config.bot.id}.journal.jsonl`);
  return {
    bot, journalFile, done,
    journal: () => readJournal(journalFile),
    stop: async () => {
      stop();
      return done;
    },
  };
}

/** The journal's records (empty before the file exists). */
export function readJournal(file: string): Record<string, unknown>[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/**
 * The YAML of a market-maker bot `id` quoting BTCUSDT on `exchange` as a spawned `tradeloop live`
 * reads it (journal and log beside the file), with `execution` overrides, e.g. `unknownOrders: cancel`.
 */
export function liveBotYaml(id: string, exchange: Exchange, execution = ''): string {
  return [
    `bot: { id: ${id} }`,
    `exchange: { baseUrl: "${exchange.server.baseUrl}", wsBaseUrl: "${exchange.server.wsBaseUrl}" }`,
    'strategy:',
    '  name: market-maker',
    '  symbols: [BTCUSDT]',
    '  params: { halfSpreadBps: "10", orderQuantity: "0.01", maxInventory: "0.05", requoteBps: "5", minRequoteIntervalMs: 0 }',
    'risk: { priceBand: "0.2" }',
    `execution: { ${execution === '' ? '' : `${execution}, `}onShutdown: cancel }`,
    'journal: { dir: ./journal }',
    'logging: { level: info, console: "off", file: ./bot.jsonl }',
    'status: { intervalMs: 0 }',
  ].join('\n');
}

/** A BTCUSDT book snapshot with one level a side (a snapshot restarts the book, so any move is one frame). */
export function book(sequence: number, bid: string, ask: string): Record<string, unknown> {
  return { ch: 'orderbook/full', snapshot: { BTCUSDT: { t: PushedMarket.START + sequence, s: sequence, a: [[ask, '5']], b: [[bid, '5']] } } };
}

/** A public trade frame (taker `side`). */
export function trade(id: number, price: string, quantity: string, side: 'buy' | 'sell'): Record<string, unknown> {
  return { ch: 'trades', update: { BTCUSDT: [{ t: PushedMarket.START + 1000 + id, i: id, p: price, q: quantity, s: side }] } };
}

/**
 * Waits for `check` (polling every 100 ms), failing after `ms`. A check usually asks the sandbox
 * over REST with the bot's own key: polled faster, the test would spend most of the key's
 * documented 20/s budget, which the bot's REST and stream requests spend too, and starve it.
 */
export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 8000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
