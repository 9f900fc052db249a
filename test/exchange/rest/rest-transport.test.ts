import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';
import { RestTransport } from '../../../framework/exchange/rest/rest-transport.js';
import type { RestTransportOptions } from '../../../framework/exchange/rest/rest-transport.js';
import type { RestEvent } from '../../../framework/exchange/rest/rest-events.js';
import type { RestRequest } from '../../../framework/exchange/rest/rest-request.js';
import { RetryPolicy } from '../../../framework/exchange/rest/retry-policy.js';
import { ConnectionStateError, ExchangeError, NetworkError, RateLimitError, TimeoutError } from '../../../framework/exchange/errors.js';
import { ParseError } from '../../../framework/model/errors.js';
import { sendJson, startHttpTestServer } from '../../support/http-test-server.js';
import type { HttpTestServer, ReceivedRequest, TestHandler } from '../../support/http-test-server.js';
import { VirtualTimers } from '../../support/virtual-timers.js';

const KEY = 'test-api-key-0001';
const SECRET = 'test-secret-key-do-not-leak';

let server: HttpTestServer;
const transports: RestTransport[] = [];

afterEach(async () => {
  for (const t of transports.splice(0)) await t.close();
  await server?.close();
});

async function setup(options: Partial<RestTransportOptions> = {}): Promise<{ transport: RestTransport; events: RestEvent[] }> {
  server = await startHttpTestServer();
  const transport = new RestTransport({
    baseUrl: server.url,
    credentials: ApiCredentials.from({ apiKey: KEY, secretKey: SECRET, scheme: 'hs256', window: 5000 }),
    timeouts: { connectMs: 500, headersMs: 300, bodyMs: 300, overallMs: 1000 },
    retryPolicy: new RetryPolicy({ maxAttempts: 3, baseDelayMs: 2, maxDelayMs: 10, random: () => 0.5 }),
    ...options,
  });
  transports.push(transport);
  const events: RestEvent[] = [];
  transport.events$.subscribe((e) => events.push(e));
  return { transport, events };
}

/** Verifies an HS256 header from what the server received, independently of the signer. */
function hs256Valid(req: ReceivedRequest): boolean {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('HS256 ')) return false;
  const [key, signature, timestamp, window] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
  const message = `${req.method}${req.url}${req.body}${timestamp}${window ?? ''}`;
  const expected = createHmac('sha256', SECRET).update(message, 'utf8').digest('hex');
  return key === KEY && signature === expected && Math.abs(Number(timestamp) - Date.now()) <= Number(window ?? 10_000);
}

const verifying: TestHandler = (req, res) =>
  hs256Valid(req) ? sendJson(res, 200, { ok: true, url: req.url }) : sendJson(res, 401, { error: { code: 1002, message: 'Authorization failed' } });
const ok = (body: unknown = { ok: true }): TestHandler => (_req, res) => sendJson(res, 200, body);
const status = (code: number, body: unknown, headers: Record<string, string> = {}): TestHandler => (_req, res) => sendJson(res, code, body, headers);
const neverAnswer: TestHandler = () => undefined;
const dropConnection: TestHandler = (_req, _res, raw) => raw.socket.destroy();

function req<T = unknown>(overrides: Partial<RestRequest<T>> = {}): RestRequest<T> {
  return { method: 'GET', path: '/spot/balance', auth: true, scope: 'other', idempotent: true, parse: (b) => b as T, ...overrides };
}
const placeOrder = (overrides: Partial<RestRequest<unknown>> = {}): RestRequest<unknown> =>
  req({ method: 'POST', path: '/spot/order', scope: 'trading', idempotent: false, body: { symbol: 'ETHBTC', side: 'buy', quantity: '0.063', price: null }, ...overrides });

describe('RestTransport: building and signing', () => {
  it('signs a GET with a query (HS256) over exactly what was sent', async () => {
    const { transport } = await setup();
    server.handle(verifying);
    const result = await transport.execute(req({
      path: '/spot/history/order',
      query: { symbols: ['ETHBTC', 'BTCUSDT'], limit: 5, desc: false, till: undefined, from: null, note: 'a b&c' },
    }));
    expect(result).toEqual({ ok: true, url: '/api/3/spot/history/order?desc=false&limit=5&note=a%20b%26c&symbols=ETHBTC,BTCUSDT' });
  });

  it('signs a POST with a JSON body (HS256) and sends it as application/json', async () => {
    const { transport } = await setup();
    server.handle(verifying);
    await expect(transport.execute(placeOrder({ query: { strict: true } }))).resolves.toMatchObject({ ok: true });
    const [sent] = server.requests;
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual({ symbol: 'ETHBTC', side: 'buy', quantity: '0.063' });
  });

  it('sends Basic credentials, and no Authorization on public requests', async () => {
    const { transport } = await setup({ credentials: ApiCredentials.from({ apiKey: KEY, secretKey: SECRET, scheme: 'basic' }) });
    server.handle(ok());
    await transport.execute(req());
    await transport.execute(req({ path: '/public/symbol', auth: false, scope: 'public' }));
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`);
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });

  it('keeps a base URL prefix in the request line', async () => {
    server = await startHttpTestServer();
    const transport = new RestTransport({ baseUrl: `${server.url}/exchange/` });
    transports.push(transport);
    server.handle(ok());
    await transport.execute(req({ auth: false, scope: 'public', path: '/public/ticker' }));
    expect(server.requests[0]?.url).toBe('/exchange/api/3/public/ticker');
  });

  it('reuses one keep-alive socket for sequential requests', async () => {
    const { transport } = await setup({ connections: 1 });
    server.handle(ok());
    for (let i = 0; i < 5; i++) await transport.execute(req());
    expect(server.requests.map((r) => r.connection)).toEqual([1, 1, 1, 1, 1]);
    for (const r of server.requests) expect([undefined, 'keep-alive']).toContain(r.headers.connection);
  });

  it('never opens more sockets than the pool size', async () => {
    const { transport } = await setup({ connections: 2 });
    server.handle(ok());
    await Promise.all(Array.from({ length: 12 }, () => transport.execute(req({ scope: 'trading' }))));
    for (let i = 0; i < 6; i++) await transport.execute(req({ scope: 'trading' }));
    expect(server.requests).toHaveLength(18);
    expect(new Set(server.requests.map((r) => r.connection)).size).toBeLessThanOrEqual(2);
  });

  it('reports what it does without keys, secrets or signatures', async () => {
    const { transport, events } = await setup();
    server.handle(status(500, { error: { code: 500, message: 'Internal' } }), verifying);
    await transport.execute(req({ query: { symbol: 'ETHBTC' } }));
    expect(events.map((e) => e.kind)).toEqual(['request-sent', 'response', 'retry-scheduled', 'request-sent', 'response']);
    const text = JSON.stringify(events);
    const signatures = server.requests.map((r) => Buffer.from((r.headers.authorization ?? '').slice(6), 'base64').toString().split(':')[1] ?? '');
    for (const secret of [KEY, SECRET, ...signatures]) expect(text).not.toContain(secret);
  });
});

describe('RestTransport: limiter and lifecycle', () => {
  it('holds requests back to the budget and reports the wait', async () => {
    const timers = new VirtualTimers();
    const { transport, events } = await setup({ clock: timers.clock, timers, limits: { other: { requests: 1, perMs: 1000 } } });
    server.handle(ok());
    await transport.execute(req());
    const second = transport.execute(req());
    await timers.advanceBy(999);
    expect(server.requests).toHaveLength(1);
    await timers.advanceBy(1);
    await second;
    expect(server.requests).toHaveLength(2);
    expect(events.filter((e) => e.kind === 'rate-limit-wait')).toEqual([expect.objectContaining({ waitedMs: 1000, attempt: 1 })]);
  });

  it('reports no wait for a request the budget lets through at once, however the clock moves meanwhile', async () => {
    // A clock a millisecond further at every reading: timing the limiter's answer would see a wait.
    let time = Date.now();
    const { transport, events } = await setup({ clock: { now: () => time++ } });
    server.handle(ok());
    for (let i = 0; i < 3; i++) await transport.execute(req());
    expect(server.requests).toHaveLength(3);
    expect(events.filter((e) => e.kind === 'rate-limit-wait')).toEqual([]);
  });

  it('refuses work after close', async () => {
    const { transport } = await setup();
    await transport.close();
    await expect(transport.execute(req())).rejects.toBeInstanceOf(ConnectionStateError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('RestTransport: error mapping', () => {
  it('maps a 400 envelope to a final ExchangeError', async () => {
    const { transport } = await setup();
    server.handle(status(400, { error: { code: 2022, message: 'Bad price', description: 'Price must be a multiple of tick' } }));
    const error = await transport.execute(placeOrder({ clientOrderId: 'c-1' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({
      exchangeCode: 2022, exchangeMessage: 'Bad price', description: 'Price must be a multiple of tick', httpStatus: 400, retryable: false,
    });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [401, 1002, 'Authorization is required or has been failed'],
    [403, 1003, 'Action is forbidden for this API key'],
  ])('maps %i to a final ExchangeError %i', async (http, code, message) => {
    const { transport } = await setup();
    server.handle(status(http, { error: { code, message } }));
    await expect(transport.execute(req())).rejects.toMatchObject({ exchangeCode: code, httpStatus: http, retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('maps an envelope-less or non-JSON error to the HTTP status', async () => {
    const { transport } = await setup({ retryPolicy: new RetryPolicy({ maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 }) });
    server.handle((_r, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    await expect(transport.execute(req())).rejects.toMatchObject({ exchangeCode: 502, httpStatus: 502, retryable: true });
    expect(server.requests).toHaveLength(2);
  });

  it('turns a malformed JSON answer into a final ParseError', async () => {
    const { transport } = await setup();
    server.handle((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": 12,');
    });
    await expect(transport.execute(req())).rejects.toBeInstanceOf(ParseError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('RestTransport: retries', () => {
  // undici's own header timer runs on a coarse clock; the overall limit is exact and ends the attempt first.
  const fastTimeout = { connectMs: 500, headersMs: 5000, bodyMs: 5000, overallMs: 150 };

  it('after a 429 pauses the scope for Retry-After, then retries once', async () => {
    const timers = new VirtualTimers();
    const { transport, events } = await setup({ clock: timers.clock, timers });
    let retriedAt: number | undefined;
    server.handle(
      status(429, { error: { code: 429, message: 'Too many requests' } }, { 'retry-after': '1' }),
      (r, res) => {
        retriedAt = timers.clock.now();
        ok({ n: 2 })(r, res, undefined as never);
      },
    );
    const pending = transport.execute(req({ scope: 'public', auth: false }));
    const limited = await firstValueFrom(transport.events$.pipe(filter((e) => e.kind === 'rate-limited')));
    expect(limited).toMatchObject({ pauseMs: 1000, retryAfterMs: 1000 });
    expect(transport.rateLimiter.readyAt('public')).toBe(1000);
    expect(server.requests).toHaveLength(1);
    await timers.advanceBy(1000);
    await expect(pending).resolves.toEqual({ n: 2 });
    expect(retriedAt).toBe(1000);
    expect(server.requests).toHaveLength(2);
    expect(events.filter((e) => e.kind === 'retry-scheduled')).toEqual([expect.objectContaining({ reason: 'EXCHANGE_429', delayMs: 1000 })]);
  });

  it('surfaces a 429 as RateLimitError once attempts run out', async () => {
    const timers = new VirtualTimers();
    const { transport } = await setup({ clock: timers.clock, timers, retryPolicy: new RetryPolicy({ maxAttempts: 1 }) });
    server.handle(status(429, { error: { code: 429, message: 'Too many requests' } }, { 'retry-after': '2' }));
    const error = await transport.execute(req()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(2000);
  });

  it('retries a GET after a 500', async () => {
    const { transport } = await setup();
    server.handle(status(500, { error: { code: 500, message: 'Internal server error' } }), ok({ n: 2 }));
    await expect(transport.execute(req())).resolves.toEqual({ n: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a POST without client order id after a 500 (the server answered)', async () => {
    const { transport, events } = await setup();
    server.handle(status(500, { error: { code: 500, message: 'Internal server error' } }), ok());
    const error = await transport.execute(placeOrder()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({ httpStatus: 500, retryable: true });
    expect((error as { outcomeUnknown?: boolean }).outcomeUnknown ?? false).toBe(false);
    expect(server.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ kind: 'request-failed', errorCode: 'EXCHANGE_500', outcomeUnknown: false });
  });

  it('retries an order with client id after a timeout, and a duplicate-id answer returns the looked-up order', async () => {
    const { transport, events } = await setup({ timeouts: fastTimeout });
    server.handle(neverAnswer, status(400, { error: { code: 20008, message: 'Duplicate clientOrderId' } }));
    let lookups = 0;
    const result = await transport.execute(placeOrder({
      clientOrderId: 'my-order-1',
      body: { symbol: 'ETHBTC', side: 'buy', quantity: '0.063', client_order_id: 'my-order-1' },
      lookupAfterDuplicate: async () => {
        lookups += 1;
        return { id: 42, client_order_id: 'my-order-1' };
      },
    }));
    expect(result).toEqual({ id: 42, client_order_id: 'my-order-1' });
    expect(lookups).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
    expect(events.map((e) => e.kind)).toContain('duplicate-resolved');
    expect(events.find((e) => e.kind === 'retry-scheduled')).toMatchObject({ reason: 'TIMEOUT' });
  });

  it('reports a duplicate id on the first attempt as the rejection it is', async () => {
    const { transport } = await setup();
    server.handle(status(400, { error: { code: 20008, message: 'Duplicate clientOrderId' } }));
    let lookups = 0;
    const lookupAfterDuplicate = async () => ++lookups;
    await expect(transport.execute(placeOrder({ clientOrderId: 'c', lookupAfterDuplicate }))).rejects.toMatchObject({ exchangeCode: 20008 });
    expect(lookups).toBe(0);
  });

  it('does not retry a POST without client order id after a timeout: TimeoutError with outcomeUnknown', async () => {
    const { transport } = await setup({ timeouts: fastTimeout });
    server.handle(neverAnswer, ok());
    const error = await transport.execute(placeOrder()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a GET whose connection is destroyed mid-request', async () => {
    const { transport } = await setup();
    server.handle(dropConnection, ok({ n: 2 }));
    await expect(transport.execute(req())).resolves.toEqual({ n: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a POST without client id whose connection dropped mid-answer: NetworkError with outcomeUnknown', async () => {
    const { transport } = await setup();
    server.handle((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id":', () => res.socket?.destroy());
    }, ok());
    const error = await transport.execute(placeOrder()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).outcomeUnknown).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a refused connection as NetworkError with a known outcome', async () => {
    const closed = await startHttpTestServer();
    const url = closed.url;
    await closed.close();
    server = await startHttpTestServer();
    const transport = new RestTransport({ baseUrl: url, retryPolicy: new RetryPolicy({ maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 }) });
    transports.push(transport);
    const events: RestEvent[] = [];
    transport.events$.subscribe((e) => events.push(e));
    const error = await transport.execute(placeOrder({ auth: false })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).outcomeUnknown).toBe(false);
    // Nothing was sent, so even a POST without client id was tried twice.
    expect(events.filter((e) => e.kind === 'request-sent')).toHaveLength(2);
  });
});
