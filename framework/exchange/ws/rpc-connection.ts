import { Subject, merge, type Observable, type Subscription } from 'rxjs';
import { ValidationError } from '../../model/errors.js';
import type { WireObject } from '../../model/wire.js';
import { ConnectionStateError, exchangeErrorFromBody, type ExchangeError } from '../errors.js';
import { ConnectionLostError, RequestTimeoutError, SessionClosedError } from './rpc-errors.js';
import type { ReconnectingSocket } from './reconnecting-socket.js';
import type { SocketEvent, SocketFrame } from './socket-event.js';

/** A frame that is not a reply: channel data (`{ch, update}`) or a method call (`{method, params}`). */
export interface RpcNotification {
  readonly frame: WireObject;
  /** Local receive time, UNIX ms. */
  readonly receivedAt: number;
}

/** Events of the request/reply layer on top of the socket's own. */
export type RpcEvent =
  | SocketEvent
  | { readonly kind: 'unmatched-reply'; readonly at: number; readonly id: unknown }
  | { readonly kind: 'error-frame'; readonly at: number; readonly error: ExchangeError }
  | { readonly kind: 'unexpected-frame'; readonly at: number; readonly type: string };

/** Options of one request. */
export interface RpcRequestOptions<T> {
  /** Reply deadline; the connection's default when absent. */
  readonly timeoutMs?: number;
  /** Channel of a market-data request, sent at the top level next to `method`. */
  readonly ch?: string;
  /** Validates and types `result`; a ParseError it throws rejects the request. */
  readonly parse?: (result: unknown) => T;
}

/** Tuning of the request/reply layer. */
export interface RpcConnectionOptions {
  /** Default reply deadline, ms (default 10 000). */
  readonly requestTimeoutMs?: number;
  /** Most requests in flight at once (default 1 000); more are refused rather than queued. */
  readonly maxPending?: number;
}

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  /** Validates and types the result before it resolves the request. */
  readonly parse: ((result: unknown) => unknown) | undefined;
  readonly timeoutMs: number;
  /** When the reply is overdue, on the monotonic clock (performance.now). */
  readonly deadline: number;
}

/**
 * JSON-RPC-like request/reply over a {@link ReconnectingSocket}. Ids increase for the lifetime of
 * the object (never reused across reconnects, so a late reply can never settle the wrong request).
 * Frames with an `id` and no `method` settle requests; every other object frame is a notification.
 * Requests never carry secrets into errors: errors name the method only.
 *
 * One timer watches the earliest reply deadline of all requests in flight, instead of a timer set
 * and cleared per request (on every order's path). It stays armed when the last reply comes: a
 * later request's deadline (the same timeout, sent later) falls after it, so a steady flow of
 * requests sets a timer about once per timeout instead of once per request; when it fires with
 * nothing overdue it just watches the next deadline, if any. The timer never keeps the process
 * alive by itself (a request in flight has an open socket that does).
 */
export class RpcConnection {
  private readonly notificationSubject = new Subject<RpcNotification>();
  private readonly ownEvents = new Subject<RpcEvent>();
  /** Notifications in arrival order. */
  readonly notifications$: Observable<RpcNotification> = this.notificationSubject.asObservable();
  /** Socket events and reply-layer events, merged. */
  readonly events$: Observable<RpcEvent>;

  private readonly pending = new Map<number, Pending>();
  private readonly subscriptions: Subscription[] = [];
  private readonly requestTimeoutMs: number;
  private readonly maxPending: number;
  private nextId = 1;
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** Deadline the timer is set for (Infinity when none). */
  private deadlineTimerAt = Number.POSITIVE_INFINITY;
  private readonly onDeadline = (): void => this.expire();

  constructor(
    readonly socket: ReconnectingSocket,
    options: RpcConnectionOptions = {},
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.maxPending = options.maxPending ?? 1_000;
    if (!(this.requestTimeoutMs > 0)) throw new ValidationError('requestTimeoutMs', 'must be greater than 0', this.requestTimeoutMs);
    this.events$ = merge(socket.events$, this.ownEvents.asObservable());
    this.subscriptions.push(
      socket.frames$.subscribe((frame) => this.onFrame(frame)),
      socket.state$.subscribe((state) => {
        if (state === 'reconnecting') this.failPending((method) => new ConnectionLostError(method, true));
        else if (state === 'closed') this.failPending((method) => new SessionClosedError(method, true));
      }),
    );
  }

  /** Number of requests awaiting a reply. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Sends `{method, ch?, params?, id}` and resolves with the parsed `result`. Rejects with
   * ExchangeError on an error reply, RequestTimeoutError after the deadline, ConnectionLostError /
   * SessionClosedError (outcomeUnknown) when the connection goes away first, and a plain
   * ConnectionStateError when the request could not be sent at all.
   */
  request<T = unknown>(method: string, params?: Readonly<Record<string, unknown>>, options: RpcRequestOptions<T> = {}): Promise<T> {
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(new ConnectionStateError(`${this.pending.size} requests already in flight (limit ${this.maxPending})`));
    }
    const id = this.nextId++;
    const message: Record<string, unknown> = { method };
    if (options.ch !== undefined) message.ch = options.ch;
    if (params !== undefined) message.params = params;
    message.id = id;
    try {
      this.socket.send(message);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new ConnectionStateError(String(error)));
    }
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const deadline = performance.now() + timeoutMs;
    if (deadline < this.deadlineTimerAt) this.watchDeadline(deadline);
    const parse = options.parse;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, timeoutMs, deadline, reject, resolve: resolve as (result: unknown) => void, parse });
    });
  }

  /** Sends a message without `id`: the exchange gives no reply. */
  notify(method: string, params?: Readonly<Record<string, unknown>>): void {
    this.socket.send(params === undefined ? { method } : { method, params });
  }

  /** Stops for good: closes the socket; pending requests fail with SessionClosedError. */
  async close(): Promise<void> {
    await this.socket.close();
    this.unwatchDeadline();
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.notificationSubject.complete();
    this.ownEvents.complete();
  }

  private onFrame(frame: SocketFrame): void {
    const data = frame.data;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      this.ownEvents.next({ kind: 'unexpected-frame', at: frame.receivedAt, type: Array.isArray(data) ? 'array' : typeof data });
      return;
    }
    const obj = data as WireObject;
    const id = obj.id;
    if (id != null && obj.method === undefined) {
      this.settle(obj, id, frame.receivedAt);
      return;
    }
    if (obj.method === undefined && obj.ch === undefined) {
      // A reply without id cannot be matched; an error without id is still worth surfacing.
      const error = exchangeErrorFromBody(obj, 0);
      if (error !== undefined) this.ownEvents.next({ kind: 'error-frame', at: frame.receivedAt, error });
      else if ('result' in obj) this.ownEvents.next({ kind: 'unmatched-reply', at: frame.receivedAt, id });
      else this.notificationSubject.next({ frame: obj, receivedAt: frame.receivedAt });
      return;
    }
    this.notificationSubject.next({ frame: obj, receivedAt: frame.receivedAt });
  }

  private settle(obj: WireObject, rawId: unknown, at: number): void {
    const id = typeof rawId === 'number' ? rawId : typeof rawId === 'string' && /^\d+$/.test(rawId) ? Number(rawId) : NaN;
    const pending = this.pending.get(id);
    if (pending === undefined) {
      this.ownEvents.next({ kind: 'unmatched-reply', at, id: rawId });
      return;
    }
    this.pending.delete(id);
    if (obj.error !== undefined) {
      const error = exchangeErrorFromBody(obj, 0, pending.method);
      pending.reject(error ?? new ConnectionStateError(`malformed error reply to ${pending.method}`));
      return;
    }
    const parse = pending.parse;
    if (parse === undefined) {
      pending.resolve(obj.result);
      return;
    }
    let result: unknown;
    try {
      result = parse(obj.result);
    } catch (error) {
      pending.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    pending.resolve(result);
  }

  private failPending(makeError: (method: string) => Error): void {
    if (this.pending.size === 0) return;
    const all = [...this.pending.values()];
    this.pending.clear();
    this.unwatchDeadline();
    for (const pending of all) pending.reject(makeError(pending.method));
  }

  private watchDeadline(deadline: number): void {
    clearTimeout(this.deadlineTimer);
    this.deadlineTimerAt = deadline;
    this.deadlineTimer = setTimeout(this.onDeadline, Math.max(0, deadline - performance.now()));
    this.deadlineTimer.unref();
  }

  private unwatchDeadline(): void {
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.deadlineTimerAt = Number.POSITIVE_INFINITY;
  }

  /** Fails every request past its deadline, then watches the next deadline. */
  private expire(): void {
    this.deadlineTimer = undefined;
    this.deadlineTimerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    const overdue: Pending[] = [];
    for (const [id, pending] of this.pending) {
      if (pending.deadline <= now) {
        this.pending.delete(id);
        overdue.push(pending);
      } else if (pending.deadline < next) {
        next = pending.deadline;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.watchDeadline(next);
    for (const pending of overdue) pending.reject(new RequestTimeoutError(pending.method, pending.timeoutMs));
  }
}
