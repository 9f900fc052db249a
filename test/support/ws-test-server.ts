import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom, timeout, type Observable } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';

/** One connection accepted by the fake exchange. */
export interface TestClient {
  readonly socket: WebSocket;
  /** Request path, e.g. `/api/3/ws/trading`. */
  readonly path: string;
  /** Every parsed message this client sent, in order. */
  readonly received: Record<string, unknown>[];
}

/** Decides how the fake answers one message; the default answers `{result: true}` to anything with an id. */
export type TestHandler = (message: Record<string, unknown>, client: TestClient, server: WsTestServer) => void;

interface Waiter<T> {
  readonly accept: (value: T) => boolean;
}

/**
 * A small scriptable API v3 stream server on 127.0.0.1 and an ephemeral port. It answers pings by
 * hand (autoPong off) so a test can make it go silent, records every message, and lets a test
 * reply, push notifications, send garbage or drop connections.
 */
export class WsTestServer {
  /** Currently open connections. */
  readonly clients: TestClient[] = [];
  /** Every connection ever accepted. */
  connections = 0;
  /** When true, pings go unanswered and messages are recorded but not handled. */
  silent = false;
  handler: TestHandler = (message, client) => {
    if (message.id !== undefined) this.reply(client, message.id, true);
  };

  private readonly waiters: Array<Waiter<unknown>> = [];

  private constructor(private readonly wss: WebSocketServer) {
    wss.on('connection', (socket, request) => {
      const client: TestClient = { socket, path: request.url ?? '/', received: [] };
      this.connections++;
      this.clients.push(client);
      socket.on('ping', (data) => { if (!this.silent) socket.pong(data); });
      socket.on('close', () => {
        const index = this.clients.indexOf(client);
        if (index >= 0) this.clients.splice(index, 1);
      });
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as Record<string, unknown>;
        client.received.push(message);
        this.notify({ kind: 'message', client, message });
        if (!this.silent) this.handler(message, client, this);
      });
      this.notify({ kind: 'connection', client });
    });
  }

  /** Starts a server on 127.0.0.1, port 0. */
  static async start(): Promise<WsTestServer> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    return new WsTestServer(wss);
  }

  /** `ws://127.0.0.1:PORT` + path. */
  url(path = '/api/3/ws/public'): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}${path}`;
  }

  /** Replies `{jsonrpc, result, id}`. */
  reply(client: TestClient, id: unknown, result: unknown): void {
    this.send(client, { jsonrpc: '2.0', result, id });
  }

  /** Replies `{jsonrpc, error: {code, message, description}, id}`. */
  replyError(client: TestClient, id: unknown, code: number, message: string, description = ''): void {
    this.send(client, { jsonrpc: '2.0', error: { code, message, description }, id });
  }

  /** Sends one JSON frame. */
  send(client: TestClient, frame: unknown): void {
    this.sendRaw(client, JSON.stringify(frame));
  }

  /** Sends a raw text frame (for malformed input). */
  sendRaw(client: TestClient, text: string): void {
    if (client.socket.readyState === WebSocket.OPEN) client.socket.send(text);
  }

  /** Terminates every open connection (a network failure, as far as the client can tell). */
  dropAll(): void {
    for (const client of [...this.clients]) client.socket.terminate();
  }

  /** Resolves with the next connection (or the current one when `existing` and one is open). */
  nextConnection(existing = false): Promise<TestClient> {
    const current = this.clients[this.clients.length - 1];
    if (existing && current !== undefined) return Promise.resolve(current);
    return this.waitFor((event) => (event.kind === 'connection' ? event.client : undefined));
  }

  /** Resolves with the next message matching `method` (any message when omitted). */
  nextMessage(method?: string): Promise<{ client: TestClient; message: Record<string, unknown> }> {
    return this.waitFor((event) =>
      event.kind === 'message' && (method === undefined || event.message.method === method)
        ? { client: event.client, message: event.message }
        : undefined,
    );
  }

  /** Stops the server and terminates every connection. */
  async stop(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private waitFor<T>(match: (event: ServerEvent) => T | undefined): Promise<T> {
    return new Promise<T>((resolve) => {
      const waiter: Waiter<unknown> = {
        accept: (event) => {
          const value = match(event as ServerEvent);
          if (value === undefined) return false;
          resolve(value);
          return true;
        },
      };
      this.waiters.push(waiter);
    });
  }

  private notify(event: ServerEvent): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.accept(event)) this.waiters.splice(this.waiters.indexOf(waiter), 1);
    }
  }
}

type ServerEvent =
  | { readonly kind: 'connection'; readonly client: TestClient }
  | { readonly kind: 'message'; readonly client: TestClient; readonly message: Record<string, unknown> };

/** The first value of `source` matching `predicate`, or a rejection after `ms` (keeps failing tests fast). */
export function nextValue<T>(source: Observable<T>, predicate: (value: T) => boolean = () => true, ms = 3_000): Promise<T> {
  return firstValueFrom(source.pipe(filter(predicate), timeout(ms)));
}

/** Polls `condition` every 5 ms until it holds, or throws after `ms`. */
export async function until(condition: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
