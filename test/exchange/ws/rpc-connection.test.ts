import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionStateError, ExchangeError } from '../../../framework/exchange/errors.js';
import { ParseError } from '../../../framework/model/errors.js';
import { ReconnectingSocket } from '../../../framework/exchange/ws/reconnecting-socket.js';
import { RpcConnection, type RpcEvent, type RpcNotification } from '../../../framework/exchange/ws/rpc-connection.js';
import { ConnectionLostError, RequestTimeoutError, SessionClosedError } from '../../../framework/exchange/ws/rpc-errors.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { until, WsTestServer } from '../../support/ws-test-server.js';

let server: WsTestServer;
let rpc: RpcConnection;

beforeEach(async () => {
  server = await WsTestServer.start();
  const socket = new ReconnectingSocket({
    url: server.url(),
    clock: new VirtualClock(42),
    pingIntervalMs: 0,
    backoff: { initialMs: 10, maxMs: 50, factor: 2 },
    random: () => 0.5,
  });
  rpc = new RpcConnection(socket, { requestTimeoutMs: 1_000 });
  socket.start();
  await socket.whenOpen(2_000);
});

afterEach(async () => {
  await rpc.close();
  await server.stop();
});

describe('RpcConnection', () => {
  it('sends {method, ch, params, id} with increasing ids and resolves with the parsed result', async () => {
    server.handler = (message, client) => server.reply(client, message.id, { echo: message.params, ch: message.ch });
    const first = await rpc.request('subscribe', { symbols: ['BTCUSDT'] }, { ch: 'trades' });
    const second = await rpc.request('spot_balances', undefined, { parse: (r) => ({ wrapped: r }) });
    expect(first).toEqual({ echo: { symbols: ['BTCUSDT'] }, ch: 'trades' });
    expect(second).toEqual({ wrapped: { ch: undefined } });
    const [a, b] = server.clients[0]!.received;
    expect(a).toEqual({ method: 'subscribe', ch: 'trades', params: { symbols: ['BTCUSDT'] }, id: 1 });
    expect(b).toEqual({ method: 'spot_balances', id: 2 });
  });

  it('matches replies by id even out of order and with string ids', async () => {
    const held: Array<{ id: unknown; method: unknown }> = [];
    server.handler = (message, client) => {
      held.push({ id: message.id, method: message.method });
      if (held.length === 2) {
        server.reply(client, String(held[1]!.id), held[1]!.method);
        server.reply(client, held[0]!.id, held[0]!.method);
      }
    };
    const results = await Promise.all([rpc.request('a'), rpc.request('b')]);
    expect(results).toEqual(['a', 'b']);
  });

  it('rejects with an ExchangeError carrying the code (httpStatus 0) on an error reply', async () => {
    server.handler = (message, client) => server.replyError(client, message.id, 2001, 'Symbol not found', 'Try get /api/3/public/symbol');
    const error = await rpc.request('subscribe', { symbols: ['NOPE'] }, { ch: 'trades' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({ exchangeCode: 2001, httpStatus: 0, retryable: false, code: 'EXCHANGE_2001' });
  });

  it('rejects with the ParseError of a result that fails validation', async () => {
    const parse = (): never => { throw new ParseError('result', 'must be an array', 1); };
    await expect(rpc.request('spot_get_orders', undefined, { parse })).rejects.toBeInstanceOf(ParseError);
  });

  it('times out a request that gets no reply, flagging the outcome unknown', async () => {
    server.handler = () => undefined;
    const error = await rpc.request('spot_new_order', {}, { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ outcomeUnknown: true, retryable: true });
    expect(rpc.pendingCount).toBe(0);
  });

  it('times each request out at its own deadline, whatever order they were sent in, and leaves answered ones alone', async () => {
    const held: Array<{ id: unknown; method: unknown }> = [];
    server.handler = (message) => void held.push({ id: message.id, method: message.method });
    const outcome = (p: Promise<unknown>): Promise<string> =>
      p.then((r) => `answered ${String(r)}`, (e: unknown) => (e instanceof RequestTimeoutError ? `timed out after ${e.timeoutMs} ms` : 'other'));
    const slow = outcome(rpc.request('slow', undefined, { timeoutMs: 1_000 }));
    const answered = outcome(rpc.request('answered', undefined, { timeoutMs: 60 }));
    const fast = outcome(rpc.request('fast', undefined, { timeoutMs: 40 }));
    await until(() => held.length === 3);
    server.reply(server.clients[0]!, held[1]!.id, 'yes');
    expect(await fast).toBe('timed out after 40 ms');
    expect(await answered).toBe('answered yes');
    // The longest deadline is still watched after the shorter ones ended.
    expect(rpc.pendingCount).toBe(1);
    expect(await slow).toBe('timed out after 1000 ms');
    expect(rpc.pendingCount).toBe(0);
  });

  it('times out requests sent after earlier ones were answered, at their own deadlines, sooner or later than the answered ones', async () => {
    let answer = true;
    server.handler = (message, client) => {
      if (answer) server.reply(client, message.id, 'ok');
    };
    expect(await rpc.request('first', undefined, { timeoutMs: 40 })).toBe('ok');
    expect(await rpc.request('second', undefined, { timeoutMs: 1_000 })).toBe('ok');
    answer = false;
    // Later than the first's deadline (still watched), then sooner than the second's: neither waits forever.
    const later = rpc.request('later', undefined, { timeoutMs: 80 }).catch((e: unknown) => e);
    expect(await later).toMatchObject({ method: 'later', timeoutMs: 80 });
    const sooner = rpc.request('sooner', undefined, { timeoutMs: 20 }).catch((e: unknown) => e);
    expect(await sooner).toMatchObject({ method: 'sooner', timeoutMs: 20 });
    expect(rpc.pendingCount).toBe(0);
  });

  it('fails in-flight requests with ConnectionLostError (outcome unknown) when the connection drops', async () => {
    server.handler = () => server.dropAll();
    const error = await rpc.request('spot_new_order', { symbol: 'BTCUSDT' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionLostError);
    expect(error).toMatchObject({ outcomeUnknown: true, method: 'spot_new_order' });
    expect(String(error)).not.toContain('BTCUSDT');
  });

  it('refuses to send while not open: nothing was written, so the outcome is known', async () => {
    server.dropAll();
    await until(() => rpc.socket.state !== 'open');
    const error = await rpc.request('spot_new_order').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionStateError);
    expect(error).not.toHaveProperty('outcomeUnknown', true);
  });

  it('fails in-flight requests with SessionClosedError on close()', async () => {
    server.handler = () => undefined;
    const pending = rpc.request('spot_cancel_order').catch((e: unknown) => e);
    await server.nextMessage('spot_cancel_order');
    await rpc.close();
    const error = await pending;
    expect(error).toBeInstanceOf(SessionClosedError);
    expect(error).toMatchObject({ outcomeUnknown: true });
  });

  it('routes frames without id, or with a method, to notifications and reports stray replies', async () => {
    const notes: RpcNotification[] = [];
    const events: RpcEvent[] = [];
    rpc.notifications$.subscribe((n) => notes.push(n));
    rpc.events$.subscribe((e) => events.push(e));
    const client = server.clients[0]!;
    server.send(client, { ch: 'trades', update: { BTCUSDT: [] } });
    server.send(client, { jsonrpc: '2.0', method: 'spot_order', params: { id: 1 } });
    server.send(client, { jsonrpc: '2.0', result: true, id: 999 });
    server.send(client, { jsonrpc: '2.0', error: { code: 1002, message: 'Authorization failed' } });
    server.send(client, [1, 2]);
    await until(() => events.length === 3);
    expect(notes.map((n) => n.frame)).toEqual([
      { ch: 'trades', update: { BTCUSDT: [] } },
      { jsonrpc: '2.0', method: 'spot_order', params: { id: 1 } },
    ]);
    expect(notes[0]!.receivedAt).toBe(42);
    expect(events.map((e) => e.kind)).toEqual(['unmatched-reply', 'error-frame', 'unexpected-frame']);
  });

  it('refuses requests beyond the in-flight limit instead of queueing them', async () => {
    const small = new RpcConnection(rpc.socket, { maxPending: 2 });
    server.handler = () => undefined;
    const a = small.request('a', undefined, { timeoutMs: 50 }).catch(() => 'a');
    const b = small.request('b', undefined, { timeoutMs: 50 }).catch(() => 'b');
    await expect(small.request('c')).rejects.toThrow(/limit 2/);
    await Promise.all([a, b]);
  });
});
