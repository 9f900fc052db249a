import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { RecordingReader } from '../backtest/recording/recording-reader.js';
import { ClientVenuePort } from '../framework/execution/client-venue-port.js';
import type { VenuePort } from '../framework/execution/venue-port.js';
import { ApiCredentials } from '../framework/exchange/rest/credentials.js';
import { RestClient } from '../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../framework/exchange/rest/rest-transport.js';
import { PublicSession } from '../framework/exchange/ws/public-session.js';
import { TradingSession } from '../framework/exchange/ws/trading-session.js';
import { LiveMarketFeed } from '../framework/live/live-market-feed.js';
import { Instrument } from '../framework/model/instrument.js';
import { BotKernel } from '../framework/runtime/bot-kernel.js';
import { loadStrategy } from '../framework/runtime/plugin-loader.js';
import type { StrategyPlugin } from '../framework/runtime/strategy.js';
import { SILENT_LOGGER, liveSchedulers } from '../framework/runtime/runtime-ports.js';
import type { Clock } from '../framework/time/clock.js';
import { printTable } from './support/report.js';

const CHILD = fileURLToPath(new URL('./tick-to-intent-child.ts', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url));
const SPEED = 20;
const DURATION_MS = 15_000;
/** The bot's `keepOrderPathWarmMs` in the second run (the first runs without). */
const WARM_MS = 5;

/**
 * Tick-to-intent latency of a live bot against the sandbox exchange (its own process) over loopback: from the
 * moment a book frame is read off the public WebSocket (the socket's message event stamps it, before the
 * frame is even decoded) to the moment an intent the strategy made on that book is handed to the venue
 * port (`placeOrder`, `replaceOrder`, `cancelOrder`... called: risk gate and execution adapter passed, the
 * request about to be serialised and queued on the trading socket). The market maker quotes ETHUSDT on the
 * shipped sample recording replayed at 20x; each intent emitted while handling a book is timed against the
 * newest book frame received before it (under conflation that is the book the strategy saw). A handler's
 * later intents are shown apart: they must not wait for the first one's send. Times come from
 * performance.now(). Two runs, each in a process of its own (a second bot in the same process would
 * find the code the first one compiled) against a fresh sandbox: the bot as configured by default,
 * then with `keepOrderPathWarmMs` (dry runs of the risk checks between intents).
 */
export async function run(): Promise<void> {
  for (const warm of [undefined, WARM_MS]) {
    const child = spawn(process.execPath, ['--conditions=tradeloop-source', '--import', 'tsx', CHILD, ...(warm === undefined ? [] : [String(warm)])], { stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`tick-to-intent run exited with ${code}`);
  }
}

/** One run of the benchmark in this process: the bot with `keepOrderPathWarmMs` (absent: off). */
export async function measure(keepOrderPathWarmMs: number | undefined): Promise<void> {
  const header = await new RecordingReader(SAMPLE).readHeader();
  const symbols = { ETHUSDT: header.symbols['ETHUSDT']! };
  const clock: Clock = { now: () => performance.timeOrigin + performance.now() };
  const server = await startSandboxProcess();
  const credentials = ApiCredentials.from({ apiKey: server.apiKey, secretKey: server.secretKey, scheme: 'hs256' });
  const transport = new RestTransport({ baseUrl: server.baseUrl, credentials });
  const session = TradingSession.create({ url: `${server.wsBaseUrl}/api/3/ws/trading`, clock, credentials });
  const publicSession = PublicSession.create({ url: `${server.wsBaseUrl}/api/3/ws/public`, clock });
  const venue = new ClientVenuePort({ session, rest: new RestClient(transport) });
  const instruments = [new Instrument('ETHUSDT', symbols.ETHUSDT)];
  let lastFrameAt = Number.NaN;
  /** Receive time of the frame behind the book handler that runs now (NaN otherwise) and its intents so far. */
  let causeAt = Number.NaN;
  let handedOver = 0;
  /** Frame received -> the strategy's onBook entered / returned (where the time goes). */
  const toHandler: number[] = [];
  const handlerMs: number[] = [];
  /** Frame received -> each intent handed to the venue port: all of them, a handler's first, its later ones. */
  const latencies: number[] = [];
  const firstMs: number[] = [];
  const laterMs: number[] = [];
  /** onBook returned -> its first intent handed to the venue port (the risk gate and the execution adapter). */
  const gateMs: number[] = [];
  let returnedAt = Number.NaN;
  let cpuShare = Number.NaN;
  const feed = new LiveMarketFeed({ session: publicSession, instruments, logger: SILENT_LOGGER, onBookFrame: (at) => (lastFrameAt = at) });
  const strategy = await loadStrategy('market-maker', { halfSpreadBps: '4', orderQuantity: '0.05', maxInventory: '0.5', requoteBps: '1', minRequoteIntervalMs: 0 });
  const plugin: StrategyPlugin = {
    ...strategy.plugin,
    create: (params) => {
      const inner = strategy.plugin.create(params);
      return {
        ...inner,
        onBook: (ctx, symbol, book) => {
          causeAt = lastFrameAt;
          handedOver = 0;
          // The engine hands a handler's intents on right after it returns, within the same drain:
          // whatever reaches the venue port after that drain was not caused by this book.
          queueMicrotask(() => (causeAt = Number.NaN));
          toHandler.push(clock.now() - causeAt);
          const intents = inner.onBook?.(ctx, symbol, book);
          returnedAt = clock.now();
          handlerMs.push(returnedAt - causeAt);
          return intents;
        },
      };
    },
  };
  const handedToPort = (): void => {
    if (!Number.isFinite(causeAt)) return;
    const now = clock.now();
    const latency = now - causeAt;
    latencies.push(latency);
    if (handedOver++ === 0) {
      firstMs.push(latency);
      gateMs.push(now - returnedAt);
    } else {
      laterMs.push(latency);
    }
  };
  const kernel = new BotKernel({
    botId: 'lat', strategyId: 'market-maker', plugin, params: strategy.params, instruments,
    market: { books$: feed.books$, market$: feed.market$ }, venue: timedVenue(venue, handedToPort), clock, schedulers: liveSchedulers(),
    risk: { maxOrdersPerWindow: 250 }, errorPolicy: 'halt', unknownOrders: 'cancel', keepOrderPathWarmMs,
  });
  try {
    await venue.start(10_000);
    await kernel.start();
    await feed.start();
    const cpuBefore = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
    const cpu = process.cpuUsage(cpuBefore);
    cpuShare = (cpu.user + cpu.system) / 1000 / DURATION_MS;
    await kernel.stop('cancel');
  } finally {
    await feed.close();
    venue.close();
    await session.close();
    await transport.close();
    server.child.kill('SIGTERM');
  }
  const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`;
  const row = (stage: string, values: number[]): Record<string, string | number> => {
    values.sort((a, b) => a - b);
    const pick = (q: number): number => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN;
    return { stage, count: values.length, p50: us(pick(0.5)), p90: us(pick(0.9)), p99: us(pick(0.99)), max: us(values[values.length - 1] ?? Number.NaN) };
  };
  const warm = keepOrderPathWarmMs === undefined ? 'order path not kept warm' : `keepOrderPathWarmMs ${keepOrderPathWarmMs}: ${kernel.warmer?.dryRuns ?? 0} dry runs`;
  console.log(`bot process CPU while trading: ${(cpuShare * 100).toFixed(1)} % of one core`);
  printTable(`tick-to-intent (from the book frame read off the socket; ${warm})`, [
    row('-> onBook entered', toHandler),
    row('-> onBook returned', handlerMs),
    row('-> intent handed to the venue port', latencies),
    row('   a handler\'s first intent', firstMs),
    row('   its later intents', laterMs),
    row('(onBook returned -> its first intent at the venue port)', gateMs),
  ]);
}

/** The venue port, telling `handed` synchronously whenever an order request is handed to it. */
function timedVenue(venue: VenuePort, handed: () => void): VenuePort {
  return {
    account: venue.account,
    orderReports$: venue.orderReports$,
    balances$: venue.balances$,
    reconnected$: venue.reconnected$,
    placeOrder: (order) => { handed(); return venue.placeOrder(order); },
    placeOrderList: (list) => { handed(); return venue.placeOrderList(list); },
    replaceOrder: (clientOrderId, change) => { handed(); return venue.replaceOrder(clientOrderId, change); },
    cancelOrder: (clientOrderId) => { handed(); return venue.cancelOrder(clientOrderId); },
    cancelAll: (symbol) => { handed(); return venue.cancelAll(symbol); },
    findOrder: (clientOrderId) => venue.findOrder(clientOrderId),
    openOrders: (symbol) => venue.openOrders(symbol),
    balances: () => venue.balances(),
    orderTrades: (order) => venue.orderTrades(order),
  };
}

/** `tradeloop sandbox` in a child process (so its work does not share the bot's event loop); its printed address and keys. */
async function startSandboxProcess(): Promise<{ child: ChildProcess; baseUrl: string; wsBaseUrl: string; apiKey: string; secretKey: string }> {
  const bin = fileURLToPath(new URL('../bin/tradeloop.mjs', import.meta.url));
  const child = spawn(process.execPath, [bin, 'sandbox', '--recording', SAMPLE, '--speed', String(SPEED), '--balance', 'USDT=100000', '--balance', 'ETH=10'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const field = (name: string): string | undefined => new RegExp(`${name}:\\s+(\\S+)`).exec(out)?.[1];
      const [baseUrl, wsBaseUrl, apiKey, secretKey] = [field('base_url'), field('ws_base_url'), field('api_key'), field('secret_key')];
      if (baseUrl && wsBaseUrl && apiKey && secretKey) resolve({ child, baseUrl, wsBaseUrl, apiKey, secretKey });
    });
  });
}
