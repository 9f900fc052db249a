import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { parseOrderBookFrames } from '../../framework/exchange/book/order-book-frame.js';
import { OrderBook } from '../../framework/exchange/book/order-book.js';
import { ParseError } from '../../framework/model/errors.js';
import { Instrument } from '../../framework/model/instrument.js';
import { parseChannel } from '../../framework/model/stream/channel.js';
import { RecordingReader } from '../recording/recording-reader.js';
import type { RecordingHeader } from '../recording/recording-format.js';
import { send, sendError, sendResult } from './ws-protocol.js';

/** Options of {@link ReplayFeedServer}. */
export interface ReplayFeedOptions {
  /** Recording to replay (recording-format.md); only `ws/public` frames are served. */
  readonly recording: string;
  /** Multiple of real time (1 = as recorded); `Infinity` replays as fast as sockets drain. */
  readonly speed?: number;
  /** Start again from the top when the recording ends. */
  readonly loop?: boolean;
  /** Loopback by default; the server is for local bots and tests. */
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /**
   * Wait for {@link ReplayFeedServer.play} before replaying (tests and demos that must subscribe
   * first); default false: the timeline starts with the server.
   */
  readonly paused?: boolean;
  /** Fault injection: drop this `orderbook/full` update for every client (a sequence gap on the wire). */
  readonly dropBookUpdate?: (symbol: string, sequence: number) => boolean;
  /** Told about a recorded frame that could not be served (it is skipped); default: ignore. */
  readonly onFrameError?: (error: unknown, receivedAt: number) => void;
}

const PUBLIC_PATH = '/api/3/ws/public';
/** Trades kept per symbol for `trades` subscriptions with a history `limit` (the API caps it at 1000). */
const TRADE_HISTORY = 1000;

interface Client {
  readonly socket: WebSocket;
  /** channel -> subscribed symbols */
  readonly subscriptions: Map<string, Set<string>>;
  /** Symbols whose `orderbook/full` snapshot this client has been sent (updates flow only after it). */
  readonly primedBooks: Set<string>;
}

interface Notification {
  readonly ch: string;
  readonly snapshot?: Record<string, unknown>;
  readonly update?: Record<string, unknown>;
  readonly data?: Record<string, unknown>;
}

/**
 * A local API v3 market-data stream (`/api/3/ws/public`) that replays a recording on a shared
 * timeline, as if the recorded market were live: `subscribe`, `unsubscribe` and `subscriptions`
 * answer as the real exchange does, `orderbook/full` subscribers get a snapshot of the current book
 * (kept from the replayed frames) and then the recorded updates with their sequence numbers,
 * other channels get the recorded notifications for their symbols.
 *
 * Assumptions: the recording holds what one client saw, so every channel it lacks is answered with
 * an acknowledgement and then nothing; `trades` history (`limit`) is served from trades replayed
 * so far. The full sandbox exchange (orders, accounts) builds on this stream.
 */
export class ReplayFeedServer {
  private readonly clients = new Set<Client>();
  private readonly books = new Map<string, OrderBook>();
  private readonly recentTrades = new Map<string, unknown[]>();
  private header: RecordingHeader | undefined;
  private stopped = false;
  private framesServed = 0;
  private frameErrors = 0;
  private finished!: Promise<void>;
  private release!: () => void;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    private readonly options: ReplayFeedOptions,
  ) {}

  /** Starts listening and replaying. */
  static async start(options: ReplayFeedOptions): Promise<ReplayFeedServer> {
    const reader = new RecordingReader(options.recording);
    const header = await reader.readHeader();
    const http = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: ErrorCode.ResourceNotFound, message: 'Resource not found', description: '' } }));
    });
    const wss = new WebSocketServer({ noServer: true });
    const server = new ReplayFeedServer(http, wss, options);
    server.header = header;
    http.on('upgrade', (req: IncomingMessage, socket, head) => {
      if (new URL(req.url ?? '/', 'http://localhost').pathname !== PUBLIC_PATH) {
        socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => server.accept(ws));
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    let release!: () => void;
    const gate = options.paused ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    server.release = options.paused ? release : () => undefined;
    server.finished = gate.then(() => server.run());
    return server;
  }

  /** `ws://host:port`, the `ws_base_url` a client should use. */
  get wsBaseUrl(): string {
    const { address, port } = this.http.address() as AddressInfo;
    return `ws://${address.includes(':') ? `[${address}]` : address}:${port}`;
  }

  /** Starts the timeline of a server created with `paused: true` (no effect otherwise). */
  play(): void {
    this.release();
  }

  /** Resolves when the recording has been replayed to the end (never, while looping). */
  get done(): Promise<void> {
    return this.finished;
  }

  /** Recorded notifications replayed so far. */
  get replayedFrames(): number {
    return this.framesServed;
  }

  /** Recorded frames skipped because they could not be served. */
  get skippedFrames(): number {
    return this.frameErrors;
  }

  /** Stops replaying, closes every connection and the listener. */
  async close(): Promise<void> {
    this.stopped = true;
    this.release();
    for (const client of this.clients) client.socket.terminate();
    this.clients.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
    await this.finished.catch(() => undefined);
  }

  private accept(socket: WebSocket): void {
    const client: Client = { socket, subscriptions: new Map(), primedBooks: new Set() };
    this.clients.add(client);
    socket.on('message', (data: RawData) => this.onRequest(client, data));
    socket.on('close', () => this.clients.delete(client));
    socket.on('error', () => socket.terminate());
  }

  private onRequest(client: Client, data: RawData): void {
    let request: { method?: unknown; ch?: unknown; params?: { symbols?: unknown; limit?: unknown }; id?: unknown };
    try {
      request = JSON.parse(data.toString()) as typeof request;
    } catch {
      sendError(client.socket, undefined, ErrorCode.ValidationError, 'request is not valid JSON');
      return;
    }
    const { method, ch, params, id } = request;
    if (method !== 'subscribe' && method !== 'unsubscribe' && method !== 'subscriptions') {
      sendError(client.socket, id, ErrorCode.ValidationError, `unknown method ${JSON.stringify(method)}`);
      return;
    }
    if (typeof ch !== 'string') {
      sendError(client.socket, id, ErrorCode.ValidationError, 'ch is required');
      return;
    }
    try {
      parseChannel(ch);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      sendError(client.socket, id, ErrorCode.UnknownChannel, ch);
      return;
    }
    const current = client.subscriptions.get(ch) ?? new Set<string>();
    if (method === 'subscriptions') {
      sendResult(client.socket, id, { ch, subscriptions: [...current] });
      return;
    }
    const symbols = params?.symbols;
    if (!Array.isArray(symbols) || symbols.some((s) => typeof s !== 'string')) {
      sendError(client.socket, id, ErrorCode.ValidationError, 'params.symbols must be an array of strings');
      return;
    }
    const known = Object.keys(this.header?.symbols ?? {});
    const unknown = known.length === 0 ? [] : (symbols as string[]).filter((s) => s !== '*' && !known.includes(s));
    if (unknown.length > 0) {
      sendError(client.socket, id, ErrorCode.SymbolNotFound, unknown.join(','));
      return;
    }
    if (method === 'unsubscribe') {
      for (const s of symbols as string[]) {
        current.delete(s);
        if (ch === 'orderbook/full') client.primedBooks.delete(s);
      }
      client.subscriptions.set(ch, current);
      sendResult(client.socket, id, { ch, subscriptions: [...current] });
      return;
    }
    for (const s of symbols as string[]) current.add(s);
    client.subscriptions.set(ch, current);
    sendResult(client.socket, id, { ch, subscriptions: [...current] });
    if (ch === 'orderbook/full') for (const s of symbols as string[]) this.sendBookSnapshot(client, s);
    const limit = typeof params?.limit === 'number' ? Math.min(Math.max(params.limit, 0), TRADE_HISTORY) : 0;
    if (ch === 'trades' && limit > 0) {
      for (const s of symbols as string[]) {
        const trades = this.recentTrades.get(s);
        if (trades && trades.length > 0) send(client.socket, { ch, snapshot: { [s]: trades.slice(-limit) } });
      }
    }
  }

  private sendBookSnapshot(client: Client, symbol: string): void {
    const book = this.books.get(symbol);
    if (!book || !book.valid) return; // the next recorded snapshot primes this client
    const levels = (side: 'bid' | 'ask') => book.topN(side, book.size(side)).map((l) => [l.price, l.quantity]);
    send(client.socket, {
      ch: 'orderbook/full',
      snapshot: { [symbol]: { t: book.exchangeTime, s: book.sequence, a: levels('ask'), b: levels('bid') } },
    });
    client.primedBooks.add(symbol);
  }

  private async run(): Promise<void> {
    do {
      const reader = new RecordingReader(this.options.recording);
      const speed = this.options.speed ?? 1;
      let firstT: number | undefined;
      const startedAt = performance.now();
      let sinceYield = 0;
      for await (const frame of reader.frames()) {
        if (this.stopped) return;
        if (frame.src !== 'ws/public') continue;
        firstT ??= frame.t;
        if (Number.isFinite(speed)) {
          const due = startedAt + (frame.t - firstT) / speed;
          const wait = due - performance.now();
          if (wait >= 1) await sleep(wait);
        } else if (++sinceYield >= 256) {
          // As fast as possible, but let sockets drain and requests be answered.
          sinceYield = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        if (this.stopped) return;
        try {
          this.dispatch(frame.msg as Notification, frame.t);
        } catch (error) {
          // One bad recorded frame must not end the market for every connected client.
          this.frameErrors++;
          this.options.onFrameError?.(error, frame.t);
        }
      }
    } while (this.options.loop && !this.stopped);
  }

  private dispatch(msg: Notification, receivedAt: number): void {
    if (typeof msg.ch !== 'string') return; // acknowledgements and other non-data frames
    this.framesServed++;
    if (msg.ch === 'orderbook/full') {
      this.dispatchBook(msg, receivedAt);
      return;
    }
    const payload = msg.update ?? msg.snapshot ?? msg.data;
    if (payload === undefined) return;
    if (msg.ch === 'trades') this.rememberTrades(payload);
    const symbols = Object.keys(payload);
    let whole: string | undefined;
    for (const client of this.clients) {
      const wanted = client.subscriptions.get(msg.ch);
      if (!wanted || wanted.size === 0) continue;
      const mine = wanted.has('*') ? symbols : symbols.filter((s) => wanted.has(s));
      if (mine.length === 0) continue;
      if (mine.length === symbols.length) {
        whole ??= JSON.stringify(msg);
        send(client.socket, whole);
      } else {
        const key = msg.update ? 'update' : msg.snapshot ? 'snapshot' : 'data';
        send(client.socket, { ch: msg.ch, [key]: Object.fromEntries(mine.map((s) => [s, payload[s]])) });
      }
    }
  }

  private dispatchBook(msg: Notification, receivedAt: number): void {
    for (const frame of parseOrderBookFrames(msg, receivedAt)) {
      let book = this.books.get(frame.symbol);
      if (!book) {
        const info = this.header?.symbols[frame.symbol];
        book = new OrderBook(frame.symbol, info ? { instrument: new Instrument(frame.symbol, info) } : {});
        this.books.set(frame.symbol, book);
      }
      book.apply(frame);
      if (!frame.snapshot && this.options.dropBookUpdate?.(frame.symbol, frame.sequence)) continue;
      const entry = (msg.snapshot ?? msg.update)?.[frame.symbol];
      const text = JSON.stringify({ ch: msg.ch, [frame.snapshot ? 'snapshot' : 'update']: { [frame.symbol]: entry } });
      for (const client of this.clients) {
        const wanted = client.subscriptions.get('orderbook/full');
        if (!wanted || !(wanted.has(frame.symbol) || wanted.has('*'))) continue;
        if (frame.snapshot) client.primedBooks.add(frame.symbol);
        if (client.primedBooks.has(frame.symbol)) send(client.socket, text);
      }
    }
  }

  private rememberTrades(payload: Record<string, unknown>): void {
    for (const [symbol, trades] of Object.entries(payload)) {
      if (!Array.isArray(trades)) continue;
      const kept = this.recentTrades.get(symbol) ?? [];
      kept.push(...trades);
      if (kept.length > TRADE_HISTORY) kept.splice(0, kept.length - TRADE_HISTORY);
      this.recentTrades.set(symbol, kept);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
