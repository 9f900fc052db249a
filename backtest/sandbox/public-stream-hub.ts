import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { ParseError } from '../../framework/model/errors.js';
import { parseChannel, type ChannelInfo } from '../../framework/model/stream/channel.js';
import { CandleAccumulator, buildCandles, candleStart, type WireTrade } from './trade-aggregates.js';
import { bookData, tickerData, tickerPriceData } from './derived-market-data.js';
import type { DecodedMarketFrame } from './market-batches.js';
import type { MarketState } from './market-state.js';
import { RateLimited, type RequestBudget } from './request-budget.js';
import { SubscriberWrites } from './subscriber-writes.js';
import { errorText, resultText } from './ws-protocol.js';

interface PublicClient {
  readonly socket: WebSocket;
  /** The peer's IP: requests spend its public stream budget. */
  readonly address: string;
  /** The connection under the WebSocket: a batch of frames goes out to it in one write. */
  readonly transport: Duplex | undefined;
  /** channel -> subscribed symbols */
  readonly subscriptions: Map<string, Set<string>>;
  /** Symbols whose `orderbook/full` snapshot this client has been sent (updates flow only after it). */
  readonly primedBooks: Set<string>;
  /** `ch|symbol` -> market time of the last throttled notification. */
  readonly lastSent: Map<string, number>;
}

interface Notification {
  readonly ch?: unknown;
  readonly snapshot?: Record<string, unknown>;
  readonly update?: Record<string, unknown>;
  readonly data?: Record<string, unknown>;
}

const HISTORY_LIMIT = 1000;
const SPEED_MS: Readonly<Record<string, number>> = { '100ms': 100, '500ms': 500, '1000ms': 1000, '1s': 1000, '3s': 3000 };

/**
 * The `/api/3/ws/public` side of the sandbox: answers `subscribe`, `unsubscribe` and
 * `subscriptions` as the exchange does (each spends the peer IP's public budget: 429 beyond it;
 * an unknown method is 10001, as on the trading and wallet streams) and fans market frames out
 * to subscribers.
 *
 * `orderbook/full` and `trades` are served from the replayed frames (book snapshot on subscribe,
 * then updates with their sequence; trade history from `limit`). Channels the market source does
 * not carry are derived: partial and top books from the live book, `ticker/*` from book and
 * trades, `candles/{period}` from trades; derived notifications are throttled to the channel's
 * speed in market time. Channels the source does carry (a capture's `ticker/1s`) pass through as
 * recorded. Batch channels get one symbol per notification (a valid, if small, batch).
 */
export class PublicStreamHub {
  private readonly clients = new Set<PublicClient>();
  private readonly recordedChannels = new Set<string>();
  private readonly candles = new Map<string, CandleAccumulator>();
  private readonly writes = new SubscriberWrites();

  constructor(
    private readonly market: MarketState,
    private readonly budget: RequestBudget,
    /** Fault injection: drop this `orderbook/full` update for every client (a sequence gap). */
    private readonly skipBookUpdate: (symbol: string, sequence: number) => boolean = () => false,
  ) {}

  /**
   * Channels the market source carries: they pass through as recorded from the start, never
   * derived (otherwise a trade before the first recorded candle would derive one).
   */
  markRecorded(channels: Iterable<string>): void {
    for (const ch of channels) this.recordedChannels.add(ch);
  }

  /** Connections currently open. */
  get connections(): number {
    return this.clients.size;
  }

  /**
   * Takes over a new `/api/3/ws/public` connection; `transport` is the socket it was upgraded
   * from, written to once per batch of frames.
   */
  accept(socket: WebSocket, transport?: Duplex, address = ''): void {
    const client: PublicClient = { socket, transport, address, subscriptions: new Map(), primedBooks: new Set(), lastSent: new Map() };
    this.clients.add(client);
    socket.on('message', (data: RawData) => this.onRequest(client, data));
    socket.on('close', () => this.clients.delete(client));
  }

  /** Serves one market notification (already applied to the market state by the caller for books). */
  dispatch(msg: Notification, receivedAt: number, bookFrames?: ReadonlyArray<{ symbol: string; sequence: number; snapshot: boolean }>): void {
    if (typeof msg.ch !== 'string') return;
    this.recordedChannels.add(msg.ch);
    if (msg.ch === 'orderbook/full') {
      this.dispatchBook(msg, bookFrames ?? []);
      for (const f of bookFrames ?? []) this.deriveBookChannels(f.symbol, receivedAt);
      return;
    }
    const payload = msg.update ?? msg.snapshot ?? msg.data;
    if (payload === undefined) return;
    this.passThrough(msg.ch, msg, payload);
    if (msg.ch === 'trades') {
      for (const [symbol, trades] of Object.entries(payload)) {
        if (Array.isArray(trades)) this.deriveTradeChannels(symbol, trades as WireTrade[], receivedAt);
      }
    }
  }

  /** Undefined while every subscriber keeps up; else resolves once none is far behind. */
  whenDrained(): Promise<void> | undefined {
    return this.writes.whenDrained(this.clients);
  }

  /**
   * {@link dispatch} for a recording line decoded from its bytes (already applied to the market
   * state): a one-symbol notification goes out as the recorded bytes; one of several symbols is
   * parsed and takes the general path, which splits it per subscriber.
   */
  dispatchDecoded(frame: DecodedMarketFrame, trades: readonly WireTrade[] | undefined): void {
    const book = frame.books[0];
    const event = frame.events[0];
    if (frame.books.length + frame.events.length !== 1) {
      this.dispatch(JSON.parse(frame.text.toString('utf8')) as Notification, frame.t, frame.books);
      return;
    }
    this.recordedChannels.add(frame.channel);
    if (book !== undefined) {
      this.sendBookFrame(book, () => frame.text);
      this.deriveBookChannels(book.symbol, frame.t);
    } else if (event !== undefined) {
      for (const client of this.clients) {
        const wanted = client.subscriptions.get(frame.channel);
        if (wanted && (wanted.has(event.symbol) || wanted.has('*'))) this.send(client, frame.text);
      }
      this.deriveTradeChannels(event.symbol, trades ?? [], frame.t);
    }
  }

  /** Closes every connection. */
  closeAll(): void {
    for (const client of this.clients) client.socket.terminate();
    this.clients.clear();
  }

  private onRequest(client: PublicClient, data: RawData): void {
    let request: { method?: unknown; ch?: unknown; params?: { symbols?: unknown; limit?: unknown }; id?: unknown };
    try {
      request = JSON.parse(data.toString()) as typeof request;
    } catch {
      this.sendError(client, undefined, ErrorCode.ValidationError, 'request is not valid JSON');
      return;
    }
    const { method, ch, params, id } = request ?? {};
    if (method !== 'subscribe' && method !== 'unsubscribe' && method !== 'subscriptions') {
      this.sendError(client, id, ErrorCode.ValidationError, `unknown method ${JSON.stringify(method)}`);
      return;
    }
    try {
      this.budget.spend('publicStream', client.address);
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      this.sendError(client, id, error.code, error.description);
      return;
    }
    if (typeof ch !== 'string') {
      this.sendError(client, id, ErrorCode.ValidationError, 'ch is required');
      return;
    }
    let info: ChannelInfo;
    try {
      info = parseChannel(ch);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      this.sendError(client, id, ErrorCode.UnknownChannel, ch);
      return;
    }
    const current = client.subscriptions.get(ch) ?? new Set<string>();
    if (method === 'subscriptions') {
      this.sendResult(client, id, { ch, subscriptions: [...current] });
      return;
    }
    const symbols = params?.symbols;
    if (!Array.isArray(symbols) || symbols.some((s) => typeof s !== 'string')) {
      this.sendError(client, id, ErrorCode.ValidationError, 'params.symbols must be an array of strings');
      return;
    }
    const known = this.market.symbolCodes;
    const unknown = Object.keys(this.market.symbols).length === 0 ? [] : (symbols as string[]).filter((s) => s !== '*' && !known.includes(s));
    if (unknown.length > 0) {
      this.sendError(client, id, ErrorCode.SymbolNotFound, unknown.join(','));
      return;
    }
    if (method === 'unsubscribe') {
      for (const s of symbols as string[]) {
        current.delete(s);
        client.primedBooks.delete(s);
      }
      client.subscriptions.set(ch, current);
      this.sendResult(client, id, { ch, subscriptions: [...current] });
      return;
    }
    for (const s of symbols as string[]) current.add(s);
    client.subscriptions.set(ch, current);
    this.sendResult(client, id, { ch, subscriptions: [...current] });
    const wanted = (symbols as string[]).includes('*') ? this.market.symbolCodes : (symbols as string[]);
    const limit = typeof params?.limit === 'number' ? Math.min(Math.max(Math.floor(params.limit), 0), HISTORY_LIMIT) : 0;
    this.sendInitial(client, ch, info, wanted, limit);
  }

  private sendInitial(client: PublicClient, ch: string, info: ChannelInfo, symbols: readonly string[], limit: number): void {
    for (const symbol of symbols) {
      if (info.kind === 'fullBook') {
        const snapshot = this.market.bookSnapshot(symbol);
        if (snapshot === undefined) continue; // the next snapshot in the feed primes this client
        this.send(client, { ch, snapshot: { [symbol]: snapshot } });
        client.primedBooks.add(symbol);
      } else if (info.kind === 'trades' && limit > 0) {
        const trades = this.market.tradesOf(symbol);
        if (trades.length > 0) this.send(client, { ch, snapshot: { [symbol]: trades.slice(-limit) } });
      } else if (info.kind === 'candles' && limit > 0 && info.period && !this.recordedChannels.has(ch)) {
        const candles = buildCandles(this.market.tradesOf(symbol), info.period).slice(-limit);
        if (candles.length > 0) this.send(client, { ch, snapshot: { [symbol]: candles } });
      }
    }
  }

  private passThrough(ch: string, msg: Notification, payload: Record<string, unknown>): void {
    const symbols = Object.keys(payload);
    let whole: string | undefined;
    for (const client of this.clients) {
      const wanted = client.subscriptions.get(ch);
      if (!wanted || wanted.size === 0) continue;
      const mine = wanted.has('*') ? symbols : symbols.filter((s) => wanted.has(s));
      if (mine.length === 0) continue;
      if (mine.length === symbols.length) {
        whole ??= JSON.stringify(msg);
        this.send(client, whole);
      } else {
        const key = msg.update ? 'update' : msg.snapshot ? 'snapshot' : 'data';
        this.send(client, { ch, [key]: Object.fromEntries(mine.map((s) => [s, payload[s]])) });
      }
    }
  }

  private dispatchBook(msg: Notification, frames: ReadonlyArray<{ symbol: string; sequence: number; snapshot: boolean }>): void {
    for (const frame of frames) {
      const entry = (msg.snapshot ?? msg.update)?.[frame.symbol];
      this.sendBookFrame(frame, () => JSON.stringify({ ch: 'orderbook/full', [frame.snapshot ? 'snapshot' : 'update']: { [frame.symbol]: entry } }));
    }
  }

  /**
   * One symbol's book frame to its subscribers, updates only to those primed by a snapshot;
   * `text` is built once, when the first subscriber needs it.
   */
  private sendBookFrame(frame: { symbol: string; sequence: number; snapshot: boolean }, text: () => string | Buffer): void {
    if (!frame.snapshot && this.skipBookUpdate(frame.symbol, frame.sequence)) return;
    let wire: string | Buffer | undefined;
    for (const client of this.clients) {
      const wanted = client.subscriptions.get('orderbook/full');
      if (!wanted || !(wanted.has(frame.symbol) || wanted.has('*'))) continue;
      if (frame.snapshot) client.primedBooks.add(frame.symbol);
      if (client.primedBooks.has(frame.symbol)) this.send(client, (wire ??= text()));
    }
  }

  /** Partial books, top of book and tickers after a book change, throttled per client and channel. */
  private deriveBookChannels(symbol: string, at: number): void {
    for (const client of this.clients) {
      for (const [ch, wanted] of client.subscriptions) {
        if (this.recordedChannels.has(ch) || !(wanted.has(symbol) || wanted.has('*'))) continue;
        const info = parseChannel(ch);
        if (info.kind !== 'partialBook' && info.kind !== 'topOfBook' && info.kind !== 'ticker') continue;
        if (!this.due(client, ch, symbol, at, info)) continue;
        const data = info.kind === 'ticker' ? tickerData(this.market, symbol, at) : bookData(this.market, symbol, info);
        if (data !== undefined) this.send(client, { ch, data: { [symbol]: data } });
      }
    }
  }

  private deriveTradeChannels(symbol: string, trades: readonly WireTrade[], at: number): void {
    const periods = new Set<string>();
    for (const client of this.clients) {
      for (const [ch, wanted] of client.subscriptions) {
        if (this.recordedChannels.has(ch) || !(wanted.has(symbol) || wanted.has('*'))) continue;
        const info = parseChannel(ch);
        if (info.kind === 'candles' && info.period) periods.add(info.period);
        else if ((info.kind === 'ticker' || info.kind === 'tickerPrice') && this.due(client, ch, symbol, at, info)) {
          const data = info.kind === 'ticker' ? tickerData(this.market, symbol, at) : tickerPriceData(this.market, symbol, at);
          if (data !== undefined) this.send(client, { ch, data: { [symbol]: data } });
        }
      }
    }
    for (const period of periods) {
      const ch = `candles/${period}`;
      const candle = this.advanceCandle(symbol, period as NonNullable<ChannelInfo['period']>, trades);
      if (candle === undefined) continue;
      const text = JSON.stringify({ ch, update: { [symbol]: [candle] } });
      for (const client of this.clients) {
        const wanted = client.subscriptions.get(ch);
        if (wanted && (wanted.has(symbol) || wanted.has('*'))) this.send(client, text);
      }
    }
  }

  private advanceCandle(symbol: string, period: NonNullable<ChannelInfo['period']>, trades: readonly WireTrade[]): ReturnType<CandleAccumulator['toWire']> | undefined {
    const key = `${period}|${symbol}`;
    let acc = this.candles.get(key);
    for (const trade of trades) {
      const start = candleStart(trade.t, period);
      if (acc === undefined || acc.start !== start) {
        acc = new CandleAccumulator(start, trade);
        this.candles.set(key, acc);
      } else {
        acc.add(trade);
      }
    }
    return acc?.toWire();
  }

  /** Every message to a client goes through {@link SubscriberWrites}, so replies and market data keep their order. */
  private send(client: PublicClient, message: object | string | Buffer): void {
    this.writes.send(client, typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
  }

  private sendResult(client: PublicClient, id: unknown, result: unknown): void {
    this.writes.send(client, resultText(id, result));
  }

  private sendError(client: PublicClient, id: unknown, code: number, description: string): void {
    this.writes.send(client, errorText(id, code, description));
  }

  private due(client: PublicClient, ch: string, symbol: string, at: number, info: ChannelInfo): boolean {
    const key = `${ch}|${symbol}`;
    const last = client.lastSent.get(key);
    if (last !== undefined && at - last < (SPEED_MS[info.speed ?? '1s'] ?? 1000)) return false;
    client.lastSent.set(key, at);
    return true;
  }
}
