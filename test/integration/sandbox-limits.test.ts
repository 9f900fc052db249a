import { request, Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import type { SandboxRateLimits } from '../../backtest/sandbox/sandbox-config.js';
import { eventually, PushedMarket, startSandbox } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
const closers: Array<() => void> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await server?.close();
  server = undefined;
});

/** A sandbox whose clock stands still: every request falls in the same one-second window. */
async function frozenSandbox(rateLimits: Partial<SandboxRateLimits>): Promise<SandboxServer> {
  ({ server } = await startSandbox({ rateLimits, now: () => PushedMarket.START }));
  return server;
}

interface Reply { id?: number; result?: unknown; error?: { code: number; message: string; description: string } }

/** An open raw `ws` client of `path` collecting its frames. */
async function connect(s: SandboxServer, path: string): Promise<{ ws: WebSocket; frames: Reply[] }> {
  const ws = new WebSocket(`${s.wsBaseUrl}${path}`);
  closers.push(() => ws.terminate());
  const frames: Reply[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as Reply));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, frames };
}

async function loggedIn(s: SandboxServer): Promise<{ ws: WebSocket; frames: Reply[] }> {
  const client = await connect(s, '/api/3/ws/trading');
  const key = s.apiKeys[0]!;
  client.ws.send(JSON.stringify({ method: 'login', params: { type: 'BASIC', api_key: key.apiKey, secret_key: key.secretKey }, id: 0 }));
  await eventually(() => client.frames.length === 1);
  expect(client.frames.shift()).toEqual({ jsonrpc: '2.0', result: true, id: 0 });
  return client;
}

const TOO_MANY = { code: 429, message: 'Too many requests', description: expect.any(String) };

function replies(frames: readonly Reply[], from: number, to: number): Reply[] {
  return frames.filter((f) => f.id !== undefined && f.id >= from && f.id <= to);
}

describe('sandbox streams: the documented request budgets', () => {
  it('trading stream: orders beyond the trading budget get 429 in the error envelope, with their id', async () => {
    const s = await frozenSandbox({ tradingPerSecond: 5 });
    const { ws, frames } = await loggedIn(s);
    for (let id = 1; id <= 40; id++) {
      ws.send(JSON.stringify({ method: 'spot_new_order', params: { client_order_id: `o${id}`, symbol: 'BTCUSDT', side: 'buy', quantity: '0.01', price: '50' }, id }));
    }
    await eventually(() => replies(frames, 1, 40).length === 40);
    const answers = replies(frames, 1, 40);
    expect(answers.filter((f) => f.result !== undefined).map((f) => f.id)).toEqual([1, 2, 3, 4, 5]);
    const refused = answers.filter((f) => f.error !== undefined);
    expect(refused).toHaveLength(35);
    for (const f of refused) expect(f).toEqual({ jsonrpc: '2.0', error: TOO_MANY, id: f.id });
  });

  it('trading stream: other methods spend the other budget, apart from the trading one', async () => {
    const s = await frozenSandbox({ tradingPerSecond: 2, otherPerSecond: 3 });
    const { ws, frames } = await loggedIn(s);
    for (let id = 1; id <= 10; id++) ws.send(JSON.stringify({ method: id % 2 === 0 ? 'spot_subscribe' : 'spot_unsubscribe', params: {}, id }));
    ws.send(JSON.stringify({ method: 'spot_cancel_orders', params: {}, id: 11 }));
    await eventually(() => replies(frames, 1, 11).length === 11);
    const answers = replies(frames, 1, 11);
    expect(answers.filter((f) => f.error?.code === 429).map((f) => f.id)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(answers.find((f) => f.id === 11)?.result).toEqual([]);
  });

  it('one trading budget per key, whether orders come over the stream or REST', async () => {
    const s = await frozenSandbox({ tradingPerSecond: 2 });
    const { ws, frames } = await loggedIn(s);
    for (let id = 1; id <= 2; id++) ws.send(JSON.stringify({ method: 'spot_cancel_orders', params: {}, id }));
    await eventually(() => replies(frames, 1, 2).length === 2);
    const key = s.apiKeys[0]!;
    const res = await fetch(`${s.baseUrl}/api/3/spot/order`, {
      method: 'DELETE', headers: { authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}` }, signal: AbortSignal.timeout(5000),
    });
    expect([res.status, ((await res.json()) as Reply).error?.code]).toEqual([429, 429]);
  });

  it('public stream: subscribe and unsubscribe bursts beyond the public budget get 429', async () => {
    const s = await frozenSandbox({ publicPerSecond: 4 });
    const { ws, frames } = await connect(s, '/api/3/ws/public');
    for (let id = 1; id <= 12; id++) {
      ws.send(JSON.stringify({ method: id % 2 === 0 ? 'unsubscribe' : 'subscribe', ch: 'trades', params: { symbols: ['BTCUSDT'] }, id }));
    }
    await eventually(() => replies(frames, 1, 12).length === 12);
    const answers = replies(frames, 1, 12);
    expect(answers.filter((f) => f.result !== undefined).map((f) => f.id)).toEqual([1, 2, 3, 4]);
    for (const f of answers.slice(4)) expect(f).toEqual({ jsonrpc: '2.0', error: TOO_MANY, id: f.id });
  });
});

describe('sandbox streams: one answer to an unknown method', () => {
  it('public and trading streams both answer 10001 Validation error', async () => {
    ({ server } = await startSandbox());
    const pub = await connect(server, '/api/3/ws/public');
    const trading = await loggedIn(server);
    pub.ws.send(JSON.stringify({ method: 'no_such_method', ch: 'trades', params: {}, id: 7 }));
    trading.ws.send(JSON.stringify({ method: 'no_such_method', params: {}, id: 7 }));
    await eventually(() => pub.frames.length === 1 && trading.frames.length === 1);
    const expected = { jsonrpc: '2.0', error: { code: 10001, message: 'Validation error', description: expect.stringContaining('no_such_method') }, id: 7 };
    expect(pub.frames[0]).toEqual(expected);
    expect(trading.frames[0]).toEqual(expected);
  });
});

describe('sandbox REST: an oversized body', () => {
  it('is answered 400 with the 10001 envelope, and the connection serves the next request', async () => {
    ({ server } = await startSandbox());
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    closers.push(() => agent.destroy());
    const call = (method: string, path: string, body?: Buffer) => new Promise<{ status: number; body: Reply; reused: boolean }>((resolve, reject) => {
      const req = request(`${server!.baseUrl}${path}`, { method, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as Reply, reused: req.reusedSocket }));
      });
      req.on('error', reject);
      req.end(body);
    });
    const first = await call('GET', '/api/3/public/symbol');
    expect(first.status).toBe(200);
    const big = await call('POST', '/api/3/spot/order', Buffer.alloc(3 << 20, 0x20));
    expect([big.status, big.body]).toEqual([400, { error: { code: 10001, message: 'Validation error', description: expect.stringContaining('body larger than') } }]);
    expect(big.reused).toBe(true);
    const after = await call('GET', '/api/3/public/symbol');
    expect([after.status, after.reused]).toEqual([200, true]);
  });
});
