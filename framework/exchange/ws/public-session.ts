import { Subject, filter, map, merge, type Observable, type Subscription } from 'rxjs';
import { ParseError } from '../../model/errors.js';
import { asObject, mapArray } from '../../model/wire.js';
import { parseMarketNotification, type MarketEvent } from '../../model/stream/market-events.js';
import { ORDER_BOOK_CHANNEL, parseOrderBookFrames, type BookFrame, type OrderBookFrame, type ScaledOrderBookFrame } from '../book/order-book-frame.js';
import { OrderBookMessageDecoder, type BookScales } from '../book/order-book-message-decoder.js';
import { ExchangeError } from '../errors.js';
import { ReconnectingSocket, type ReconnectingSocketOptions } from './reconnecting-socket.js';
import { RpcConnection, type RpcConnectionOptions, type RpcNotification } from './rpc-connection.js';
import {
  parsePublicChannel, validateSubscribeParams, validateSymbols, type PublicChannel, type SubscribeParams,
} from './public-channel.js';
import type { Resubscription, SessionEvent } from './session-event.js';

/** Everything needed to open a market-data session. */
export type PublicSessionOptions = ReconnectingSocketOptions & RpcConnectionOptions;

interface Desired {
  readonly channel: PublicChannel;
  readonly symbols: Set<string>;
  params: SubscribeParams;
}

/** Parses a subscribe/unsubscribe/subscriptions reply `{ch, subscriptions: [..]}` to the symbol list. */
export function parseSubscriptionAck(result: unknown): string[] {
  const o = asObject(result, 'result');
  if (o.subscriptions == null) return [];
  return mapArray(o.subscriptions, 'result.subscriptions', (v, path) => {
    if (typeof v !== 'string') throw new ParseError(path, 'must be a string', v);
    return v;
  });
}

/**
 * A market-data session on `/api/3/ws/public`. It remembers the subscriptions its callers asked for
 * and restores them after every reconnect, announcing each on `resubscribed$` so books and other
 * stream-built state get rebuilt. Per frame it does one channel lookup and parses only for streams
 * that have subscribers; a frame that fails to parse is reported on `events$` and skipped.
 */
export class PublicSession {
  private readonly desired = new Map<string, Desired>();
  private readonly restoring = new Map<string, Promise<string[]>>();
  private readonly channelSubjects = new Map<string, Subject<RpcNotification>>();
  private readonly notificationSubject = new Subject<RpcNotification>();
  private readonly bookSubject = new Subject<BookFrame>();
  private readonly marketSubject = new Subject<MarketEvent>();
  private readonly ownEvents = new Subject<SessionEvent>();
  private readonly owned: Subscription[] = [];
  private opens = 0;

  /** Every channel notification (`{ch, snapshot|update|data}`) with its receive time. */
  readonly notifications$: Observable<RpcNotification> = this.notificationSubject.asObservable();
  /**
   * `orderbook/full` frames, one per symbol: typed by `parseOrderBookFrames`, or, for the symbols
   * given to {@link decodeBooks}, decoded from the socket's bytes with their levels scaled.
   */
  readonly orderBookFrames$: Observable<BookFrame> = this.bookSubject.asObservable();
  /** Trades, candles, tickers, partial and top-of-book events, one per symbol, typed by `parseMarketNotification`. */
  readonly marketEvents$: Observable<MarketEvent> = this.marketSubject.asObservable();
  /** Connection and session events (drops, reconnects, restored subscriptions, parse errors). */
  readonly events$: Observable<SessionEvent>;
  /** One value per subscription restored after a reconnect: state built from that channel must be rebuilt. */
  readonly resubscribed$: Observable<Resubscription>;

  constructor(
    private readonly rpc: RpcConnection,
    /** How long a call made while disconnected waits for the connection, ms. */
    private readonly waitForOpenMs = 10_000,
  ) {
    this.events$ = merge(rpc.events$, this.ownEvents.asObservable());
    this.resubscribed$ = this.ownEvents.pipe(
      filter((e): e is Extract<SessionEvent, { kind: 'resubscribed' }> => e.kind === 'resubscribed'),
      map(({ ch, symbols, at }) => ({ ch, symbols, at })),
    );
    this.owned.push(
      rpc.notifications$.subscribe((n) => this.onNotification(n)),
      rpc.socket.state$.subscribe((state) => {
        if (state === 'open') this.restore(this.opens++ > 0);
      }),
    );
  }

  /** Builds the socket and request layer from options and wraps them in a session (not yet connected). */
  static create(options: PublicSessionOptions): PublicSession {
    return new PublicSession(new RpcConnection(new ReconnectingSocket(options), options), options.requestTimeoutMs);
  }

  /** Starts the connection and resolves once it is open. */
  connect(timeoutMs = this.waitForOpenMs): Promise<void> {
    this.rpc.socket.start();
    return this.rpc.socket.whenOpen(timeoutMs);
  }

  /**
   * Decodes the `orderbook/full` messages of these symbols straight from the socket's bytes, at
   * their scales (see {@link OrderBookMessageDecoder}): such a message reaches
   * {@link orderBookFrames$} as {@link ScaledOrderBookFrame}s, without a `JSON.parse` and level
   * texts. Messages the decoder does not take (other channels, replies, other symbols, values it
   * cannot scale exactly, any other layout) go the general way; so do all while someone listens to
   * the raw notifications ({@link notifications$}, `channel$('orderbook/full')`), which then get
   * them as before. Replaces the scales of an earlier call. The session must own its socket (as
   * {@link create} builds it): the messages decoded reach no other listener of the socket.
   */
  decodeBooks(scales: ReadonlyMap<string, BookScales>): void {
    const decoder = new OrderBookMessageDecoder(scales);
    this.rpc.socket.takeRawMessages((bytes, receivedAt) => this.takeBookMessage(decoder, bytes, receivedAt));
  }

  /** Raw notifications of one channel. */
  channel$(ch: string): Observable<RpcNotification> {
    let subject = this.channelSubjects.get(ch);
    if (subject === undefined) {
      subject = new Subject<RpcNotification>();
      this.channelSubjects.set(ch, subject);
    }
    return subject.asObservable();
  }

  /**
   * Subscribes `symbols` on `ch` (added to what the channel already has) and resolves with the
   * channel's subscriptions as the exchange acknowledged them. The wish is remembered at once, so a
   * call made while disconnected is carried out on connect. Rejects with ValidationError for a bad
   * channel, symbol or parameter, and ExchangeError (e.g. 2001 Symbol not found) from the exchange,
   * in which case the symbols it added are forgotten again.
   */
  async subscribe(ch: string, symbols: readonly string[], params?: SubscribeParams): Promise<string[]> {
    const channel = parsePublicChannel(ch);
    const list = validateSymbols(channel, symbols);
    const checked = validateSubscribeParams(channel, params);
    let desired = this.desired.get(ch);
    if (desired === undefined) {
      desired = { channel, symbols: new Set(), params: checked };
      this.desired.set(ch, desired);
    } else if (params !== undefined) {
      desired.params = checked;
    }
    const added = list.filter((s) => !desired.symbols.has(s));
    for (const symbol of added) desired.symbols.add(symbol);
    try {
      if (this.rpc.socket.state !== 'open') {
        await this.rpc.socket.whenOpen(this.waitForOpenMs);
        const restoring = this.restoring.get(ch);
        if (restoring !== undefined) return await restoring;
      }
      return await this.sendSubscribe(ch, list, checked);
    } catch (error) {
      if (error instanceof ExchangeError) this.forget(ch, added);
      throw error;
    }
  }

  /** Unsubscribes `symbols` from `ch`; resolves with what remains subscribed on the channel. */
  async unsubscribe(ch: string, symbols: readonly string[]): Promise<string[]> {
    const channel = parsePublicChannel(ch);
    const list = validateSymbols(channel, symbols);
    this.forget(ch, list);
    if (this.rpc.socket.state !== 'open') return [...(this.desired.get(ch)?.symbols ?? [])];
    return this.rpc.request('unsubscribe', { symbols: list }, { ch, parse: parseSubscriptionAck });
  }

  /** Asks the exchange which symbols are subscribed on `ch`. */
  subscriptions(ch: string): Promise<string[]> {
    parsePublicChannel(ch);
    return this.rpc.request('subscriptions', undefined, { ch, parse: parseSubscriptionAck });
  }

  /** The symbols this session wants on `ch` (what it restores after a reconnect). */
  desiredSymbols(ch: string): string[] {
    return [...(this.desired.get(ch)?.symbols ?? [])];
  }

  /**
   * Unsubscribes and subscribes again, so the exchange sends a fresh snapshot: for a book that saw a
   * sequence gap. The remembered subscriptions do not change.
   */
  async resync(ch: string, symbols: string[]): Promise<void> {
    const channel = parsePublicChannel(ch);
    const list = validateSymbols(channel, symbols);
    if (this.rpc.socket.state !== 'open') {
      // A reconnect restores every subscription with a fresh snapshot anyway.
      await this.rpc.socket.whenOpen(this.waitForOpenMs);
      await this.restoring.get(ch);
      return;
    }
    await this.rpc.request('unsubscribe', { symbols: list }, { ch, parse: parseSubscriptionAck });
    await this.sendSubscribe(ch, list, this.desired.get(ch)?.params ?? {});
  }

  /** Stops for good; pending calls fail with SessionClosedError and every stream completes. */
  async close(): Promise<void> {
    await this.rpc.close();
    for (const subscription of this.owned) subscription.unsubscribe();
    for (const subject of this.channelSubjects.values()) subject.complete();
    this.notificationSubject.complete();
    this.bookSubject.complete();
    this.marketSubject.complete();
    this.ownEvents.complete();
  }

  private sendSubscribe(ch: string, symbols: readonly string[], params: SubscribeParams): Promise<string[]> {
    return this.rpc.request('subscribe', { symbols, ...params }, { ch, parse: parseSubscriptionAck });
  }

  private forget(ch: string, symbols: readonly string[]): void {
    const desired = this.desired.get(ch);
    if (desired === undefined) return;
    for (const symbol of symbols) desired.symbols.delete(symbol);
    if (desired.symbols.size === 0) this.desired.delete(ch);
  }

  private restore(reconnect: boolean): void {
    for (const [ch, desired] of this.desired) {
      const symbols = [...desired.symbols];
      const pending = this.sendSubscribe(ch, symbols, desired.params);
      this.restoring.set(ch, pending);
      const done = (): void => {
        if (this.restoring.get(ch) === pending) this.restoring.delete(ch);
      };
      pending.then(
        () => {
          done();
          if (reconnect) this.ownEvents.next({ kind: 'resubscribed', at: this.now(), ch, symbols });
        },
        (error: Error) => {
          done();
          this.ownEvents.next({ kind: 'resubscribe-failed', at: this.now(), ch, symbols, error });
        },
      );
    }
  }

  /** The socket's raw-message handler once {@link decodeBooks} was called: true when it published the message's frames. */
  private takeBookMessage(decoder: OrderBookMessageDecoder, bytes: Buffer, receivedAt: number): boolean {
    if (!this.bookSubject.observed || this.notificationSubject.observed || this.channelSubjects.get(ORDER_BOOK_CHANNEL)?.observed === true) return false;
    const frames = decoder.decodeMessage(bytes, 0, bytes.length, receivedAt);
    if (frames === undefined) return false;
    for (let i = 0; i < frames.length; i++) this.bookSubject.next(frames[i] as ScaledOrderBookFrame);
    return true;
  }

  private onNotification(notification: RpcNotification): void {
    const ch = notification.frame.ch;
    if (typeof ch !== 'string') return;
    if (this.notificationSubject.observed) this.notificationSubject.next(notification);
    this.channelSubjects.get(ch)?.next(notification);
    if (ch === ORDER_BOOK_CHANNEL) {
      if (!this.bookSubject.observed) return;
      let frames: OrderBookFrame[];
      try {
        frames = parseOrderBookFrames(notification.frame, notification.receivedAt);
      } catch (error) {
        this.reportParseError(ch, notification, error);
        return;
      }
      for (const frame of frames) this.bookSubject.next(frame);
      return;
    }
    if (!this.marketSubject.observed) return;
    let events: MarketEvent[];
    try {
      events = parseMarketNotification(notification.frame, notification.receivedAt);
    } catch (error) {
      this.reportParseError(ch, notification, error);
      return;
    }
    for (const event of events) this.marketSubject.next(event);
  }

  private reportParseError(ch: string, notification: RpcNotification, error: unknown): void {
    const at = notification.receivedAt;
    this.ownEvents.next({ kind: 'parse-error', at, ch, error: error instanceof Error ? error : new Error(String(error)) });
  }

  private now(): number {
    return this.rpc.socket.clock.now();
  }
}
