import { performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
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
import { DEFAULT_HELPER_THREAD_NICENESS, keepHelperThreadsBehind } from '../framework/live/helper-threads.js';
import { LiveMarketFeed } from '../framework/live/live-market-feed.js';
import { Instrument } from '../framework/model/instrument.js';
import { BotKernel } from '../framework/runtime/bot-kernel.js';
import { loadStrategy } from '../framework/runtime/plugin-loader.js';
import type { StrategyPlugin } from '../framework/runtime/strategy.js';
import { SILENT_LOGGER, liveSchedulers } from '../framework/runtime/runtime-ports.js';
import type { Clock } from '../framework/time/clock.js';
import { liveNodeFlags } from './support/live-node-flags.js';
import { printTable } from './support/report.js';

const CHILD = fileURLToPath(new URL('./tick-to-intent-child.ts', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url));
const SPEED = 20;
const DURATION_MS = 15_000;
/** The bot's `keepOrderPathWarmMs` in the second run (the first runs without). */
const WARM_MS = 5;
/** Trading time per p50 of the JIT's progress line. */
const WINDOW_MS = 3_000;
/** Trading time whose intents the steady-state tables leave out (the first books, code still being compiled). */
const WARM_UP_MS = 2_000;

/** Slowest intents listed with when they came and the collections that held them up. */
const SLOWEST_SHOWN = 6;

/** Names of the `kind` of a `gc` performance entry (perf_hooks.constants.NODE_PERFORMANCE_GC_*). */
const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental marking', 8: 'weak callbacks' };
/** Niceness of the sandbox process (the bot's is 0): the exchange yields the CPU to the bot measured. */
const SANDBOX_NICENESS = 10;

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
 * then with `keepOrderPathWarmMs` (the order path rehearsed before trading, then, between intents,
 * a book for the standing rehearsal and dry runs of the risk checks). The bot's process runs with
 * the node flags `tradeloop live` and `paper` give theirs (bin/live-node-flags, and V8's helper
 * pool as bin/tradeloop sizes it).
 *
 * The sandbox stands for a remote exchange, yet runs on the bot's machine: it runs at a lower CPU
 * priority ({@link SANDBOX_NICENESS}), so that on a machine with few cores it does not take the
 * bot's core while a frame is handled (at equal priority, the bot's p99 mostly measured the
 * scheduler's time slices). Each table is shown twice: every intent of the run, then only those
 * after {@link WARM_UP_MS} of trading, once the code a bot runs on every book is compiled: the
 * latency a bot shows for the rest of its life.
 */
export async function run(): Promise<void> {
  for (const warm of [undefined, WARM_MS]) {
    const child = spawn(process.execPath, [...liveNodeFlags(), '--conditions=tradeloop-source', '--import', 'tsx', CHILD, ...(warm === undefined ? [] : [String(warm)])], { stdio: 'inherit' });
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
  const toHandler = new TimedSamples();
  const handlerMs = new TimedSamples();
  /** Frame received -> each intent handed to the venue port: all of them, a handler's first, its later ones. */
  const latencies = new TimedSamples();
  const firstMs = new TimedSamples();
  const laterMs = new TimedSamples();
  /** onBook returned -> its first intent handed to the venue port (the risk gate and the execution adapter). */
  const gateMs = new TimedSamples();
  /** For the books that led to an intent: frame received -> onBook entered, and the time in onBook. */
  const intentToHandler = new TimedSamples();
  const intentInHandler = new TimedSamples();
  let enteredAt = Number.NaN;
  let returnedAt = Number.NaN;
  let tradingFrom = Number.NaN;
  /** The bot's garbage collections, to tell which slow intents waited for one. */
  const collections: PerformanceEntry[] = [];
  const collectionObserver = new PerformanceObserver((list) => collections.push(...list.getEntries()));
  collectionObserver.observe({ entryTypes: ['gc'] });
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
          enteredAt = clock.now();
          toHandler.add(causeAt, enteredAt - causeAt);
          const intents = inner.onBook?.(ctx, symbol, book);
          returnedAt = clock.now();
          handlerMs.add(causeAt, returnedAt - causeAt);
          return intents;
        },
      };
    },
  };
  const handedToPort = (): void => {
    if (!Number.isFinite(causeAt)) return;
    const now = clock.now();
    const latency = now - causeAt;
    latencies.add(causeAt, latency);
    if (handedOver++ === 0) {
      firstMs.add(causeAt, latency);
      gateMs.add(causeAt, now - returnedAt);
      intentToHandler.add(causeAt, enteredAt - causeAt);
      intentInHandler.add(causeAt, returnedAt - enteredAt);
    } else {
      laterMs.add(causeAt, latency);
    }
  };
  const kernel = new BotKernel({
    botId: 'lat', strategyId: 'market-maker', plugin, params: strategy.params, instruments,
    market: { books$: feed.books$, market$: feed.market$ }, venue: timedVenue(venue, handedToPort), clock, schedulers: liveSchedulers(),
    risk: { maxOrdersPerWindow: 250 }, errorPolicy: 'halt', unknownOrders: 'cancel', keepOrderPathWarmMs,
  });
  let stopKeepingHelpersBehind: (() => void) | undefined;
  try {
    await venue.start(10_000);
    await kernel.start();
    // As `tradeloop live` and `paper` do when they keep the order path warm.
    const feedRehearsal = keepOrderPathWarmMs === undefined ? undefined : feed.rehearse();
    if (feedRehearsal !== undefined) console.log(`book messages rehearsed before subscribing: ${feedRehearsal.messages} (${feedRehearsal.bookEvents} book events), ${feedRehearsal.ms.toFixed(0)} ms`);
    // As `tradeloop live` and `paper` do once they trade (execution.helperThreadNiceness).
    stopKeepingHelpersBehind = keepHelperThreadsBehind(DEFAULT_HELPER_THREAD_NICENESS);
    await feed.start();
    tradingFrom = clock.now();
    const cpuBefore = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
    const cpu = process.cpuUsage(cpuBefore);
    cpuShare = (cpu.user + cpu.system) / 1000 / DURATION_MS;
    collectionObserver.disconnect();
    await kernel.stop('cancel');
  } finally {
    stopKeepingHelpersBehind?.();
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
  const warm = keepOrderPathWarmMs === undefined ? 'order path not kept warm' : `keepOrderPathWarmMs ${keepOrderPathWarmMs}: ${kernel.warmer?.rehearsalBooks ?? 0} rehearsal books, ${kernel.warmer?.dryRuns ?? 0} dry runs`;
  console.log(`bot process CPU while trading: ${(cpuShare * 100).toFixed(1)} % of one core`);
  if (kernel.rehearsal !== undefined) {
    const { books, requests, strategy, ms } = kernel.rehearsal;
    console.log(`order path rehearsed before trading: ${books} books, ${requests} order requests (${strategy === 'both' ? 'the built-in strategy, then the market maker' : 'the built-in strategy'}), ${ms.toFixed(0)} ms`);
  }
  const windows: string[] = [];
  for (let from = tradingFrom; from < tradingFrom + DURATION_MS; from += WINDOW_MS) windows.push(us(median(firstMs.between(from, from + WINDOW_MS))));
  console.log(`a handler's first intent, p50 by ${WINDOW_MS / 1000} s of trading: ${windows.join(', ')}`);
  const slowest = latencies.slowest(SLOWEST_SHOWN).map(([frameAt, latency]) => {
    // A collection that ran between the frame's arrival and the intent held the intent up.
    const start = frameAt - performance.timeOrigin;
    const paused = collections.filter((gc) => gc.startTime < start + latency && gc.startTime + gc.duration > start);
    const pauses = paused.map((gc) => `${GC_KINDS[(gc as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'gc'} ${gc.duration.toFixed(1)} ms`);
    // Where its time went: before the handler, in it, then to the port (for a handler's first intent).
    const entered = toHandler.at(frameAt);
    const returned = handlerMs.at(frameAt);
    const stages = entered === undefined || returned === undefined ? '' : `: to onBook ${us(entered)}, in it ${us(returned - entered)}, after ${us(latency - returned)}`;
    return `${us(latency)} at +${((frameAt - tradingFrom) / 1000).toFixed(1)} s${stages}${pauses.length > 0 ? ` (${pauses.join(', ')})` : ''}`;
  });
  console.log(`slowest intents: ${slowest.join('; ')}`);
  for (const [span, from] of [['the whole run', -Infinity], [`after the first ${WARM_UP_MS / 1000} s of trading`, tradingFrom + WARM_UP_MS]] as const) {
    printTable(`tick-to-intent (from the book frame read off the socket; ${warm}; ${span})`, [
      row('-> onBook entered', toHandler.from(from)),
      row('-> onBook returned', handlerMs.from(from)),
      row('-> intent handed to the venue port', latencies.from(from)),
      row('   a handler\'s first intent', firstMs.from(from)),
      row('   its later intents', laterMs.from(from)),
      row('(books with an intent: frame -> onBook entered)', intentToHandler.from(from)),
      row('(books with an intent: in onBook)', intentInHandler.from(from)),
      row('(onBook returned -> its first intent at the venue port)', gateMs.from(from)),
    ]);
  }
}

/** Latencies, each with the time of the frame it was caused by. */
class TimedSamples {
  private readonly frameTimes: number[] = [];
  private readonly values: number[] = [];

  add(frameAt: number, value: number): void {
    this.frameTimes.push(frameAt);
    this.values.push(value);
  }

  /** The first latency of the frame received at `frameAt`. */
  at(frameAt: number): number | undefined {
    const index = this.frameTimes.indexOf(frameAt);
    return index < 0 ? undefined : this.values[index];
  }

  /** The `count` largest latencies, largest first, each with its frame's time. */
  slowest(count: number): [frameAt: number, latency: number][] {
    return this.values.map((value, i): [number, number] => [this.frameTimes[i]!, value]).sort((a, b) => b[1] - a[1]).slice(0, count);
  }

  /** The latencies of frames received at or after `time`. */
  from(time: number): number[] {
    return this.between(time, Infinity);
  }

  /** The latencies of frames received from `start` (included) to `end` (excluded). */
  between(start: number, end: number): number[] {
    return this.values.filter((_, i) => this.frameTimes[i]! >= start && this.frameTimes[i]! < end);
  }
}

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[values.length >> 1] ?? Number.NaN;
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
  const sandbox = [process.execPath, bin, 'sandbox', '--recording', SAMPLE, '--speed', String(SPEED), '--balance', 'USDT=100000', '--balance', 'ETH=10'];
  // Through nice(1) rather than a priority set after the start: Linux keeps a niceness per thread,
  // and node's helper threads exist before any call could reach them.
  const [command, ...args] = process.platform === 'win32' ? sandbox : ['nice', '-n', String(SANDBOX_NICENESS), ...sandbox];
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
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
