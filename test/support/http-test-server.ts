import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server received it. */
export interface ReceivedRequest {
  readonly method: string;
  /** The request-target exactly as sent: path and query. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Which TCP connection carried it (1-based, in order of connection). */
  readonly connection: number;
}

/** Answers one request; may leave `res` unanswered or destroy the socket to simulate failures. */
export type TestHandler = (req: ReceivedRequest, res: ServerResponse, raw: IncomingMessage) => void;

/** A loopback HTTP server on 127.0.0.1 and an ephemeral port. */
export interface HttpTestServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Handlers used in order, one per request; the last one repeats. */
  handle(...handlers: TestHandler[]): void;
  close(): Promise<void>;
}

/** Sends a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Starts a server; close it in afterEach. */
export async function startHttpTestServer(): Promise<HttpTestServer> {
  const requests: ReceivedRequest[] = [];
  let handlers: TestHandler[] = [(_req, res) => sendJson(res, 404, { error: { code: 800, message: 'Resource not found' } })];
  let served = 0;
  const sockets = new Set<Socket>();
  const connectionIds = new WeakMap<Socket, number>();
  let connections = 0;

  const server: Server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const received: ReceivedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        connection: connectionIds.get(raw.socket) ?? 0,
      };
      requests.push(received);
      const handler = handlers[Math.min(served, handlers.length - 1)];
      served += 1;
      handler?.(received, res, raw);
    });
  });
  server.keepAliveTimeout = 5000;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    connectionIds.set(socket, connections);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(...next: TestHandler[]) {
      handlers = next;
      served = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
