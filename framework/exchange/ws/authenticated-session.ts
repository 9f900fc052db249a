import { Subject, filter, map, merge, type Observable, type Subscription } from 'rxjs';
import { ParseError } from '../../model/errors.js';
import type { ApiCredentials } from '../rest/credentials.js';
import { ReconnectingSocket, type ReconnectingSocketOptions } from './reconnecting-socket.js';
import { RpcConnection, type RpcConnectionOptions, type RpcNotification } from './rpc-connection.js';
import type { Resubscription, SessionEvent } from './session-event.js';
import { wsLoginParams } from './ws-login.js';

/** Everything needed to open an authenticated (trading or wallet) session. */
export type AuthenticatedSessionOptions = ReconnectingSocketOptions & RpcConnectionOptions & { readonly credentials: ApiCredentials };

/** Reads a subscribe/unsubscribe/login `result`, which the exchange sends as `true`. */
export function parseTrueResult(result: unknown): true {
  if (result === true || (result !== null && typeof result === 'object' && (result as { result?: unknown }).result === true)) return true;
  throw new ParseError('result', 'must be true', result);
}

interface StreamSubscription {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>> | undefined;
}

/** Parses a notification and delivers it; false when the frame is not of its kind. */
export type NotificationRoute = (frame: RpcNotification['frame'], receivedAt: number) => boolean;

/** A route that delivers what `parse` recognises (non-null) to `subject`. */
export function route<T>(parse: (frame: unknown, receivedAt: number) => T | null, subject: Subject<T>): NotificationRoute {
  return (frame, receivedAt) => {
    const value = parse(frame, receivedAt);
    if (value === null) return false;
    subject.next(value);
    return true;
  };
}

/**
 * What trading and wallet sessions share: `login()` (HS256 or BASIC), and after every reconnect a
 * fresh login followed by every stream subscription made so far, each announced on `resubscribed$`
 * (a tracker then reconciles the orders and balances it may have missed). Calls made while that
 * restore runs wait for it, so they never race the login.
 */
export abstract class AuthenticatedSession {
  private readonly ownEvents = new Subject<SessionEvent>();
  private readonly streams = new Map<string, StreamSubscription>();
  private readonly owned: Subscription[] = [];
  private restoring: Promise<void> | undefined;
  private wantsLogin = false;
  private opens = 0;

  /** Connection and session events (drops, logins, restored subscriptions, parse errors); never secrets. */
  readonly events$: Observable<SessionEvent>;
  /** One value per stream subscription restored after a reconnect. */
  readonly resubscribed$: Observable<Resubscription>;

  protected constructor(
    protected readonly rpc: RpcConnection,
    private readonly credentials: ApiCredentials,
    private readonly waitForOpenMs = 10_000,
    /** The time a login signs; default the socket's clock (a bot on market time passes the wall clock: the exchange checks it against its own). */
    private readonly signingNow?: () => number,
  ) {
    this.events$ = merge(rpc.events$, this.ownEvents.asObservable());
    this.resubscribed$ = this.ownEvents.pipe(
      filter((e): e is Extract<SessionEvent, { kind: 'resubscribed' }> => e.kind === 'resubscribed'),
      map(({ ch, symbols, at }) => ({ ch, symbols, at })),
    );
    this.owned.push(
      rpc.notifications$.subscribe((n) => this.onNotification(n)),
      rpc.socket.state$.subscribe((state) => {
        if (state === 'open' && this.opens++ > 0 && this.wantsLogin) {
          const restoring = this.restore();
          this.restoring = restoring;
          void restoring.finally(() => {
            if (this.restoring === restoring) this.restoring = undefined;
          });
        }
      }),
    );
  }

  /** Builds the socket and request layer from options. */
  protected static connection(options: AuthenticatedSessionOptions): RpcConnection {
    return new RpcConnection(new ReconnectingSocket(options), options);
  }

  /** Starts the connection and resolves once it is open. */
  connect(timeoutMs = this.waitForOpenMs): Promise<void> {
    this.rpc.socket.start();
    return this.rpc.socket.whenOpen(timeoutMs);
  }

  /** Authenticates this connection; from now on every reconnect logs in again automatically. */
  async login(): Promise<void> {
    await this.sendLogin();
    this.wantsLogin = true;
  }

  /** Connects and logs in. */
  async start(timeoutMs?: number): Promise<void> {
    await this.connect(timeoutMs);
    await this.login();
  }

  /** Sends one request, after any login-and-restore in progress (at once, in this turn, when none is). */
  request<T>(method: string, params: Readonly<Record<string, unknown>> | undefined, parse: (result: unknown) => T): Promise<T> {
    const restoring = this.restoring;
    if (restoring === undefined) return this.rpc.request(method, params, { parse });
    return restoring.catch(() => undefined).then(() => this.rpc.request(method, params, { parse }));
  }

  /** Subscribes to a stream with `method` and remembers it (under `key`) for restoring after reconnects. */
  async subscribeStream(key: string, method: string, params?: Readonly<Record<string, unknown>>): Promise<void> {
    await this.request(method, params, parseTrueResult);
    this.streams.set(key, { method, params });
  }

  /** Unsubscribes a stream and forgets it. */
  async unsubscribeStream(key: string, method: string): Promise<void> {
    this.streams.delete(key);
    await this.request(method, undefined, parseTrueResult);
  }

  /** Stops for good; pending calls fail with SessionClosedError and every stream completes. */
  async close(): Promise<void> {
    await this.rpc.close();
    for (const subscription of this.owned) subscription.unsubscribe();
    this.ownEvents.complete();
    this.completeStreams();
  }

  /** Handles one notification of the stream (order reports, balances, transactions). */
  protected abstract onNotification(notification: RpcNotification): void;

  /** Completes the session's own typed streams. */
  protected abstract completeStreams(): void;

  /**
   * Offers a notification to each route in turn; the first whose parser recognises it (returns
   * non-null) receives it. A frame that fails to parse is reported and skipped.
   */
  protected dispatch(notification: RpcNotification, routes: readonly NotificationRoute[]): void {
    const { frame, receivedAt } = notification;
    try {
      for (const route of routes) if (route(frame, receivedAt)) return;
    } catch (error) {
      this.reportParseError(typeof frame.method === 'string' ? frame.method : '(none)', receivedAt, error);
    }
  }

  /** Reports a frame that failed to parse; the frame is skipped. */
  protected reportParseError(ch: string, at: number, error: unknown): void {
    this.ownEvents.next({ kind: 'parse-error', at, ch, error: error instanceof Error ? error : new Error(String(error)) });
  }

  private async sendLogin(): Promise<void> {
    const clock = this.rpc.socket.clock;
    try {
      await this.rpc.request('login', wsLoginParams(this.credentials, this.signingNow?.() ?? clock.now()), { parse: parseTrueResult });
    } catch (error) {
      this.ownEvents.next({ kind: 'login-failed', at: clock.now(), error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
    this.ownEvents.next({ kind: 'logged-in', at: clock.now() });
  }

  /** Logs in again and restores every stream; never rejects (failures become events). */
  private async restore(): Promise<void> {
    try {
      await this.sendLogin();
    } catch {
      return; // reported as login-failed; the next reconnect tries again
    }
    const clock = this.rpc.socket.clock;
    await Promise.all([...this.streams.values()].map(async ({ method, params }) => {
      try {
        await this.rpc.request(method, params, { parse: parseTrueResult });
        this.ownEvents.next({ kind: 'resubscribed', at: clock.now(), ch: method, symbols: [] });
      } catch (error) {
        const cause = error instanceof Error ? error : new Error(String(error));
        this.ownEvents.next({ kind: 'resubscribe-failed', at: clock.now(), ch: method, symbols: [], error: cause });
      }
    }));
  }
}
