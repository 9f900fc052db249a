import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runBacktest } from '../backtest/replay/backtest-runner.js';
import { futuresVenueOf } from '../backtest/sandbox/futures-scope.js';
import { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../backtest/sandbox/simulated-venue-factory.js';
import { queueModelNamed } from '../backtest/venue/matching/queue-model.js';
import { addedLatency } from '../backtest/venue/matching/recorded-latency.js';
import type { BotConfig } from '../framework/config/bot-config.js';
import type { LatencySpec } from '../framework/config/latency-spec.js';
import { ApiCredentials } from '../framework/exchange/rest/credentials.js';
import { createLiveContainer, resolveLiveBot } from '../framework/live/live-container.js';
import { createLogger } from '../framework/log/logger.js';
import { toWire, type Decimal } from '../framework/model/decimal.js';
import { ValidationError } from '../framework/model/errors.js';
import type { TradingBalance } from '../framework/model/resources/balance.js';
import { loadConfiguredStrategy } from './load-configured-strategy.js';
import { lockstepWiring } from './lockstep-wiring.js';

/** One execution as the comparison sees it: every field as text, so equal means equal. */
export interface ComparedFill {
  readonly time: number;
  readonly symbol: string;
  readonly side: string;
  readonly price: string;
  readonly quantity: string;
  readonly fee: string;
  readonly liquidity: 'maker' | 'taker';
}

/** What a run left: its executions in time order and the account's final totals. */
export interface RunOutcome {
  readonly fills: readonly ComparedFill[];
  /** Available plus reserved, per currency, as text (a futures account: its margin balances). */
  readonly finalBalances: Readonly<Record<string, string>>;
  /** A futures account: the positions open at the end, by symbol, as `quantity @ entry price` (signed quantity). */
  readonly positions?: Readonly<Record<string, string>>;
  /** Market frames replayed. */
  readonly frames: number;
  readonly wallMs: number;
  /** Lockstep runs: from the bot trading to the end of the replay (the wall time without start-up). */
  readonly replayMs?: number;
  /** Lockstep runs: control rounds the replay took. */
  readonly rounds?: number;
}

/** The latency both runs of a comparison use: the config's backtest latency unless given. */
function latencyOf(config: BotConfig, latency: LatencySpec | undefined): LatencySpec {
  return latency ?? config.backtest.latency;
}

/** A backtest of `config` on `recording` (the config's balances, seed, risk and queue model). */
export async function backtestOutcome(config: BotConfig, configFile: string, recording: string, latency?: LatencySpec): Promise<RunOutcome> {
  const { plugin, params } = await loadConfiguredStrategy(config, configFile);
  const result = await runBacktest({
    strategyRef: config.strategy.name, plugin, params, symbols: config.strategy.symbols, recordings: [recording], account: config.bot.account === 'futures' ? 'futures' : 'spot',
    leverage: config.bot.leverage, queueModel: config.backtest.queueModel, balances: config.backtest.balances, risk: config.risk, seed: config.backtest.seed,
    latency: latencyOf(config, latency), candles: config.strategy.candles, errorPolicy: config.strategy.errorPolicy, botId: config.bot.id,
  });
  return {
    fills: result.fills.map((f) => ({
      time: f.time, symbol: f.symbol, side: f.side, price: f.price.toFixed(), quantity: f.quantity.toFixed(), fee: f.fee.toFixed(), liquidity: f.liquidity,
    })),
    finalBalances: Object.fromEntries(Object.entries(result.finalBalances).map(([c, v]) => [c, v.toFixed()])),
    ...(config.bot.account === 'futures' ? { positions: positionTexts(Object.entries(result.meta.futures?.openPositions ?? {}).map(([symbol, p]) => ({ symbol, ...p }))) } : {}),
    frames: result.meta.events, wallMs: result.meta.wallMs,
  };
}

/**
 * A lockstep paper run of `config` on `recording`: the sandbox over loopback, the bot through its
 * real REST and WebSocket clients, the backtest's balances, seed, queue model and latency (so the
 * two runs compare). Executions and balances are read from the sandbox's venue at the end. The
 * bot's journal goes to a temporary folder under `journalParent` (default the system's), removed
 * after the run.
 */
export async function lockstepPaperOutcome(
  config: BotConfig, configFile: string, recording: string, latency?: LatencySpec, journalParent = tmpdir(),
): Promise<RunOutcome> {
  const futures = config.bot.account === 'futures';
  if (!futures && config.bot.account !== 'spot') throw new ValidationError('bot.account', 'must be spot or futures: the comparison reads those accounts', config.bot.account);
  const started = performance.now();
  const journalDir = mkdtempSync(path.join(journalParent, 'tradeloop-lockstep-'));
  const balances = Object.fromEntries(Object.entries(config.backtest.balances).map(([c, v]) => [c, toWire(v)]));
  const server = await SandboxServer.start({
    venue: simulatedVenueFactory(0, {}, queueModelNamed(config.backtest.queueModel, 'backtest.queueModel')), market: { kind: 'recording', path: recording },
    // A futures bot's balances are its futures margin, as the backtest's are.
    accounts: [{ id: 'main', [futures ? 'futures' : 'spot']: balances }],
    latency: addedLatency(latencyOf(config, latency), config.backtest.seed), lockstep: true, paused: true,
  });
  const logger = createLogger({ level: 'error', console: 'off' });
  let tradingAt = started;
  let replayEnd = started;
  try {
    const key = server.apiKeys[0]!;
    const credentials = ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' });
    const strategy = await loadConfiguredStrategy(config, configFile);
    const wiring = lockstepWiring(server);
    const botConfig: BotConfig = { ...config, journal: { dir: journalDir, durable: false }, status: { intervalMs: 0 } };
    const { bot, close } = resolveLiveBot(createLiveContainer({
      config: botConfig, baseUrl: server.baseUrl, wsBaseUrl: server.wsBaseUrl, credentials, logger, strategy,
      clock: wiring.clock, schedulers: wiring.schedulers, socketHooks: wiring.socketHooks,
    }));
    try {
      wiring.begin(bot);
      void bot.trading.then(() => (tradingAt = performance.now()));
      const stop = server.done.then(() => (replayEnd = performance.now()));
      void stop.then(() => setImmediate(() => wiring.release()));
      const code = await bot.run(stop);
      if (code !== 0) throw new Error(`the lockstep bot exited with ${code}`);
    } finally {
      await close();
    }
    const account = 'main';
    const fills = [...server.venue.tradeHistory(account)].reverse().map((t): ComparedFill => ({
      time: t.timestamp, symbol: t.symbol, side: t.side, price: t.price.toFixed(), quantity: t.quantity.toFixed(), fee: t.fee.toFixed(), liquidity: t.taker ? 'taker' : 'maker',
    }));
    const futuresVenue = futures ? futuresVenueOf(server.venue) : undefined;
    const positions = futuresVenue !== undefined
      ? { positions: positionTexts(futuresVenue.accounts(account).flatMap((a) => a.positions ?? []).map((p) => ({ symbol: p.symbol, quantity: p.quantity, entryPrice: p.price_entry }))) }
      : {};
    return {
      fills, finalBalances: totals(futuresVenue !== undefined ? futuresVenue.balances(account) : server.venue.spotBalances(account)), ...positions, frames: server.framesServed,
      wallMs: Math.round(performance.now() - started), replayMs: Math.round(replayEnd - tradingAt), rounds: server.lockstep?.rounds,
    };
  } finally {
    await server.close();
    await logger.close();
    rmSync(journalDir, { recursive: true, force: true });
  }
}

/** The differences between two runs' outcomes, one line each; empty when they are the same. */
export function outcomeDifferences(expected: RunOutcome, actual: RunOutcome): string[] {
  const out: string[] = [];
  const n = Math.max(expected.fills.length, actual.fills.length);
  for (let i = 0; i < n; i++) {
    const a = expected.fills[i];
    const b = actual.fills[i];
    const textA = a === undefined ? 'none' : fillText(a);
    const textB = b === undefined ? 'none' : fillText(b);
    if (textA !== textB) out.push(`fill ${i + 1}: ${textA} vs ${textB}`);
  }
  for (const currency of new Set([...Object.keys(expected.finalBalances), ...Object.keys(actual.finalBalances)])) {
    const a = expected.finalBalances[currency] ?? '0';
    const b = actual.finalBalances[currency] ?? '0';
    if (a !== b) out.push(`final ${currency}: ${a} vs ${b}`);
  }
  const positionsA = expected.positions ?? {};
  const positionsB = actual.positions ?? {};
  for (const symbol of new Set([...Object.keys(positionsA), ...Object.keys(positionsB)])) {
    const a = positionsA[symbol] ?? 'flat';
    const b = positionsB[symbol] ?? 'flat';
    if (a !== b) out.push(`position ${symbol}: ${a} vs ${b}`);
  }
  return out;
}

/** Open positions as text by symbol (`quantity @ entry price`), flat ones left out. */
function positionTexts(positions: readonly { readonly symbol: string; readonly quantity: Decimal; readonly entryPrice?: Decimal }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of positions) if (!p.quantity.isZero()) out[p.symbol] = `${p.quantity.toFixed()} @ ${p.entryPrice?.toFixed() ?? '?'}`;
  return out;
}

/** A fill as one line of text (time, symbol, side, quantity @ price, fee, maker/taker). */
export function fillText(f: ComparedFill): string {
  return `${f.time} ${f.symbol} ${f.side} ${f.quantity} @ ${f.price} fee ${f.fee} ${f.liquidity}`;
}

function totals(balances: readonly TradingBalance[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of balances) if (b.currency !== undefined) out[b.currency] = b.available.plus(b.reserved).toFixed();
  return out;
}
