import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { parseOrderBookFrames, type BookFrame } from '../../framework/exchange/book/order-book-frame.js';
import { OrderBookKeeper } from '../../framework/exchange/book/order-book-keeper.js';
import { PublicSession } from '../../framework/exchange/ws/public-session.js';
import type { SessionEvent } from '../../framework/exchange/ws/session-event.js';
import { LiveMarketFeed } from '../../framework/live/live-market-feed.js';
import { SILENT_LOGGER } from '../../framework/runtime/runtime-ports.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { bookInstrument } from '../exchange/book/book-instrument.js';
import { until, WsTestServer } from '../support/ws-test-server.js';

const RECEIVED_AT = 7;

const INSTRUMENTS = [bookInstrument('ETHUSDT', '0.01', '0.0001'), bookInstrument('BTCUSDT', '0.1', '0.00001')];

type Levels = [string, string][];
const book = (kind: 'snapshot' | 'update', symbol: string, s: unknown, b: Levels, a: Levels): Record<string, unknown> =>
  ({ ch: 'orderbook/full', [kind]: { [symbol]: { t: 1_723_161_254_000, s, a, b } } });
const canonical = (message: Record<string, unknown>): string => JSON.stringify(message);

/**
 * What the exchange sends, in order, and whether the live socket should decode it from its bytes:
 * canonical book messages of known symbols are decoded, everything else takes the general way.
 */
const SCRIPT: readonly (readonly [text: string, decoded: boolean])[] = [
  [canonical(book('snapshot', 'ETHUSDT', 1, [['2683.80', '1.5000'], ['2683.79', '2']], [['2683.81', '0.3000'], ['2684.00', '4']])), true],
  [canonical(book('update', 'ETHUSDT', 2, [['2683.80', '0']], [['2683.82', '1.25']])), true],
  [canonical({ ch: 'trades', update: { ETHUSDT: [{ t: 1, i: 1, p: '2683.81', q: '0.1', s: 'buy' }] } }), false],
  [JSON.stringify(book('update', 'ETHUSDT', 3, [['2683.78', '3']], []), null, 1), false],
  // Finer than the tick: the general path raises the book's price scale...
  [canonical(book('update', 'ETHUSDT', 4, [['2683.785', '1']], [])), false],
  // ...and the next decoded update, at the instrument's scale, still lands exactly.
  [canonical(book('update', 'ETHUSDT', 5, [['2683.77', '0.0001']], [['2683.81', '0']])), true],
  [canonical(book('snapshot', 'XRPUSDT', 1, [['0.5', '10']], [['0.6', '10']])), false],
  [canonical(book('update', 'ETHUSDT', 7, [['2683.70', '1']], [])), true], // a gap: stale, resync
  ['{"ch":"orderbook/full","update":{"ETHUSDT":', false], // not JSON: reported by the socket
  [canonical(book('update', 'BTCUSDT', 'x', [], [])), false], // malformed: reported by the session
  [canonical(book('snapshot', 'BTCUSDT', 10, [['60000.0', '0.5']], [['60000.1', '0.25']])), true],
  [canonical(book('update', 'BTCUSDT', 11, [['60000.2', '1']], [])), true], // crossed: stale, resync
  [canonical(book('snapshot', 'ETHUSDT', 20, [['2683.80', '1']], [['2683.81', '2']])), true],
  // A placeholder ask beyond 2^53 at the book's scale: kept exactly by the general path.
  [canonical(book('update', 'ETHUSDT', 21, [], [['99999999999999.99', '1']])), false],
  [canonical(book('update', 'ETHUSDT', 22, [['2683.79', '0.0002']], [['2683.81', '0']])), true],
];

/** The live path before the byte decoder: JSON.parse, parseOrderBookFrames, the keeper's apply. */
function referenceKeeper(events: BookEvent[]): OrderBookKeeper {
  const bySymbol = new Map(INSTRUMENTS.map((i) => [i.symbol, i]));
  const keeper = new OrderBookKeeper({ resync: { resync: async () => {} }, instrument: (symbol) => bySymbol.get(symbol), onEvent: (e) => events.push(e) });
  for (const [text] of SCRIPT) {
    let frames: BookFrame[];
    try {
      frames = parseOrderBookFrames(JSON.parse(text), RECEIVED_AT);
    } catch {
      continue;
    }
    for (const frame of frames) keeper.apply(frame);
  }
  return keeper;
}

function described(event: BookEvent): unknown[] {
  return event.kind === 'stale' ? [event.kind, event.symbol, event.reason.kind] : [event.kind, event.symbol, event.sequence];
}

let server: WsTestServer;
let feed: LiveMarketFeed;
let session: PublicSession;

beforeEach(async () => {
  server = await WsTestServer.start();
  server.handler = (message, client) => {
    const symbols = (message.params as { symbols?: string[] } | undefined)?.symbols ?? [];
    server.reply(client, message.id, { ch: message.ch, subscriptions: message.method === 'subscribe' ? symbols : [] });
  };
  session = PublicSession.create({ url: server.url(), clock: new VirtualClock(RECEIVED_AT), pingIntervalMs: 0, requestTimeoutMs: 1_000 });
  feed = new LiveMarketFeed({ session, instruments: INSTRUMENTS, logger: SILENT_LOGGER });
});

afterEach(async () => {
  await feed.close();
  await server.stop();
});

describe('LiveMarketFeed over a loopback socket', () => {
  it('decodes canonical book messages from the bytes and keeps the books the general parser would, gaps, crossings and errors included', async () => {
    const events: BookEvent[] = [];
    const forms: string[] = [];
    const sessionEvents: SessionEvent[] = [];
    feed.books$.subscribe((e) => events.push(e));
    session.orderBookFrames$.subscribe((f) => forms.push(`${f.symbol} ${f.sequence} ${f.asks === undefined ? 'decoded' : 'parsed'}`));
    session.events$.subscribe((e) => sessionEvents.push(e));
    await feed.start();
    const client = server.clients[0]!;
    for (const [text] of SCRIPT) server.sendRaw(client, text);

    const expected: BookEvent[] = [];
    const reference = referenceKeeper(expected);
    await until(() => events.length === expected.length && feed.keeper.book('ETHUSDT')?.sequence === 22);
    expect(events.map(described)).toEqual(expected.map(described));
    expect(feed.keeper.stats).toEqual(reference.stats);
    for (const symbol of ['ETHUSDT', 'BTCUSDT', 'XRPUSDT']) {
      const live = feed.keeper.book(symbol);
      const oracle = reference.book(symbol);
      expect([live?.valid, live?.priceScale, live?.quantityScale], symbol).toEqual([oracle?.valid, oracle?.priceScale, oracle?.quantityScale]);
      for (const side of ['bid', 'ask'] as const) expect(live?.topN(side, Infinity), symbol).toEqual(oracle?.topN(side, Infinity));
    }
    // Every book frame reached the keeper, in the decoded form exactly where expected.
    const expectedForms = SCRIPT.flatMap(([text, decoded]) => {
      try {
        return parseOrderBookFrames(JSON.parse(text), RECEIVED_AT).map((f) => `${f.symbol} ${f.sequence} ${decoded ? 'decoded' : 'parsed'}`);
      } catch {
        return [];
      }
    });
    expect(forms).toEqual(expectedForms);
    expect(sessionEvents.map((e) => e.kind).filter((k) => k === 'malformed-frame' || k === 'parse-error')).toEqual(['malformed-frame', 'parse-error']);
  });

  it('rehearses the way of book messages on synthetic ones, publishing and keeping nothing of them', async () => {
    const events: BookEvent[] = [];
    feed.books$.subscribe((e) => events.push(e));
    const statsBefore = { ...feed.keeper.stats };
    const rehearsal = feed.rehearse(40);
    // Every message decoded from its bytes and applied in sequence: a snapshot, then 39 updates a symbol.
    expect(rehearsal).toMatchObject({ messages: 80, bookEvents: 80 });
    expect(events).toEqual([]);
    expect(feed.keeper.stats).toEqual(statsBefore);
    expect(INSTRUMENTS.map((i) => feed.keeper.book(i.symbol))).toEqual([undefined, undefined]);
    // The feed then runs as ever.
    await feed.start();
    server.sendRaw(server.clients[0]!, SCRIPT[0]![0]);
    await until(() => events.length === 1);
    expect(events.map(described)).toEqual([['snapshot', 'ETHUSDT', 1]]);
  });

  it('leaves book messages to the general parser while someone listens to the raw notifications', async () => {
    const forms: boolean[] = [];
    let raw = 0;
    session.orderBookFrames$.subscribe((f) => forms.push(f.asks === undefined));
    await feed.start();
    const client = server.clients[0]!;
    server.sendRaw(client, SCRIPT[0]![0]);
    await until(() => forms.length === 1);
    const subscription = session.channel$('orderbook/full').subscribe(() => raw++);
    server.sendRaw(client, SCRIPT[1]![0]);
    await until(() => forms.length === 2);
    subscription.unsubscribe();
    server.sendRaw(client, canonical(book('update', 'ETHUSDT', 3, [['2683.78', '3']], [])));
    await until(() => forms.length === 3);
    expect([forms, raw]).toEqual([[true, false, true], 1]);
    expect(feed.keeper.book('ETHUSDT')?.sequence).toBe(3);
  });
});
