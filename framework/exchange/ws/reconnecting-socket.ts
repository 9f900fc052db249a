import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import WebSocket from 'ws';
import type { Clock } from '../../time/clock.js';
import { inMicrotask } from '../../time/microtask.js';
import { ValidationError } from '../../model/errors.js';
import { ConnectionStateError, NetworkError, TimeoutError } from '../errors.js';
import { backoffDelay, DEFAULT_BACKOFF, validateBackoff, type BackoffOptions } from './backoff.js';
import type { RawMessageHandler, SocketEvent, SocketFrame, SocketState } from './socket-event.js';

/** How one logical connection dials, keeps alive and redials. Every duration is in ms. */
export interface ReconnectingSocketOptions {
  readonly url: string;
  /** Stamps `receivedAt` on frames and `at` on events. */
  readonly clock: Clock;
  /** Abort a handshake that has not completed after this long (default 10 000). */
  readonly connectTimeoutMs?: number;
  /** Interval of client ping frames; 0 disables pings and dead-connection detection (default 5 000). */
  readonly pingIntervalMs?: number;
  /** Declare the connection dead when neither pong nor frame arrived for this long (default 15 000). */
  readonly deadAfterMs?: number;
  readonly backoff?: Partial<BackoffOptions>;
  /** An open period at least this long resets the backoff (default 30 000). */
  readonly stableAfterMs?: number;
  /** Consecutive failed attempts before giving up for good (default: never give up). */
  readonly maxReconnectAttempts?: number;
  /** Uniform [0, 1) source for the jitter (default Math.random). */
  readonly random?: () => number;
  /** Refuse to queue more than this many unsent bytes (default 4 MiB). */
  readonly maxBufferedBytes?: number;
  /** Largest accepted incoming frame (default 64 MiB: full books of busy symbols are large). */
  readonly maxPayloadBytes?: number;
  /** Monotonic time for liveness and stability (default performance.now), independent of `clock`. */
  readonly monotonicNow?: () => number;
  /** Told of every message accepted by {@link ReconnectingSocket.send} (a lockstep driver counts requests). */
  readonly onSent?: () => void;
  /** Told of every message received, once it has been handed on (a lockstep driver counts arrivals). */
  readonly onReceived?: () => void;
  /**
   * Decides when a received message is handed on: calls `handOn` then or later (a lockstep bot
   * holds each message until the market time it belongs to). Default: at once.
   */
  readonly deliver?: (handOn: () => void) => void;
}

const CLOSE_GRACE_MS = 1_000;

/**
 * One logical WebSocket connection over the `ws` package that survives drops: dials with a
 * timeout, redials with exponential backoff and full jitter, pings and detects silent peers.
 * Frames are JSON-parsed once and pushed to `frames$` (unless a raw-message handler took them,
 * see {@link takeRawMessages}); a frame that is not JSON is reported on `events$` and skipped.
 * Nothing is buffered while disconnected: `send` refuses instead, so the caller decides what an
 * unsent message means.
 *
 * Messages sent while open are written at the end of the current turn (a microtask), in order:
 * the socket write is the dearest step of a request (framing, masking and a system call that, over
 * loopback, also runs the receiving side's TCP stack), and a caller that sends several requests in
 * one turn (a strategy's intents of one event) hands all of them over before the first is written,
 * instead of each waiting for the previous one's write.
 */
export class ReconnectingSocket {
  private readonly stateSubject = new BehaviorSubject<SocketState>('idle');
  private readonly frameSubject = new Subject<SocketFrame>();
  private readonly eventSubject = new Subject<SocketEvent>();
  /** Current lifecycle state; replays the latest value to new subscribers. */
  readonly state$: Observable<SocketState> = this.stateSubject.asObservable();
  /** Parsed frames in arrival order. */
  readonly frames$: Observable<SocketFrame> = this.frameSubject.asObservable();
  /** Connection events (connects, drops, malformed frames, errors). */
  readonly events$: Observable<SocketEvent> = this.eventSubject.asObservable();

  private readonly options: Required<Omit<ReconnectingSocketOptions, 'backoff' | 'deliver'>> & Pick<ReconnectingSocketOptions, 'deliver'> & { backoff: BackoffOptions };
  private ws: WebSocket | undefined;
  private failedAttempts = 0;
  private openedAt: number | undefined;
  /** Sockets this object terminated itself: their abort errors are self-inflicted, not news. */
  private readonly aborted = new WeakSet<WebSocket>();
  private lastActivity = 0;
  private connectTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private openWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private rawHandler: RawMessageHandler | undefined;
  /** Messages accepted this turn, written by {@link flush}; they belong to `ws` as it was when queued. */
  private outbox: string[] = [];
  private outboxBytes = 0;
  private readonly flushNow = (): void => this.flush();
  private readonly onWritten = (error?: Error): void => {
    if (error) this.emit({ kind: 'error', at: this.options.clock.now(), error: new NetworkError(error.message, { cause: error }) });
  };

  constructor(options: ReconnectingSocketOptions) {
    this.options = {
      connectTimeoutMs: 10_000,
      pingIntervalMs: 5_000,
      deadAfterMs: 15_000,
      stableAfterMs: 30_000,
      maxReconnectAttempts: Number.POSITIVE_INFINITY,
      random: Math.random,
      maxBufferedBytes: 4 * 1024 * 1024,
      maxPayloadBytes: 64 * 1024 * 1024,
      monotonicNow: () => performance.now(),
      onSent: () => {},
      onReceived: () => {},
      ...options,
      backoff: validateBackoff({ ...DEFAULT_BACKOFF, ...options.backoff }),
    };
    if (!/^wss?:\/\//.test(options.url)) throw new ValidationError('url', 'must start with ws:// or wss://', options.url);
    for (const key of ['connectTimeoutMs', 'deadAfterMs'] as const) {
      if (!(this.options[key] > 0)) throw new ValidationError(key, 'must be greater than 0', this.options[key]);
    }
    if (!(this.options.pingIntervalMs >= 0)) {
      throw new ValidationError('pingIntervalMs', 'must be 0 (off) or positive', this.options.pingIntervalMs);
    }
  }

  /** The current state. */
  get state(): SocketState {
    return this.stateSubject.value;
  }

  /** The clock that stamps frames and events; sessions stamp their own events with it too. */
  get clock(): Clock {
    return this.options.clock;
  }

  /** The URL this socket dials. */
  get url(): string {
    return this.options.url;
  }

  /** Starts dialling; idempotent. Reconnection goes on until `close()` or the attempt budget runs out. */
  start(): void {
    if (this.state !== 'idle') return;
    this.setState('connecting');
    this.dial();
  }

  /** Resolves when the connection is open (at once if it is); rejects when it closes for good or after `timeoutMs`. */
  whenOpen(timeoutMs?: number): Promise<void> {
    if (this.state === 'open') return Promise.resolve();
    if (this.state === 'closed') return Promise.reject(new ConnectionStateError('connection is closed'));
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter = {
        resolve: () => { clearTimeout(timer); resolve(); },
        reject: (error: Error) => { clearTimeout(timer); reject(error); },
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.openWaiters = this.openWaiters.filter((w) => w !== waiter);
          reject(new TimeoutError(`connection to ${this.options.url} not open after ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.openWaiters.push(waiter);
    });
  }

  /** Serialises `message` as JSON and sends it; throws ConnectionStateError unless open. */
  send(message: unknown): void {
    this.sendText(JSON.stringify(message));
  }

  /**
   * Sends a text frame (written at the end of the turn, after the messages sent before it); throws
   * ConnectionStateError unless open, NetworkError when the peer stopped reading.
   */
  sendText(text: string): void {
    const ws = this.ws;
    if (this.state !== 'open' || ws === undefined || ws.readyState !== WebSocket.OPEN) {
      throw new ConnectionStateError(`cannot send: connection is ${this.state}`);
    }
    const unsent = ws.bufferedAmount + this.outboxBytes;
    if (unsent + text.length > this.options.maxBufferedBytes) {
      throw new NetworkError(`cannot send: ${unsent} bytes still unsent (limit ${this.options.maxBufferedBytes})`);
    }
    if (this.outbox.length === 0) inMicrotask(this.flushNow);
    this.outbox.push(text);
    this.outboxBytes += text.length;
    this.options.onSent();
  }

  /**
   * Hands every received message to `handler` first, as its bytes (undefined: none); a message it
   * takes is not parsed nor pushed to `frames$`. A decoder of the messages that make up most of a
   * stream (see PublicSession.decodeBooks) skips the text and `JSON.parse` that way; what it does
   * not take is parsed, and reported when malformed, as without it.
   */
  takeRawMessages(handler: RawMessageHandler | undefined): void {
    this.rawHandler = handler;
  }

  /** Drops the current connection as if the network failed (messages not yet written are lost); the usual backoff and redial follow. */
  dropConnection(): void {
    this.discardOutbox();
    if (this.ws !== undefined) this.abort(this.ws);
  }

  /**
   * Stops for good: cancels every timer, closes the socket (forcibly after a short grace period),
   * fails pending `whenOpen` calls and completes every stream.
   */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    // Messages of this turn go out before the close frame.
    this.flush();
    this.clearTimers();
    const ws = this.ws;
    this.ws = undefined;
    this.finish();
    if (ws !== undefined && ws.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        const grace = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
        ws.once('close', () => { clearTimeout(grace); resolve(); });
        if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'client closing');
        else ws.terminate();
      });
    }
  }

  private dial(): void {
    const ws = new WebSocket(this.options.url, { maxPayload: this.options.maxPayloadBytes, perMessageDeflate: false });
    this.ws = ws;
    this.connectTimer = setTimeout(() => {
      this.emit({ kind: 'connect-timeout', at: this.options.clock.now(), timeoutMs: this.options.connectTimeoutMs });
      this.abort(ws);
    }, this.options.connectTimeoutMs);
    ws.on('open', () => { if (ws === this.ws) this.onOpen(ws); });
    ws.on('message', (raw: WebSocket.RawData) => { if (ws === this.ws) this.onMessage(ws, raw); });
    ws.on('pong', () => { if (ws === this.ws) this.lastActivity = this.options.monotonicNow(); });
    // Always listen: an unhandled 'error' on a stale socket would crash the process.
    ws.on('error', (error: Error) => {
      if (ws === this.ws && !this.aborted.has(ws)) this.emit({ kind: 'error', at: this.options.clock.now(), error: new NetworkError(error.message, { cause: error }) });
    });
    ws.on('close', (code: number, reason: Buffer) => { if (ws === this.ws) this.onClose(code, reason.toString()); });
  }

  private onOpen(ws: WebSocket): void {
    clearTimeout(this.connectTimer);
    this.openedAt = this.lastActivity = this.options.monotonicNow();
    const attempt = this.failedAttempts;
    if (this.options.pingIntervalMs > 0) {
      this.pingTimer = setInterval(() => this.keepAlive(ws), this.options.pingIntervalMs);
    }
    this.setState('open');
    this.emit({ kind: 'connected', at: this.options.clock.now(), attempt });
    const waiters = this.openWaiters;
    this.openWaiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  private keepAlive(ws: WebSocket): void {
    const silentMs = this.options.monotonicNow() - this.lastActivity;
    if (silentMs > this.options.deadAfterMs) {
      this.emit({ kind: 'dead-connection', at: this.options.clock.now(), silentMs: Math.round(silentMs) });
      this.abort(ws);
      return;
    }
    ws.ping();
  }

  private onMessage(ws: WebSocket, raw: WebSocket.RawData): void {
    this.lastActivity = this.options.monotonicNow();
    const deliver = this.options.deliver;
    if (deliver === undefined) this.handOn(raw);
    else deliver(() => { if (ws === this.ws) this.handOn(raw); });
  }

  private handOn(raw: WebSocket.RawData): void {
    const receivedAt = this.options.clock.now();
    const bytes = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw);
    const rawHandler = this.rawHandler;
    if (rawHandler !== undefined && rawHandler(bytes, receivedAt)) {
      this.options.onReceived();
      return;
    }
    const text = bytes.toString('utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      this.emit({ kind: 'malformed-frame', at: receivedAt, length: text.length, error: error as Error });
      this.options.onReceived();
      return;
    }
    this.frameSubject.next({ data, receivedAt });
    this.options.onReceived();
  }

  private onClose(code: number, reason: string): void {
    this.discardOutbox();
    this.clearTimers();
    this.ws = undefined;
    const now = this.options.clock.now();
    if (this.openedAt !== undefined) {
      if (this.options.monotonicNow() - this.openedAt >= this.options.stableAfterMs) this.failedAttempts = 0;
      this.openedAt = undefined;
      this.emit({ kind: 'disconnected', at: now, code, reason });
    }
    this.failedAttempts++;
    if (this.failedAttempts > this.options.maxReconnectAttempts) {
      this.emit({ kind: 'gave-up', at: now, attempts: this.failedAttempts });
      this.finish();
      return;
    }
    const delayMs = backoffDelay(this.failedAttempts - 1, this.options.backoff, this.options.random);
    this.setState('reconnecting');
    this.emit({ kind: 'reconnect-scheduled', at: now, attempt: this.failedAttempts, delayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.dial();
    }, delayMs);
  }

  /**
   * Writes the messages of the turn. A connection that went away meanwhile takes them with it:
   * like a message written just before a drop, their requests then end as connection lost.
   */
  private flush(): void {
    if (this.outbox.length === 0) return;
    const texts = this.outbox;
    this.outbox = [];
    this.outboxBytes = 0;
    const ws = this.ws;
    if (ws === undefined || ws.readyState !== WebSocket.OPEN || this.aborted.has(ws)) return;
    for (const text of texts) ws.send(text, this.onWritten);
  }

  private discardOutbox(): void {
    this.outbox = [];
    this.outboxBytes = 0;
  }

  private abort(ws: WebSocket): void {
    this.aborted.add(ws);
    ws.terminate();
  }

  private finish(): void {
    this.setState('closed');
    const waiters = this.openWaiters;
    this.openWaiters = [];
    for (const waiter of waiters) waiter.reject(new ConnectionStateError('connection closed'));
    this.stateSubject.complete();
    this.frameSubject.complete();
    this.eventSubject.complete();
  }

  private clearTimers(): void {
    clearTimeout(this.connectTimer);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.connectTimer = this.reconnectTimer = this.pingTimer = undefined;
  }

  private setState(state: SocketState): void {
    if (this.stateSubject.value !== state) this.stateSubject.next(state);
  }

  private emit(event: SocketEvent): void {
    this.eventSubject.next(event);
  }
}
