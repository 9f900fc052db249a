import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { LatencyKind, LatencyModel } from '../../backtest/venue/matching/latency-model.js';
import type { SandboxOptions } from '../../backtest/sandbox/sandbox-config.js';
import { ZERO } from '../../framework/model/decimal.js';
import type { LiveBotPhase } from '../../framework/live/live-bot.js';
import { book, liveBotYaml, readJournal, startBot, startExchange, trade, until, type Exchange, type RunningBot } from './support/bot-harness.js';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url));

let exchange: Exchange | undefined;
let running: RunningBot | undefined;
let child: ChildProcess | undefined;
let dir: string | undefined;

afterEach(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await running?.stop().catch(() => undefined);
  running = undefined;
  await exchange?.close();
  exchange = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Sandbox delays per kind of request (ms), read as each request arrives: the test slows what it needs. */
class SetDelays implements LatencyModel {
  constructor(
    private readonly entry: Partial<Record<LatencyKind, number>> = {},
    private readonly response: Partial<Record<LatencyKind, number>> = {},
  ) {}

  entryDelayMs(_now: number, kind: LatencyKind): number {
    return this.entry[kind] ?? 0;
  }

  responseDelayMs(_now: number, kind: LatencyKind): number {
    return this.response[kind] ?? 0;
  }
}

/** A market maker quoting BTCUSDT around 100 as soon as it starts. */
function marketMaker(id: string): Record<string, unknown> {
  return {
    bot: { id },
    strategy: {
      name: 'market-maker', symbols: ['BTCUSDT'],
      params: { halfSpreadBps: '10', orderQuantity: '0.01', maxInventory: '0.05', requoteBps: '5', minRequoteIntervalMs: 0 },
    },
    risk: { priceBand: '0.2' },
    execution: { unknownOrders: 'adopt', onShutdown: 'cancel', shutdownTimeoutMs: 20_000 },
  };
}

async function quotingExchange(overrides: Partial<SandboxOptions> = {}): Promise<Exchange> {
  const ex = (exchange = await startExchange(overrides));
  ex.market.push(book(1, '99.00', '101.00'));
  return ex;
}

/** The exchange's truth: the bot's active orders. */
async function openOf(ex: Exchange, prefix: string): Promise<string[]> {
  return (await ex.rest.spot.getActiveOrders({ symbol: 'BTCUSDT' })).filter((o) => o.client_order_id.startsWith(prefix)).map((o) => o.client_order_id);
}

/** The exchange's truth: every order of the bot, whatever its status. */
async function historyOf(ex: Exchange, prefix: string): Promise<string[]> {
  const history = await ex.rest.spot.getOrderHistory({ symbol: 'BTCUSDT', limit: 1000 });
  return [...history.map((o) => o.client_order_id), ...await openOf(ex, prefix)].filter((id) => id.startsWith(prefix));
}

async function stopIn(bot: RunningBot, phase: LiveBotPhase): Promise<number> {
  await until(() => bot.bot.phase === phase, 15_000, `phase ${phase}`);
  return bot.stop();
}

describe('a live bot stopped during start-up', () => {
  it('before anything is connected: exit 0, nothing placed', async () => {
    const ex = await quotingExchange();
    const bot = (running = await startBot(ex, marketMaker('st0')));
    expect(await bot.stop()).toBe(0);
    expect(bot.bot.phase).toBe('stopped');
    expect(await historyOf(ex, 'st0_')).toEqual([]);
  }, 30_000);

  it('while the trading stream connects and subscribes: the strategy never starts, nothing placed', async () => {
    // Every query (the subscriptions, the reconciliation's snapshots) takes a second.
    const ex = await quotingExchange({ latency: new SetDelays({ query: 1000 }) });
    const bot = (running = await startBot(ex, marketMaker('st1')));
    expect(await stopIn(bot, 'connecting')).toBe(0);
    expect(bot.bot.current?.engine.status).toBe('stopped');
    expect(bot.bot.current?.engine.stats.dispatched).toBe(0);
    expect(await historyOf(ex, 'st1_')).toEqual([]);
    expect(bot.journal().filter((r) => r['k'] === 'intent')).toEqual([]);
  }, 30_000);

  it('during reconciliation: the orders it finds are canceled, the strategy never starts', async () => {
    const ex = await quotingExchange({ latency: new SetDelays({ query: 1000 }) });
    // An order of the bot from an earlier life (not in its journal): the reconciliation adopts it.
    await ex.rest.spot.createOrder({ client_order_id: 'st2_earlier', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: '0.01', price: '98' });
    const bot = (running = await startBot(ex, marketMaker('st2')));
    expect(await stopIn(bot, 'reconciling')).toBe(0);
    expect(await openOf(ex, 'st2_')).toEqual([]);
    expect(await historyOf(ex, 'st2_')).toEqual(['st2_earlier']);
    expect(bot.bot.current?.engine.stats.dispatched).toBe(0);
    expect(bot.journal().filter((r) => r['k'] === 'intent')).toEqual([]);
    const stopped = bot.journal().find((r) => r['k'] === 'note' && r['event'] === 'stopped');
    expect(stopped).toMatchObject({ canceled: ['st2_earlier'], left: [] });
  }, 30_000);
});

describe('a live bot stopped with requests in flight', () => {
  it('slow answers, delayed reports and a fill: nothing stays open, every execution is booked', async () => {
    // Answers to new orders take 1.5 s; reports take 4 s, so when the stop comes the bot has heard
    // nothing of its quotes, and of the bid's fill it hears only by looking the order up.
    const ex = await quotingExchange({ latency: new SetDelays({}, { place: 1500 }), faults: { orderReportDelayMs: 4000 } });
    const bot = (running = await startBot(ex, marketMaker('st3')));
    const quotes = await until(async () => {
      const open = await openOf(ex, 'st3_');
      return open.length === 2 ? open : undefined;
    }, 15_000, 'two quotes on the exchange');
    ex.market.push(trade(1, '99.00', '1', 'sell'));
    await until(async () => (await openOf(ex, 'st3_')).length === 1, 8000, 'bid filled on the exchange');

    expect(await bot.stop()).toBe(0);
    expect(await openOf(ex, 'st3_')).toEqual([]);
    expect((await historyOf(ex, 'st3_')).sort()).toEqual([...quotes].sort());

    const trades = (await ex.rest.spot.getTradeHistory({ symbol: 'BTCUSDT', limit: 1000 })).filter((t) => t.client_order_id.startsWith('st3_'));
    expect(trades).toHaveLength(1);
    const booked = bot.journal().filter((r) => r['k'] === 'fill').map((r) => `${String(r['id'])} ${String(r['trade'])} ${String(r['quantity'])} @ ${String(r['price'])}`);
    expect(booked).toEqual(trades.map((t) => `${t.client_order_id} ${t.id} ${t.quantity.toFixed()} @ ${t.price.toFixed()}`));
    const exchangePosition = trades.reduce((q, t) => (t.side === 'buy' ? q.plus(t.quantity) : q.minus(t.quantity)), ZERO);
    const position = bot.bot.current?.status().positions.find((p) => p.symbol === 'BTCUSDT')?.quantity;
    expect(position?.equals(exchangePosition)).toBe(true);
    const stopped = bot.journal().find((r) => r['k'] === 'note' && r['event'] === 'stopped');
    expect(stopped).toMatchObject({ left: [] });
    // Each order has its final line, though no report of the exchange came before the bot stopped listening.
    const finals = bot.journal().filter((r) => r['k'] === 'final').map((r) => `${String(r['id'])} ${String(r['status'])}`).sort();
    const bid = trades[0]!.client_order_id;
    expect(finals).toEqual(quotes.map((id) => `${id} ${id === bid ? 'filled' : 'canceled'}`).sort());
  }, 40_000);
});

describe('`tradeloop live` sent SIGTERM during start-up', () => {
  it('while connecting: exits 0, nothing placed, and its last lines say nothing was canceled or left', async () => {
    const ex = await quotingExchange({ latency: new SetDelays({ query: 1000 }) });
    dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-stop-'));
    const configFile = path.join(dir, 'bot.yaml');
    writeFileSync(configFile, liveBotYaml('sg1', ex));
    const journalFile = path.join(dir, 'journal', 'sg1.journal.jsonl');
    const proc = (child = spawn(process.execPath, [BIN, 'live', '--config', configFile], {
      env: { ...process.env, TRADELOOP_API_KEY: ex.apiKey, TRADELOOP_SECRET_KEY: ex.secretKey },
      stdio: ['ignore', 'ignore', 'pipe'],
    }));
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    // The journal opens once the instruments are known, just before the trading stream connects.
    await until(() => existsSync(journalFile), 15_000, `journal opened (stderr: ${stderr})`);
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await historyOf(ex, 'sg1_')).toEqual([]);
    expect(readJournal(journalFile).filter((r) => r['k'] === 'intent' || r['event'] === 'reconciled')).toEqual([]);
    const messages = readFileSync(path.join(dir, 'bot.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { message: string }).message);
    expect(messages).toContain('stopped: 0 order(s) canceled, 0 left');
  }, 40_000);
});
