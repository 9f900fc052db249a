import type { LatencyKind, LatencyModel } from '../venue/matching/latency-model.js';
import type { RawData, WebSocket } from 'ws';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { VenueRejection } from '../venue/venue-types.js';
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
 * JSON-RPC-like request handling shared by the trading and wallet streams: parses a request,
 * handles `login` (HS256 or BASIC), refuses everything else before login (1001) or without the
 * method's right (1003), and answers with `result` or the error envelope, `id` only when the
 * request had one.
 */
/** What a stream method does (without its account prefix), for the latency model. */
const STREAM_LATENCY_KINDS: Readonly<Record<string, LatencyKind>> = {
  new_order: 'place', new_order_list: 'placeList', replace_order: 'replace', cancel_order: 'cancel', cancel_orders: 'cancelAll',
};

export class RpcStream {
  private readonly clients = new Set<StreamClient>();

  constructor(
    private readonly auth: SandboxAuth,
    private readonly methods: Readonly<Record<string, StreamMethod>>,
    /** Delays between the client and the engine, both ways; none when absent. */
    private readonly latency?: LatencyModel,
    private readonly now: () => number = Date.now,
  ) {}

  /** Connections of this stream (for venue events). */
  get connections(): ReadonlySet<StreamClient> {
    return this.clients;
  }

  /** Takes over a new connection. */
  accept(socket: WebSocket): void {
    const client: StreamClient = { socket, key: undefined, subscriptions: new Set() };
    this.clients.add(client);
    socket.on('message', (data: RawData) => this.onRequest(client, data));
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
      if (handler === undefined) throw new VenueRejection(ErrorCode.ActionNotAllowed, `unknown method ${JSON.stringify(method)}`);
      if (client.key === undefined) throw new VenueRejection(ErrorCode.AuthorizationRequired, 'login first');
      SandboxAuth.requireRight(client.key, handler.right);
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
    const kind = STREAM_LATENCY_KINDS[method.replace(/^(spot|margin|futures)_/, '')] ?? 'query';
    setTimeout(() => {
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
      setTimeout(reply, latency.responseDelayMs(this.now(), kind));
    }, latency.entryDelayMs(this.now(), kind));
  }

  private replyError(client: StreamClient, id: unknown, error: unknown): void {
    if (!(error instanceof VenueRejection)) {
      sendError(client.socket, id, ErrorCode.InternalError, 'internal error');
      return;
    }
    sendError(client.socket, id, error.code, error.description);
  }
}
