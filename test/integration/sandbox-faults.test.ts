import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeError, RateLimitError, TimeoutError } from '../../framework/exchange/errors.js';
import { OrderBookKeeper } from '../../framework/exchange/book/order-book-keeper.js';
import type { OrderBook } from '../../framework/exchange/book/order-book.js';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport, type RestTransportOptions } from '../../framework/exchange/rest/rest-transport.js';
import { RateLimiter } from '../../framework/exchange/rest/rate-limiter.js';
import { RetryPolicy } from '../../framework/exchange/rest/retry-policy.js';
import { PublicSession } from '../../framework/exchange/ws/public-session.js';
import type { SessionEvent } from '../../framework/exchange/ws/session-event.js';
import { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import { LiveClock } from '../../framework/time/clock.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import type { FaultOptions } from '../../backtest/sandbox/fault-injector.js';
import { bookSnapshot, eventually, startSandbox, type PushedMarket } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
const closers: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await server?.close();
  server = undefined;
});

async function start(faults: FaultOptions): Promise<{ s: SandboxServer; market: PushedMarket }> {
  const started = await startSandbox({ faults });
  server = started.server;
  return { s: started.server, market: started.market };
}

const FAST_RECONNECT = { backoff: { initialMs: 20, maxMs: 50 }, pingIntervalMs: 0 };

function tradingSession(s: SandboxServer): TradingSession {
  const key = s.apiKeys[0]!;
  const session = TradingSession.create({
    url: `${s.wsBaseUrl}/api/3/ws/trading`, clock: new LiveClock(), ...FAST_RECONNECT,
    credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }),
  });
  closers.push(() => session.close());
  return session;
}

/** Trading session subscribed to order reports; the snapshot is left out of `reports`. */
async function reportStream(s: SandboxServer): Promise<{ session: TradingSession; reports: OrderReport[] }> {
  const session = tradingSession(s);
  const reports: OrderReport[] = [];
  let snapshots = 0;
  const sub = session.orderReports$.subscribe((n) => (n.snapshot ? snapshots++ : reports.push(...n.reports)));
  closers.push(() => sub.unsubscribe());
  await session.start(3000);
  await session.spot.subscribe();
  await eventually(() => snapshots === 1);
  return { session, reports };
}

function restClient(s: SandboxServer, options: Partial<RestTransportOptions>): RestClient {
  // Injected 429s carry no Retry-After: a short backoff of the client's own keeps the tests short.
  const rateLimiter = new RateLimiter({ clock: new LiveClock(), backoff: { baseMs: 10, maxMs: 40 } });
  const transport = new RestTransport({
    baseUrl: s.baseUrl, retryPolicy: new RetryPolicy({ maxAttempts: 1 }), timeouts: { overallMs: 3000 }, rateLimiter, ...options,
  });
  closers.push(() => transport.close());
  return new RestClient(transport);
}

const failureOf = (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

/** A book update changing the best bid, sequence `s`. */
const bidUpdate = (s: number): Record<string, unknown> =>
  ({ ch: 'orderbook/full', update: { BTCUSDT: { t: 1_700_000_000_000 + s, s, a: [], b: [[`99.${String(s).padStart(2, '0')}`, '1']] } } });

function fingerprint(book: OrderBook | undefined): unknown {
  if (!book) return undefined;
  const side = (x: 'bid' | 'ask') => book.topN(x, book.size(x)).map((l) => `${l.price}:${l.quantity}`);
  return { sequence: book.sequence, bids: side('bid'), asks: side('ask') };
}

describe('sandbox faults, seeded, against the framework clients', () => {
  it('dropped connections: public and trading sessions reconnect, resubscribe and go on', async () => {
    const { s, market } = await start({ dropConnectionsEveryMs: 250 });
    market.push(bookSnapshot());
    const pub = PublicSession.create({ url: `${s.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock(), ...FAST_RECONNECT });
    closers.push(() => pub.close());
    const keeper = new OrderBookKeeper({ resync: pub });
    closers.push(() => keeper.close());
    const events: SessionEvent[] = [];
    const subs = [pub.orderBookFrames$.subscribe((f) => keeper.apply(f)), pub.events$.subscribe((e) => events.push(e))];
    closers.push(() => subs.forEach((x) => x.unsubscribe()));
    await pub.connect();
    await pub.subscribe('orderbook/full', ['BTCUSDT']);
    const { session } = await reportStream(s);
    const tradingEvents: SessionEvent[] = [];
    const sub = session.events$.subscribe((e) => tradingEvents.push(e));
    closers.push(() => sub.unsubscribe());
    await eventually(() => events.some((e) => e.kind === 'resubscribed') && tradingEvents.some((e) => e.kind === 'resubscribed'));
    expect(events.find((e) => e.kind === 'resubscribed')).toMatchObject({ ch: 'orderbook/full', symbols: ['BTCUSDT'] });
    expect(tradingEvents.filter((e) => e.kind === 'logged-in').length).toBeGreaterThanOrEqual(1);
    // After the reconnect the book is served again from a fresh snapshot and reports flow again.
    market.push(bidUpdate(2));
    await eventually(() => keeper.book('BTCUSDT')?.sequence === 2);
    expect(keeper.book('BTCUSDT')?.bestBid()?.price.toString()).toBe('99.02');
    // The trading stream is restored too: the next drop is followed by another login and resubscription.
    const logins = tradingEvents.filter((e) => e.kind === 'logged-in').length;
    await eventually(() => tradingEvents.filter((e) => e.kind === 'logged-in').length > logins);
    await eventually(() => tradingEvents.filter((e) => e.kind === 'resubscribed').length >= 2);
  });

  it('connections dropped at random (seeded, checked each second): the public session comes back with its book', async () => {
    const { s, market } = await start({ dropConnectionProbability: 1 });
    market.push(bookSnapshot());
    const pub = PublicSession.create({ url: `${s.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock(), ...FAST_RECONNECT });
    closers.push(() => pub.close());
    const keeper = new OrderBookKeeper({ resync: pub });
    closers.push(() => keeper.close());
    const events: SessionEvent[] = [];
    const subs = [pub.orderBookFrames$.subscribe((f) => keeper.apply(f)), pub.events$.subscribe((e) => events.push(e))];
    closers.push(() => subs.forEach((x) => x.unsubscribe()));
    await pub.connect();
    await pub.subscribe('orderbook/full', ['BTCUSDT']);
    await eventually(() => keeper.book('BTCUSDT')?.sequence === 1);
    await eventually(() => events.some((e) => e.kind === 'resubscribed'), 3000);
    market.push(bidUpdate(2));
    await eventually(() => keeper.book('BTCUSDT')?.sequence === 2);
    expect(keeper.book('BTCUSDT')?.bestBid()?.price.toString()).toBe('99.02');
  });

  it('a skipped book sequence number: the OrderBookKeeper sees the gap, resyncs and ends with the server book', async () => {
    const { s, market } = await start({ skipBookSequences: { BTCUSDT: [5] } });
    market.push(bookSnapshot());
    await eventually(() => s.framesServed === 1);
    const pub = PublicSession.create({ url: `${s.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock(), pingIntervalMs: 0 });
    closers.push(() => pub.close());
    const keeper = new OrderBookKeeper({ resync: pub });
    closers.push(() => keeper.close());
    const states: string[] = [];
    const subs = [
      pub.orderBookFrames$.subscribe((f) => keeper.apply(f)),
      keeper.events.subscribe((e) => (e.kind === 'stale' || e.kind === 'resynced') && states.push(`${e.kind}:${e.symbol}`)),
    ];
    closers.push(() => subs.forEach((x) => x.unsubscribe()));
    await pub.connect();
    await pub.subscribe('orderbook/full', ['BTCUSDT']);
    await eventually(() => keeper.book('BTCUSDT')?.sequence === 1);
    for (let seq = 2; seq <= 8; seq++) market.push(bidUpdate(seq));
    await eventually(() => states.length === 2);
    market.push(bidUpdate(9));
    await eventually(() => keeper.book('BTCUSDT')?.sequence === 9);
    expect(states).toEqual(['stale:BTCUSDT', 'resynced:BTCUSDT']);
    expect(keeper.stats.gaps).toBe(1);
    const reference = new OrderBookKeeper({ resync: { resync: async () => undefined } });
    closers.push(() => reference.close());
    reference.handleMessage(bookSnapshot(), 0);
    for (let seq = 2; seq <= 9; seq++) reference.handleMessage(bidUpdate(seq), seq);
    expect(fingerprint(keeper.book('BTCUSDT'))).toEqual(fingerprint(reference.book('BTCUSDT')));
  });

  it('a share of book updates skipped at random (seeded): every gap is detected and healed', async () => {
    const { s, market } = await start({ skipBookSequenceProbability: 0.2 });
    market.push(bookSnapshot());
    await eventually(() => s.framesServed === 1);
    const pub = PublicSession.create({ url: `${s.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock(), pingIntervalMs: 0 });
    closers.push(() => pub.close());
    const keeper = new OrderBookKeeper({ resync: pub });
    closers.push(() => keeper.close());
    const sub = pub.orderBookFrames$.subscribe((f) => keeper.apply(f));
    closers.push(() => sub.unsubscribe());
    await pub.connect();
    await pub.subscribe('orderbook/full', ['BTCUSDT']);
    await eventually(() => keeper.book('BTCUSDT')?.sequence === 1);
    // One update at a time: a resync answered with the current book never races an update in flight.
    for (let seq = 2; seq <= 40; seq++) {
      market.push(bidUpdate(seq));
      await eventually(() => s.framesServed === seq);
    }
    await eventually(() => keeper.book('BTCUSDT')?.sequence === 40);
    expect(keeper.stats.gaps).toBeGreaterThan(1);
    const reference = new OrderBookKeeper({ resync: { resync: async () => undefined } });
    closers.push(() => reference.close());
    reference.handleMessage(bookSnapshot(), 0);
    for (let seq = 2; seq <= 40; seq++) reference.handleMessage(bidUpdate(seq), seq);
    expect(fingerprint(keeper.book('BTCUSDT'))).toEqual(fingerprint(reference.book('BTCUSDT')));
  });

  it('order reports delayed, duplicated and reordered as configured', async () => {
    const delayed = await start({ orderReportDelayMs: 200 });
    let stream = await reportStream(delayed.s);
    const order = await stream.session.spot.newOrder({ client_order_id: 'd1', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' });
    expect([order.status, stream.reports.length]).toEqual(['new', 0]);
    await eventually(() => stream.reports.length === 1);
    for (const close of closers.splice(0).reverse()) await close();
    await delayed.s.close();

    const duplicated = await start({ duplicateReportProbability: 1 });
    stream = await reportStream(duplicated.s);
    await stream.session.spot.newOrder({ client_order_id: 'p1', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' });
    await stream.session.spot.cancelOrder('p1');
    await eventually(() => stream.reports.length === 4);
    expect(stream.reports.map((r) => r.report_type)).toEqual(['new', 'new', 'canceled', 'canceled']);
    for (const close of closers.splice(0).reverse()) await close();
    await duplicated.s.close();

    const reordered = await start({ reorderReportProbability: 1 });
    stream = await reportStream(reordered.s);
    await stream.session.spot.newOrder({ client_order_id: 'o1', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' });
    expect(stream.reports).toEqual([]);
    await stream.session.spot.cancelOrder('o1');
    await eventually(() => stream.reports.length === 2);
    // The held report goes out right after the next one: the two swap places.
    expect(stream.reports.map((r) => r.report_type)).toEqual(['canceled', 'new']);
  });

  it('429 bursts: the client sees RateLimitError on the seeded requests and a retrying client gets through', async () => {
    const { s } = await start({ burst429Every: 2, burst429Length: 2 });
    const once = restClient(s, {});
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const failure = await failureOf(once.marketData.getSymbols());
      outcomes.push(failure instanceof RateLimitError ? '429' : failure === undefined ? 'ok' : String(failure));
    }
    expect(outcomes).toEqual(['ok', 'ok', '429', '429', 'ok', 'ok']);
    const retrying = restClient(s, { retryPolicy: new RetryPolicy({ maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, random: () => 0.5 }) });
    expect(Object.keys(await retrying.marketData.getSymbols())).toContain('BTCUSDT');
  });

  it('a share of 5xx answers (seeded): the same statuses each run, nothing executed, retries recover reads', async () => {
    const statuses = async (): Promise<string[]> => {
      const { s } = await start({ serverErrorProbability: 0.5 });
      const client = restClient(s, {});
      const seen: string[] = [];
      for (let i = 0; i < 8; i++) {
        const failure = await failureOf(client.marketData.getSymbols());
        seen.push(failure instanceof ExchangeError ? String(failure.httpStatus) : failure === undefined ? 'ok' : String(failure));
      }
      for (const close of closers.splice(0).reverse()) await close();
      await s.close();
      server = undefined;
      return seen;
    };
    const first = await statuses();
    expect(first.filter((x) => x !== 'ok').length).toBeGreaterThan(0);
    expect(first.every((x) => ['ok', '500', '503', '504'].includes(x))).toBe(true);
    expect(await statuses()).toEqual(first);

    const { s } = await start({ serverErrorProbability: 0.5 });
    const key = s.apiKeys[0]!;
    const credentials = ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' });
    const retrying = restClient(s, { credentials, retryPolicy: new RetryPolicy({ maxAttempts: 8, baseDelayMs: 5, maxDelayMs: 20, random: () => 0.5 }) });
    expect((await retrying.spot.getBalances()).map((b) => b.currency).sort()).toEqual(['BTC', 'USDT']);
    const once = restClient(s, { credentials });
    // A refused order is not executed: the active orders hold only what was answered with success.
    const placed: string[] = [];
    for (let i = 0; i < 6; i++) {
      const failure = await failureOf(once.spot.createOrder({ client_order_id: `f${i}`, symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' }));
      if (failure === undefined) placed.push(`f${i}`);
    }
    expect((await retrying.spot.getActiveOrders()).map((o) => o.client_order_id).sort()).toEqual(placed.sort());
  });

  it('slow responses: a client with a shorter timeout gets TimeoutError', async () => {
    const { s } = await start({ slowResponseProbability: 1, slowResponseMs: 400 });
    const client = restClient(s, { timeouts: { overallMs: 100 } });
    const failure = await failureOf(client.marketData.getSymbols());
    expect(failure).toBeInstanceOf(TimeoutError);
    const patient = restClient(s, { timeouts: { overallMs: 3000 } });
    expect(Object.keys(await patient.marketData.getSymbols())).toContain('BTCUSDT');
  });
});
