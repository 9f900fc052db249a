import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { FaultOptions } from '../../backtest/sandbox/fault-injector.js';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { RecordingReader } from '../../backtest/recording/recording-reader.js';
import { OrderBookKeeper } from '../../framework/exchange/book/order-book-keeper.js';
import type { OrderBook } from '../../framework/exchange/book/order-book.js';
import { PublicSession } from '../../framework/exchange/ws/public-session.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { LiveClock } from '../../framework/time/clock.js';

const FIXTURE = new URL('../fixtures/fmfw-public-excerpt.v3.jsonl', import.meta.url).pathname;
const NO_RESYNC = { resync: { resync: async (): Promise<void> => undefined } };

/** Books rebuilt straight from the file, with no sockets: the reference the client must match. */
async function referenceBooks(): Promise<OrderBookKeeper> {
  const keeper = new OrderBookKeeper(NO_RESYNC);
  for await (const frame of new RecordingReader(FIXTURE).frames()) keeper.handleMessage(frame.msg, frame.t);
  return keeper;
}

/** The sequence number of the `n`-th `orderbook/full` update of `symbol` in the recording. */
async function nthBookUpdate(symbol: string, n: number): Promise<number> {
  let seen = 0;
  for await (const frame of new RecordingReader(FIXTURE).frames()) {
    const msg = frame.msg as { ch?: unknown; update?: Record<string, { s?: unknown }> };
    const entry = msg.ch === 'orderbook/full' ? msg.update?.[symbol] : undefined;
    if (entry && ++seen === n && typeof entry.s === 'number') return entry.s;
  }
  throw new Error(`the recording has fewer than ${n} ${symbol} updates`);
}

function fingerprint(book: OrderBook | undefined): unknown {
  if (!book) return undefined;
  const side = (s: 'bid' | 'ask') => book.topN(s, book.size(s)).map((l) => `${l.price}:${l.quantity}`);
  return { sequence: book.sequence, bids: side('bid'), asks: side('ask') };
}

describe('public stream: WebSocket client against the sandbox replaying a real capture', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  async function connect(faults: FaultOptions = {}) {
    const server = await SandboxServer.start({
      venue: simulatedVenueFactory(), market: { kind: 'recording', path: FIXTURE }, speed: Infinity, paused: true, faults,
    });
    cleanup.push(() => server.close());
    const session = PublicSession.create({ url: `${server.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock(), pingIntervalMs: 0 });
    cleanup.push(() => session.close());
    const keeper = new OrderBookKeeper({ resync: session });
    cleanup.push(() => keeper.close());
    const subscription = session.orderBookFrames$.subscribe((f) => keeper.apply(f));
    cleanup.push(() => subscription.unsubscribe());
    await session.connect();
    return { server, session, keeper };
  }

  it('rebuilds every book exactly as the recording describes it', async () => {
    const reference = await referenceBooks();
    const { server, session, keeper } = await connect();
    const symbols = reference.symbols();
    expect(symbols).toHaveLength(10);
    expect(await session.subscribe('orderbook/full', symbols)).toEqual(symbols);
    const trades: MarketEvent[] = [];
    const sub = session.marketEvents$.subscribe((e) => trades.push(e));
    cleanup.push(() => sub.unsubscribe());
    await session.subscribe('trades', symbols);
    server.play();
    await server.done;
    // Frames already written by the server may still be in flight on the socket.
    await expect.poll(() => symbols.map((s) => keeper.book(s)?.sequence), { timeout: 5_000 })
      .toEqual(symbols.map((s) => reference.book(s)?.sequence));
    for (const s of symbols) expect(fingerprint(keeper.book(s))).toEqual(fingerprint(reference.book(s)));
    expect(keeper.stats.gaps).toBe(0);
    expect(server.frameErrors).toBe(0);
    expect(trades.filter((e) => e.kind === 'trades').length).toBeGreaterThan(0);
  });

  it('detects a sequence gap on the wire, resyncs, and ends with the right book', async () => {
    const reference = await referenceBooks();
    const { server, session, keeper } = await connect({ skipBookSequences: { EOSUSDT: [await nthBookUpdate('EOSUSDT', 20)] } });
    const stale: string[] = [];
    const sub = keeper.events.subscribe((e) => {
      if (e.kind === 'stale' || e.kind === 'resynced') stale.push(`${e.kind}:${e.symbol}`);
    });
    cleanup.push(() => sub.unsubscribe());
    await session.subscribe('orderbook/full', ['EOSUSDT', 'NEOBTC']);
    server.play();
    await server.done;
    await expect.poll(() => keeper.book('EOSUSDT')?.sequence, { timeout: 5_000 }).toBe(reference.book('EOSUSDT')?.sequence);
    expect(keeper.stats.gaps).toBe(1);
    expect(stale).toEqual(['stale:EOSUSDT', 'resynced:EOSUSDT']);
    expect(fingerprint(keeper.book('EOSUSDT'))).toEqual(fingerprint(reference.book('EOSUSDT')));
    expect(fingerprint(keeper.book('NEOBTC'))).toEqual(fingerprint(reference.book('NEOBTC')));
  });

  it('answers as the real exchange: error 2003 for an unknown channel, no id key when the request had none', async () => {
    const { server } = await connect();
    const socket = new WebSocket(`${server.wsBaseUrl}/api/3/ws/public`);
    cleanup.push(() => socket.terminate());
    const replies: unknown[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ method: 'subscribe', ch: 'orderbook/nope', params: { symbols: ['EOSUSDT'] }, id: 7 }));
    socket.send(JSON.stringify({ method: 'subscribe', ch: 'trades', params: { symbols: ['EOSUSDT'] } }));
    await expect.poll(() => replies.length).toBe(2);
    expect(replies[0]).toMatchObject({ error: { code: 2003, message: 'Unknown channel' }, id: 7 });
    expect(replies[1]).toEqual({ jsonrpc: '2.0', result: { ch: 'trades', subscriptions: ['EOSUSDT'] } });
  });
});
