import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../../framework/model/stream/market-events.js';
import type { BookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import { ExchangeError } from '../../../framework/exchange/errors.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { PublicSession } from '../../../framework/exchange/ws/public-session.js';
import type { RpcNotification } from '../../../framework/exchange/ws/rpc-connection.js';
import type { Resubscription, SessionEvent } from '../../../framework/exchange/ws/session-event.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { until, WsTestServer, type TestClient } from '../../support/ws-test-server.js';

let server: WsTestServer;
let session: PublicSession;
/** What the fake exchange believes each connection is subscribed to. */
let subscribed: Map<TestClient, Map<string, Set<string>>>;

function fakeExchange(message: Record<string, unknown>, client: TestClient): void {
  const ch = String(message.ch);
  const symbols = ((message.params as { symbols?: string[] } | undefined)?.symbols ?? []);
  const perClient = subscribed.get(client) ?? new Map<string, Set<string>>();
  subscribed.set(client, perClient);
  const current = perClient.get(ch) ?? new Set<string>();
  perClient.set(ch, current);
  if (symbols.includes('NOPE')) {
    server.replyError(client, message.id, 2001, 'Symbol not found', 'Try get /api/3/public/symbol');
    return;
  }
  if (message.method === 'subscribe') for (const s of symbols) current.add(s);
  if (message.method === 'unsubscribe') for (const s of symbols) current.delete(s);
  server.reply(client, message.id, { ch, subscriptions: [...current] });
}

beforeEach(async () => {
  server = await WsTestServer.start();
  subscribed = new Map();
  server.handler = fakeExchange;
  session = PublicSession.create({
    url: server.url('/api/3/ws/public'),
    clock: new VirtualClock(7),
    pingIntervalMs: 0,
    backoff: { initialMs: 10, maxMs: 40, factor: 2 },
    random: () => 0.5,
    requestTimeoutMs: 1_000,
  });
});

afterEach(async () => {
  await session.close();
  await server.stop();
});

describe('PublicSession', () => {
  it('subscribes with {method, ch, params, id} and resolves with the acknowledged symbols', async () => {
    await session.connect();
    await expect(session.subscribe('trades', ['BTCUSDT'], { limit: 10 })).resolves.toEqual(['BTCUSDT']);
    await expect(session.subscribe('trades', ['ETHBTC'])).resolves.toEqual(['BTCUSDT', 'ETHBTC']);
    expect(server.clients[0]!.received[0]).toEqual({ method: 'subscribe', ch: 'trades', params: { symbols: ['BTCUSDT'], limit: 10 }, id: 1 });
    await expect(session.unsubscribe('trades', ['BTCUSDT'])).resolves.toEqual(['ETHBTC']);
    await expect(session.subscriptions('trades')).resolves.toEqual(['ETHBTC']);
    expect(session.desiredSymbols('trades')).toEqual(['ETHBTC']);
  });

  it('rejects bad channels and params before sending anything', async () => {
    await session.connect();
    await expect(session.subscribe('orderbook/D7/100ms', ['BTCUSDT'])).rejects.toBeInstanceOf(ValidationError);
    await expect(session.subscribe('candles/M1', ['BTCUSDT'], { limit: -1 })).rejects.toThrow(/params.limit/);
    expect(server.clients[0]?.received ?? []).toEqual([]);
  });

  it('rejects 2001 Symbol not found with an ExchangeError and forgets the symbol', async () => {
    await session.connect();
    const error = await session.subscribe('orderbook/full', ['NOPE']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({ exchangeCode: 2001 });
    expect(session.desiredSymbols('orderbook/full')).toEqual([]);
  });

  it('carries out subscriptions asked for before connecting', async () => {
    const pending = session.subscribe('ticker/1s', ['*']);
    await session.connect();
    await expect(pending).resolves.toEqual(['*']);
    expect(server.clients[0]!.received.filter((m) => m.method === 'subscribe')).toHaveLength(1);
  });

  it('resubscribes every remembered channel after a drop and announces it', async () => {
    await session.connect();
    await session.subscribe('orderbook/full', ['BTCUSDT', 'ETHBTC']);
    await session.subscribe('candles/M1', ['BTCUSDT'], { limit: 5 });
    const restored: Resubscription[] = [];
    session.resubscribed$.subscribe((r) => restored.push(r));
    server.dropAll();
    await until(() => restored.length === 2);
    const second = server.clients[0]!;
    expect(server.connections).toBe(2);
    expect(subscribed.get(second)?.get('orderbook/full')).toEqual(new Set(['BTCUSDT', 'ETHBTC']));
    expect(second.received.find((m) => m.ch === 'candles/M1')).toMatchObject({ params: { symbols: ['BTCUSDT'], limit: 5 } });
    expect(restored.map((r) => r.ch).sort()).toEqual(['candles/M1', 'orderbook/full']);
    expect(restored[0]!.at).toBe(7);
  });

  it('resync unsubscribes and subscribes again for a fresh snapshot', async () => {
    await session.connect();
    await session.subscribe('orderbook/full', ['BTCUSDT']);
    await session.resync('orderbook/full', ['BTCUSDT']);
    const methods = server.clients[0]!.received.map((m) => m.method);
    expect(methods).toEqual(['subscribe', 'unsubscribe', 'subscribe']);
    expect(session.desiredSymbols('orderbook/full')).toEqual(['BTCUSDT']);
  });

  it('delivers raw notifications per channel and typed book frames; a bad frame is reported and skipped', async () => {
    await session.connect();
    const raw: RpcNotification[] = [];
    const trades: RpcNotification[] = [];
    const books: BookFrame[] = [];
    const events: SessionEvent[] = [];
    session.notifications$.subscribe((n) => raw.push(n));
    session.channel$('trades').subscribe((n) => trades.push(n));
    session.orderBookFrames$.subscribe((f) => books.push(f));
    session.events$.subscribe((e) => events.push(e));
    const client = server.clients[0]!;
    server.send(client, { ch: 'orderbook/full', snapshot: { BTCUSDT: { t: 1, s: 10, a: [['100.5', '1']], b: [['100.0', '2']] } } });
    server.send(client, { ch: 'orderbook/full', update: { BTCUSDT: { t: 2, s: 'x', a: [], b: [] } } });
    server.send(client, { ch: 'trades', update: { BTCUSDT: [{ t: 3, i: 1, p: '100.2', q: '0.1', s: 'buy' }] } });
    server.send(client, { ch: 'orderbook/full', update: { BTCUSDT: { t: 4, s: 11, a: [['100.5', '0']], b: [] } } });
    await until(() => raw.length === 4);
    expect(trades).toHaveLength(1);
    expect(books.map((b) => [b.symbol, b.sequence, b.snapshot, b.receivedAt])).toEqual([['BTCUSDT', 10, true, 7], ['BTCUSDT', 11, false, 7]]);
    expect(events.filter((e) => e.kind === 'parse-error')).toHaveLength(1);
  });

  it('types trades, tickers and partial books as market events; a malformed one is reported and skipped', async () => {
    await session.connect();
    const market: MarketEvent[] = [];
    const events: SessionEvent[] = [];
    session.marketEvents$.subscribe((e) => market.push(e));
    session.events$.subscribe((e) => events.push(e));
    const client = server.clients[0]!;
    server.send(client, { ch: 'trades', snapshot: { BTCUSDT: [{ t: 3, i: 1, p: '100.2', q: '0.1', s: 'buy' }] } });
    server.send(client, { ch: 'trades', update: { BTCUSDT: [{ t: 4, i: 2, p: 'abc', q: '0.1', s: 'buy' }] } });
    server.send(client, { ch: 'orderbook/D5/100ms/batch', data: {
      BTCUSDT: { t: 5, s: 1, a: [['101', '1']], b: [['99', '2']] },
      ETHBTC: { t: 6, s: 1, a: [['0.05', '1']], b: [['0.04', '2']] },
    } });
    server.send(client, { ch: 'orderbook/full', update: { BTCUSDT: { t: 2, s: 3, a: [], b: [] } } });
    await until(() => market.length === 3);
    expect(market.map((e) => [e.kind, e.symbol, e.snapshot, e.receivedAt])).toEqual([
      ['trades', 'BTCUSDT', true, 7], ['partialBook', 'BTCUSDT', false, 7], ['partialBook', 'ETHBTC', false, 7],
    ]);
    const parseErrors = events.filter((e) => e.kind === 'parse-error');
    expect(parseErrors).toHaveLength(1);
    expect(parseErrors[0]).toMatchObject({ ch: 'trades' });
  });

  it('close() fails pending calls and completes the streams', async () => {
    await session.connect();
    server.handler = () => undefined;
    const pending = session.subscribe('trades', ['BTCUSDT']).catch((e: unknown) => e);
    await server.nextMessage('subscribe');
    let completed = false;
    session.orderBookFrames$.subscribe({ complete: () => { completed = true; } });
    await session.close();
    expect(await pending).toMatchObject({ outcomeUnknown: true });
    expect(completed).toBe(true);
  });
});
