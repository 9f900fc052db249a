import type { LatencyKind, LatencyModel } from '../venue/matching/latency-model.js';
import type { RawData, WebSocket } from 'ws';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { VenueRejection } from '../venue/venue-types.js';
import type { RequestBudget } from './request-budget.js';
import { SandboxAuth } from './sandbox-auth.js';
import type { AccessRight, ResolvedApiKey } from './sandbox-config.js';
import { sendError, sendResult } from './ws-protocol.js';

/** One authenticated-stream connection (`/ws/trading` or `/ws/wallet`). */
export interface StreamClient {
  readonly socket: WebSocket;
  /** Set by a successful `login`. */
  key: ResolvedApiKey | undefined;
  /** Stream subscriptions held (method names such as `spot_subscribe`). */
  readonly subscriptions: Set<string>;
}

/** A stream method: the right it needs and what it does; the result goes back as `result`. */
export interface StreamMethod {
  readonly right: AccessRight;
  /**
   * Returns the reply's result. `after` runs once the reply is sent (a subscription's snapshot
   * must follow its acknowledgement, as on the exchange).
   */
  readonly handle: (client: StreamClient, params: Readonly<Record<string, unknown>>) => { result: unknown; after?: () => void };
}

/**
 * What a stream method does (without its account prefix), for the latency model; these are the
 * trading requests (place, replace, cancel) of the documented limits, the rest spend `other`.
 */
const STREAM_LATENCY_KINDS: Readonly<Record<string, LatencyKind>> = {
  new_order: 'place', new_order_list: 'placeList', replace_order: 'replace', cancel_order: 'cancel', cancel_orders: 'cancelAll',
};

/** Options of {@link RpcStream}. */
export interface RpcStreamOptions {
  readonly auth: SandboxAuth;
  readonly methods: Readonly<Record<string, StreamMethod>>;
  /** The request budgets, shared with REST: a key's trading budget is one whatever carries it. */
  readonly budget: RequestBudget;
  /** Delays between the client and the engine, both ways; none when absent. */
  readonly latency?: LatencyModel;
  /** The time the latency model reads; default Date.now. */
  readonly now?: () => number;
  /** Runs work `ms` later (default setTimeout; lockstep: in market time). */
  readonly later?: (ms: number, work: () => void) => void;
  /** Every request passes here before it is handled (lockstep: it waits for the market clock). */
  readonly gate?: (run: () => void) => void;
}

/**
 * JSON-RPC-like request handling shared by the trading and wallet streams: parses a request,
 * handles `login` (HS256 or BASIC), refuses an unknown method (10001, as the public stream
 * does), everything else before login (1001) or without the method's right (1003), and a request
 * over the key's budget (429: place, replace and cancel spend the trading budget, every other
 * method the `other` one, as over REST); answers with `result` or the error envelope, `id` only
 * when the request had one.
 */
export class RpcStream {
  private readonly clients = new Set<StreamClient>();
  private readonly auth: SandboxAuth;
  private readonly methods: Readonly<Record<string, StreamMethod>>;
  private readonly latency: LatencyModel | undefined;
  private readonly now: () => number;
  private readonly later: (ms: number, work: () => void) => void;

  constructor(private readonly options: RpcStreamOptions) {
    this.auth = options.auth;
    this.methods = options.methods;
    this.latency = options.latency;
    this.now = options.now ?? Date.now;
    this.later = options.later ?? ((ms, work) => void setTimeout(work, ms));
  }

  /** Connections of this stream (for venue events). */
  get connections(): ReadonlySet<StreamClient> {
    return this.clients;
  }

  /** Takes over a new connection. */
  accept(socket: WebSocket): void {
    const client: StreamClient = { socket, key: undefined, subscriptions: new Set() };
    this.clients.add(client);
    const gate = this.options.gate;
    socket.on('message', gate === undefined
      ? (data: RawData) => this.onRequest(client, data)
      : (data: RawData) => gate(() => this.onRequest(client, data)));
    socket.on('close', () => this.clients.delete(client));
  }

  /** Closes every connection. */
  closeAll(): void {
    for (const client of this.clients) client.socket.terminate();
    this.clients.clear();
  }

  private onRequest(client: StreamClient, data: RawData): void {
    let request: { method?: unknown; params?: unknown; id?: unknown };
    try {
      request = JSON.parse(data.toString()) as typeof request;
    } catch {
      sendError(client.socket, undefined, ErrorCode.ValidationError, 'request is not valid JSON');
      return;
    }
    const { method, id } = request ?? {};
    const params = request?.params ?? {};
    try {
      if (params === null || typeof params !== 'object' || Array.isArray(params)) {
        throw new VenueRejection(ErrorCode.ValidationError, 'params must be an object');
      }
      if (method === 'login') {
        client.key = this.auth.authenticateLogin(params);
        sendResult(client.socket, id, true);
        return;
      }
      const handler = typeof method === 'string' ? this.methods[method] : undefined;
      if (handler === undefined) throw new VenueRejection(ErrorCode.ValidationError, `unknown method ${JSON.stringify(method)}`);
      if (client.key === undefined) throw new VenueRejection(ErrorCode.AuthorizationRequired, 'login first');
      SandboxAuth.requireRight(client.key, handler.right);
      this.options.budget.spend(tradingRequest(method as string) ? 'trading' : 'other', client.key.apiKey);
      if (this.latency !== undefined) {
        this.delayed(client, id, method as string, handler, params as Record<string, unknown>);
        return;
      }
      const { result, after } = handler.handle(client, params as Record<string, unknown>);
      sendResult(client.socket, id, result);
      after?.();
    } catch (error) {
      this.replyError(client, id, error);
    }
  }

  /**
   * Runs the request after the entry latency (the engine acts then) and sends its reply after the
   * response latency. Reports the engine emits go out as it emits them, like the exchange's
   * streams, which do not wait for the reply.
   */
  private delayed(client: StreamClient, id: unknown, method: string, handler: StreamMethod, params: Record<string, unknown>): void {
    const latency = this.latency as LatencyModel;
    const kind = STREAM_LATENCY_KINDS[unprefixed(method)] ?? 'query';
    this.later(latency.entryDelayMs(this.now(), kind), () => {
      let reply: () => void;
      try {
        const { result, after } = handler.handle(client, params);
        reply = () => {
          sendResult(client.socket, id, result);
          after?.();
        };
      } catch (error) {
        reply = () => this.replyError(client, id, error);
      }
      this.later(latency.responseDelayMs(this.now(), kind), reply);
    });
  }

  private replyError(client: StreamClient, id: unknown, error: unknown): void {
    if (!(error instanceof VenueRejection)) {
      sendError(client.socket, id, ErrorCode.InternalError, 'internal error');
      return;
    }
    sendError(client.socket, id, error.code, error.description);
  }
}

function unprefixed(method: string): string {
  return method.replace(/^(spot|margin|futures)_/, '');
}

/** Place, replace or cancel: the requests of the trading budget. */
function tradingRequest(method: string): boolean {
  return Object.hasOwn(STREAM_LATENCY_KINDS, unprefixed(method));
}
