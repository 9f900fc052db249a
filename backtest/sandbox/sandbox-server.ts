import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { tradingBalanceToWire, walletBalanceToWire } from '../../framework/model/resources/balance.js';
import { orderReportToWire } from '../../framework/model/stream/order-report.js';
import type { SymbolInfo } from '../../framework/model/resources/symbol.js';
import { MarketLineDecoder } from '../recording/market-line-decoder.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { TradeTick } from '../../framework/model/stream/market-records.js';
import type { Venue, VenueEvent } from '../venue/venue-types.js';
import { accountRoutes } from './account-routes.js';
import { cryptoWalletRoutes } from './crypto-wallet-routes.js';
import { FaultInjector } from './fault-injector.js';
import type { FuturesMarketData } from './futures-market-data.js';
import { futuresVenueOf, type FuturesScope } from './futures-scope.js';
import { futuresSection } from './futures-section.js';
import { marginSection } from './margin-section.js';
import { MARGIN_BALANCE_SUBSCRIPTION, MARGIN_ORDERS_SUBSCRIPTION } from './margin-stream-methods.js';
import { FUTURES_BALANCE_SUBSCRIPTION, FUTURES_ORDERS_SUBSCRIPTION } from './futures-stream-methods.js';
import { liquidationReport } from './liquidation-report.js';
import { recordedFuturesInfo } from './recorded-futures-info.js';
import type { RecordedFrame } from '../recording/recording-format.js';
import type { DecodedMarketFrame, FeedFrame } from './market-batches.js';
import { MarketFeed } from './market-feed.js';
import { MarketState } from './market-state.js';
import { marketDataRoutes } from './market-data-routes.js';
import { PublicStreamHub } from './public-stream-hub.js';
import { ReportDelivery } from './report-delivery.js';
import { RequestBudget } from './request-budget.js';
import { RestHandler } from './rest-handler.js';
import { RpcStream, type StreamClient } from './rpc-stream.js';
import { SandboxAuth } from './sandbox-auth.js';
import { resolveSandboxOptions, type ResolvedSandboxOptions, type SandboxApiKey, type SandboxOptions } from './sandbox-config.js';
import {
  ORDERS_SUBSCRIPTION, SPOT_BALANCE_SUBSCRIPTION, TRANSACTIONS_SUBSCRIPTION, WALLET_BALANCE_SUBSCRIPTION, tradingMethods, walletMethods,
} from './stream-methods.js';
import type { WireTrade } from './trade-aggregates.js';
import { TransactionLog } from './transaction-log.js';
import { LockstepDriver, countSentOn } from './lockstep-driver.js';
import { writeByTurn } from './sent-count.js';
import { LOCKSTEP_PATH } from '../../framework/live/lockstep-protocol.js';
import { send } from './ws-protocol.js';

const WS_PATHS = { '/api/3/ws/public': 'public', '/api/3/ws/trading': 'trading', '/api/3/ws/wallet': 'wallet' } as const;

/** Request budgets of a lockstep replay: the market goes as fast as the bot, a backtest has none. */
const LOCKSTEP_RATE_LIMIT = 1_000_000_000;

/**
 * A local Exchange API v3 over the simulated venue: REST (`/api/3/...`) and the three WebSocket
 * streams on one port, with the exchange's auth, rights, error envelopes, rate limits and stream
 * protocol, so a client written for the real API works against it unchanged. The market (a
 * recording or the synthetic market) is replayed in real time or a multiple of it; each frame
 * goes to the venue (fills, triggers) and to public subscribers. Faults can be injected, seeded.
 */
export class SandboxServer {
  /** `http://host:port`: the client's `base_url`. */
  readonly baseUrl: string;
  /** `ws://host:port`: the client's `ws_base_url`. */
  readonly wsBaseUrl: string;
  /** The keys the server accepts (secrets included: for the operator and tests, never logged). */
  readonly apiKeys: readonly SandboxApiKey[];
  /** Frames that reached the venue and subscribers. */
  framesServed = 0;
  /** Frames the venue or the market state refused (skipped; the market goes on). */
  frameErrors = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly lastSeen = new Map<WebSocket, number>();
  private finished: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    private readonly options: ResolvedSandboxOptions,
    readonly venue: Venue,
    private readonly parts: {
      market: MarketState; hub: PublicStreamHub; trading: RpcStream; wallet: RpcStream; feed: MarketFeed; delivery: ReportDelivery;
      faults: FaultInjector; futures: FuturesScope; futuresData: FuturesMarketData; lockstep?: LockstepDriver;
    },
    /** What every served time adds to the recorded one (`shiftToNow`); 0 when times are the recorded ones. */
    readonly timeShiftMs = 0,
  ) {
    const { address, port } = http.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    this.baseUrl = `http://${host}:${port}`;
    this.wsBaseUrl = `ws://${host}:${port}`;
    this.apiKeys = options.apiKeys.map((k) => ({ apiKey: k.apiKey, secretKey: k.secretKey, rights: [...k.rights], account: k.account }));
  }

  /** Validates `options`, starts listening and (unless paused) replaying. */
  static async start(input: SandboxOptions): Promise<SandboxServer> {
    const lockstep = input.lockstep === true;
    const options = resolveSandboxOptions(lockstep
      ? { ...input, speed: Infinity, rateLimits: { publicPerSecond: LOCKSTEP_RATE_LIMIT, tradingPerSecond: LOCKSTEP_RATE_LIMIT, otherPerSecond: LOCKSTEP_RATE_LIMIT } }
      : input);
    const now = input.now ?? Date.now;
    const faults = new FaultInjector(input.faults ?? {}, options.seed);
    const symbols = await MarketFeed.symbols(input.market);
    const market = new MarketState(symbols);
    const transactions = new TransactionLog();
    const delivery = new ReportDelivery(faults);
    const auth = new SandboxAuth(options.apiKeys, now);
    let route: (event: VenueEvent) => void = () => undefined;
    const venue = input.venue({ symbols, accounts: options.accounts, onEvent: (event) => route(event) });
    const firstFrameAt = await MarketFeed.startTime(input.market, now);
    const timeShiftMs = input.shiftToNow === true && !lockstep ? Math.floor(now()) - Math.floor(firstFrameAt) : 0;
    venue.advanceTo(firstFrameAt + timeShiftMs);
    const driver = lockstep ? new LockstepDriver(firstFrameAt, (time) => venue.advanceTo(time)) : undefined;
    const budget = new RequestBudget(now, options.rateLimits);
    const hub = new PublicStreamHub(market, budget, (symbol, sequence) => faults.skipBookUpdate(symbol, sequence));
    hub.markRecorded(await MarketFeed.recordedChannels(input.market));
    const futures = futuresSection(venue, market, driver === undefined ? now : () => driver.time);
    const margin = marginSection(venue, market);
    const trading = new RpcStream({
      auth, methods: { ...tradingMethods(venue, market), ...futures.methods, ...margin.methods }, budget,
      ...(driver === undefined
        ? { now, latency: input.latency }
        : { now: () => driver.time, latency: driver.latency(input.latency), later: (ms, work) => driver.hold(ms, work), gate: (run) => driver.gate(run) }),
    });
    const wallet = new RpcStream({ auth, methods: walletMethods(venue, transactions), budget, now });
    const rest = new RestHandler({
      routes: [...marketDataRoutes(market), ...accountRoutes({ venue, market, transactions }), ...cryptoWalletRoutes(market), ...futures.routes, ...margin.routes], auth, faults, budget, now,
      // Lockstep: REST (start-up reads, a summary) answers at once; the trading stream carries the latency in market time.
      latency: driver === undefined ? input.latency : undefined,
    });
    const http = createServer((req, res) => void rest.handle(req, res));
    http.keepAliveTimeout = 30_000;
    const wss = new WebSocketServer({ noServer: true });
    const holder: { server?: SandboxServer } = {};
    const feed = new MarketFeed({
      source: input.market, speed: options.speed, loop: options.loop, shiftMs: timeShiftMs, decoder: lineDecoder(symbols), onFrame: (f) => holder.server?.onFrame(f),
      onRestFrame: (f, shift) => holder.server?.onRestFrame(f, shift),
      ready: () => hub.whenDrained(),
      ...(driver === undefined ? {} : { beforeFrame: (t: number) => driver.beforeFrame(t), afterLast: () => driver.finish() }),
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, options.host, () => resolve());
    });
    const s = new SandboxServer(http, wss, options, venue, { market, hub, trading, wallet, feed, delivery, faults, futures: futures.scope, futuresData: futures.data, lockstep: driver }, timeShiftMs);
    holder.server = s;
    route = (event) => s.onVenueEvent(event);
    transactions.onTransaction((account, tx) => {
      for (const client of wallet.connections) {
        if (client.key?.account === account && client.subscriptions.has(TRANSACTIONS_SUBSCRIPTION)) {
          send(client.socket, { jsonrpc: '2.0', method: 'transaction_update', params: tx });
        }
      }
    });
    http.on('upgrade', (req: IncomingMessage, socket, head) => {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (driver !== undefined && pathname === LOCKSTEP_PATH && isLoopback(req.socket.remoteAddress)) {
        wss.handleUpgrade(req, socket, head, (ws) => driver.accept(ws));
        return;
      }
      const kind = WS_PATHS[pathname as keyof typeof WS_PATHS];
      if (kind === undefined) {
        socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => s.accept(ws, kind, socket, req.socket.remoteAddress ?? ''));
    });
    s.startTimers(input);
    const gate = options.paused ? new Promise<void>((resolve) => (s.release = resolve)) : Promise.resolve();
    s.finished = gate.then(() => feed.run());
    return s;
  }

  /** Starts the market of a server started with `paused: true`. */
  play(): void {
    this.release();
  }

  /** Resolves when the market source has been replayed to its end (never while looping). */
  get done(): Promise<void> {
    return this.finished;
  }

  /** Open WebSocket connections, all streams. */
  get connections(): number {
    return this.lastSeen.size;
  }

  /** The lockstep driver of a server started with `lockstep: true`. */
  get lockstep(): LockstepDriver | undefined {
    return this.parts.lockstep;
  }

  /** Stops the market, closes every connection and the listener. */
  async close(): Promise<void> {
    this.parts.feed.stop();
    this.parts.lockstep?.close();
    this.release();
    for (const timer of this.timers) clearInterval(timer);
    this.parts.delivery.close();
    this.parts.hub.closeAll();
    this.parts.trading.closeAll();
    this.parts.wallet.closeAll();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
    await this.finished.catch(() => undefined);
  }

  private accept(ws: WebSocket, kind: 'public' | 'trading' | 'wallet', transport: Duplex, address: string): void {
    this.lastSeen.set(ws, performance.now());
    const seen = () => this.lastSeen.set(ws, performance.now());
    ws.on('message', seen);
    ws.on('ping', seen);
    ws.on('pong', seen);
    ws.on('close', () => this.lastSeen.delete(ws));
    ws.on('error', () => ws.terminate());
    const lockstep = this.parts.lockstep;
    if (lockstep !== undefined && kind !== 'wallet') countSentOn(ws, kind === 'public' ? lockstep.publicSent : lockstep.tradingSent);
    if (lockstep !== undefined && kind === 'trading') writeByTurn(ws, transport);
    if (kind === 'public') this.parts.hub.accept(ws, transport, address);
    else (kind === 'trading' ? this.parts.trading : this.parts.wallet).accept(ws);
  }

  private startTimers(input: SandboxOptions): void {
    const idle = this.options.idleTimeoutMs;
    this.timers.push(setInterval(() => {
      const now = performance.now();
      for (const [ws, at] of this.lastSeen) if (now - at > idle) ws.terminate();
    }, Math.min(1000, Math.max(10, idle / 4))));
    const every = input.faults?.dropConnectionsEveryMs;
    if (every !== undefined) this.timers.push(setInterval(() => this.dropAll(), every));
    const p = input.faults?.dropConnectionProbability;
    if (p !== undefined && p > 0) {
      this.timers.push(setInterval(() => {
        for (const ws of [...this.lastSeen.keys()]) if (this.parts.faults.chance('ws-drop', p)) ws.terminate();
      }, 1000));
    }
  }

  private dropAll(): void {
    for (const ws of [...this.lastSeen.keys()]) ws.terminate();
  }

  private onFrame(frame: FeedFrame): void {
    if (frame.text !== undefined) {
      this.onDecodedFrame(frame);
      return;
    }
    const msg = frame.msg as { ch?: unknown; update?: Record<string, unknown>; snapshot?: Record<string, unknown> };
    if (typeof msg.ch !== 'string') return;
    try {
      this.venue.onMarketFrame(frame.msg, frame.t);
    } catch {
      // A frame the venue cannot use still reaches subscribers: the public stream is the market's.
      this.frameErrors++;
    }
    try {
      const books = msg.ch === 'orderbook/full' ? this.parts.market.applyBook(frame.msg, frame.t) : undefined;
      if (msg.ch === 'trades') this.parts.market.addTrades(msg.update ?? msg.snapshot ?? {}, frame.t);
      this.parts.hub.dispatch(msg, frame.t, books);
      this.framesServed++;
    } catch {
      // One bad frame must not end the market for every client; it is counted and skipped.
      this.frameErrors++;
    }
  }

  /**
   * A recorded REST answer: futures info (`GET /api/3/public/futures/info`) moves the venue's marks,
   * funding and settlement prices, as in a backtest, and becomes the public futures market data.
   * Other answers are not market data; a body the parser refuses is counted and skipped.
   */
  private onRestFrame(frame: RecordedFrame, shiftMs: number): void {
    const body = recordedFuturesInfo(frame.msg, shiftMs);
    if (body === undefined) return;
    try {
      futuresVenueOf(this.venue)?.applyFuturesInfo(body, frame.t);
      this.parts.futuresData.onRecordedInfo(body, frame.t);
      this.framesServed++;
    } catch {
      this.frameErrors++;
    }
  }

  /** {@link onFrame} for a book or trades line decoded from its bytes (no message object). */
  private onDecodedFrame(frame: DecodedMarketFrame): void {
    try {
      if (this.venue.onParsedMarket !== undefined) this.venue.onParsedMarket(frame.books, frame.events, frame.t);
      else this.venue.onMarketFrame(JSON.parse(frame.text.toString('utf8')), frame.t);
    } catch {
      this.frameErrors++;
    }
    try {
      let trades: WireTrade[] | undefined;
      if (frame.channel === 'orderbook/full') this.parts.market.applyBookFrames(frame.books, frame.t);
      else {
        for (const event of frame.events) {
          trades = event.trades.map(wireTrade);
          this.parts.market.addSymbolTrades(event.symbol, trades, frame.t);
        }
      }
      this.parts.hub.dispatchDecoded(frame, trades);
      this.framesServed++;
    } catch {
      this.frameErrors++;
    }
  }

  private onVenueEvent(event: VenueEvent): void {
    const targets = (stream: RpcStream, subscription: string): StreamClient[] =>
      [...stream.connections].filter((c) => c.key?.account === event.account && c.subscriptions.has(subscription));
    if (event.kind === 'order') {
      const section = event.margin === true ? 'margin' : this.parts.futures.has(event.report.symbol) ? 'futures' : 'spot';
      const frame = { jsonrpc: '2.0', method: `${section}_order`, params: orderReportToWire(event.report) };
      const subscription = section === 'margin' ? MARGIN_ORDERS_SUBSCRIPTION : section === 'futures' ? FUTURES_ORDERS_SUBSCRIPTION : ORDERS_SUBSCRIPTION;
      for (const c of targets(this.parts.trading, subscription)) this.parts.delivery.deliver(c.socket, frame);
    } else if (event.kind === 'margin') {
      const frame = { jsonrpc: '2.0', method: 'margin_balance', params: event.balances.map(tradingBalanceToWire) };
      for (const c of targets(this.parts.trading, MARGIN_BALANCE_SUBSCRIPTION)) send(c.socket, frame);
    } else if (event.kind === 'futures') {
      if (event.positions.length > 0) this.parts.futuresData.onPositionsChanged(event.positions.map((p) => p.symbol), this.venue.now());
      const frame = { jsonrpc: '2.0', method: 'futures_balance', params: event.balances.map(tradingBalanceToWire) };
      for (const c of targets(this.parts.trading, FUTURES_BALANCE_SUBSCRIPTION)) send(c.socket, frame);
    } else if (event.kind === 'liquidation') {
      const margin = event.margin === true;
      const frame = { jsonrpc: '2.0', method: margin ? 'margin_order' : 'futures_order', params: liquidationReport(event.liquidation) };
      for (const c of targets(this.parts.trading, margin ? MARGIN_ORDERS_SUBSCRIPTION : FUTURES_ORDERS_SUBSCRIPTION)) this.parts.delivery.deliver(c.socket, frame);
    } else if (event.kind === 'balance') {
      const frame = { jsonrpc: '2.0', method: 'spot_balance', params: event.balances.map(tradingBalanceToWire) };
      for (const c of targets(this.parts.trading, SPOT_BALANCE_SUBSCRIPTION)) send(c.socket, frame);
    } else if (event.kind === 'wallet') {
      const frame = { jsonrpc: '2.0', method: 'wallet_balance_update', params: event.balances.map(walletBalanceToWire) };
      for (const c of targets(this.parts.wallet, WALLET_BALANCE_SUBSCRIPTION)) send(c.socket, frame);
    }
  }
}


function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/** Decodes the book and trades lines of the symbols the recording's header describes (none: every line is parsed). */
function lineDecoder(symbols: Readonly<Record<string, SymbolInfo>>): MarketLineDecoder | undefined {
  const scales = new Map(Object.entries(symbols).map(([code, info]) => {
    const instrument = new Instrument(code, info);
    return [code, { priceScale: instrument.priceScale, quantityScale: instrument.quantityScale }] as const;
  }));
  return scales.size === 0 ? undefined : new MarketLineDecoder(scales);
}

/** A trade as the public stream and the market state hold it; an id beyond 2^53 stays text rather than turn into another number. */
function wireTrade(trade: TradeTick): WireTrade {
  const id = Number(trade.id);
  return { t: trade.timestamp, i: Number.isSafeInteger(id) ? id : trade.id, p: trade.price, q: trade.quantity, s: trade.side };
}
