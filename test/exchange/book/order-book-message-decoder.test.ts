import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBookMessageDecoder, type BookScales } from '../../../framework/exchange/book/order-book-message-decoder.js';
import { parseOrderBookFrames, type OrderBookFrame, type ScaledOrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import { OrderBook } from '../../../framework/exchange/book/order-book.js';
import type { Instrument } from '../../../framework/model/instrument.js';
import { decimalText } from './book-arbitraries.js';
import { bookInstrument } from './book-instrument.js';
import { scaledUnits } from './scaled-units.js';

const SCALES = new Map<string, BookScales>([
  ['ETHUSDT', { priceScale: 2, quantityScale: 4 }],
  ['BTCUSDT', { priceScale: 1, quantityScale: 5 }],
  ['WHOLE', { priceScale: 0, quantityScale: 0 }],
  ['FINE', { priceScale: 8, quantityScale: 8 }],
]);
const decoder = new OrderBookMessageDecoder(SCALES);

function step(scale: number): string {
  return scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`;
}

function instrumentOf(symbol: string): Instrument {
  const scales = SCALES.get(symbol)!;
  return bookInstrument(symbol, step(scales.priceScale), step(scales.quantityScale));
}

/** Decodes `text` from the middle of a larger buffer, as bytes, the way a socket hands them over. */
function decode(text: string, receivedAt = 5): readonly ScaledOrderBookFrame[] | undefined {
  const bytes = Buffer.from(`xx${text}yy`, 'utf8');
  return decoder.decodeMessage(bytes, 2, bytes.length - 2, receivedAt);
}

/** The general way: JSON.parse and parseOrderBookFrames; undefined when either throws. */
function general(text: string, receivedAt = 5): OrderBookFrame[] | undefined {
  try {
    return parseOrderBookFrames(JSON.parse(text), receivedAt);
  } catch {
    return undefined;
  }
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
/** Level values: plain decimals at many scales, zeros, values at 2^53 at every scale, and texts the decoder must leave alone. */
const value: fc.Arbitrary<string | number> = fc.oneof(
  { weight: 60, arbitrary: fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 7n }), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 1 })).map(([u, d, p]) => decimalText(u, d, p)) },
  { weight: 8, arbitrary: fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 10n }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 2 })).map(([u, d, p]) => decimalText(u, d, p)) },
  { weight: 6, arbitrary: fc.constantFrom('0', '0.0', '0.0000', '0.00000000', '00012.50') },
  { weight: 2, arbitrary: fc.tuple(fc.bigInt({ min: MAX_EXACT - 3n, max: MAX_EXACT + 3n }), fc.integer({ min: 0, max: 8 })).map(([u, d]) => decimalText(u, d, 0)) },
  { weight: 1, arbitrary: fc.tuple(fc.bigInt({ min: 10n ** 15n, max: 10n ** 22n }), fc.integer({ min: 0, max: 8 })).map(([u, d]) => decimalText(u, d, 0)) },
  { weight: 1, arbitrary: fc.constantFrom('1e3', '-1', '.5', '1.', ' 1', '', '1..2', '+1', '1,5', 1.5, 7, 0) },
);
const entry = fc.record({
  t: fc.oneof({ weight: 20, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom(1.5, -1, '2024-08-08T23:54:14.152Z', 1e16) }),
  s: fc.oneof({ weight: 20, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom(-1, 2.5, '3', 2 ** 53) }),
  a: fc.array(fc.tuple(value, value), { maxLength: 4 }),
  b: fc.array(fc.tuple(value, value), { maxLength: 4 }),
}, { requiredKeys: ['t', 's'] });
const layouts = ['canonical', 'spaced', 'keys reordered', 'extra key', 'trailing newline'] as const;
const message = fc.record({
  kind: fc.constantFrom('snapshot' as const, 'update' as const),
  entries: fc.dictionary(fc.constantFrom('ETHUSDT', 'ETHUSDT', 'BTCUSDT', 'WHOLE', 'FINE', 'XRPUSDT'), entry, { minKeys: 1, maxKeys: 2 }),
  layout: fc.oneof({ weight: 12, arbitrary: fc.constant('canonical' as const) }, { weight: 4, arbitrary: fc.constantFrom(...layouts) }),
});

function messageText(kind: 'snapshot' | 'update', entries: Record<string, unknown>, layout: (typeof layouts)[number]): string {
  switch (layout) {
    case 'canonical': return JSON.stringify({ ch: 'orderbook/full', [kind]: entries });
    case 'spaced': return JSON.stringify({ ch: 'orderbook/full', [kind]: entries }, null, 1);
    case 'keys reordered': return JSON.stringify({ [kind]: entries, ch: 'orderbook/full' });
    case 'extra key': return JSON.stringify({ ch: 'orderbook/full', [kind]: entries, x: 1 });
    case 'trailing newline': return `${JSON.stringify({ ch: 'orderbook/full', [kind]: entries })}\n`;
  }
}

const plainText = (v: unknown): v is string => typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v);
const plainInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e15;

/** True when the decoder must take the message: canonical, known symbols, integer t and s, every level plain and exact at its scales. */
type Entry = typeof entry extends fc.Arbitrary<infer T> ? T : never;

function mustTake(entries: Record<string, Entry>, layout: string): boolean {
  return layout === 'canonical' && Object.entries(entries).every(([symbol, e]) => {
    const scales = SCALES.get(symbol);
    return scales !== undefined && plainInteger(e.t) && plainInteger(e.s) && [...(e.a ?? []), ...(e.b ?? [])].every(([p, q]) =>
      plainText(p) && plainText(q) && scaledUnits(p, scales.priceScale) !== undefined && scaledUnits(q, scales.quantityScale) !== undefined);
  });
}

describe('OrderBookMessageDecoder', () => {
  it('decodes a book message to frames with scaled levels', () => {
    const text = '{"ch":"orderbook/full","update":{"ETHUSDT":{"t":1723161254152,"s":7,"a":[["2683.81","31.4395"],["2684.5","0"]],"b":[["2683.80","0.0020"]]}}}';
    expect(decode(text, 9.5)).toEqual([{
      symbol: 'ETHUSDT', sequence: 7, exchangeTime: 1723161254152, receivedAt: 9.5, snapshot: false, priceScale: 2, quantityScale: 4,
      askLevels: [268381, 314395, 268450, 0], bidLevels: [268380, 20],
    }]);
    const snapshot = '{"ch":"orderbook/full","snapshot":{"ETHUSDT":{"s":1,"t":4,"b":[["10","2"]]},"BTCUSDT":{"t":3,"s":9,"a":[["20.5","0.00001"]]}}}';
    expect(decode(snapshot)?.map((b) => [b.symbol, b.sequence, b.exchangeTime, b.snapshot, b.askLevels, b.bidLevels])).toEqual([
      ['ETHUSDT', 1, 4, true, [], [1000, 20000]],
      ['BTCUSDT', 9, 3, true, [205, 1], []],
    ]);
  });

  it('leaves every other message to the general parser', () => {
    const entry = '{"t":1,"s":1,"a":[["1.00","1.0000"]],"b":[]}';
    const book = (payload: string, kind = 'update'): string => `{"ch":"orderbook/full","${kind}":{${payload}}}`;
    const refused = [
      '{"ch":"trades","update":{"ETHUSDT":[]}}',
      '{"jsonrpc":"2.0","result":{"ch":"orderbook/full","subscriptions":["ETHUSDT"]},"id":1}',
      '{"error":{"code":2001,"message":"Symbol not found"},"id":2}',
      book(`"XRPUSDT":${entry}`),
      book(`"ETHUSDT":${entry}`, 'data'),
      book(`"ETHUSDT":${entry.replace('"1.00"', '"1.001"')}`), // finer than the tick scale
      book(`"ETHUSDT":${entry.replace('"1.00"', '"99999999999999.99"')}`), // beyond 2^53 at scale 2
      book(`"ETHUSDT":${entry.replace('"1.00"', '1.5')}`), // a number, repaired by the general path
      book(`"ETHUSDT":${entry.replace('"t":1', '"t":"2024-08-08T23:54:14.152Z"')}`),
      book(`"ETHUSDT":${entry.replace('"s":1', '"s":-1')}`),
      book(`"ETHUSDT":${entry.replace('"s":1', '"s":1,"s":2')}`), // JSON.parse keeps the last
      book(`"ETHUSDT":${entry},"ETHUSDT":${entry}`),
      book(`"ETH\\u0055SDT":${entry}`),
      book(`"ETHUSDT":${entry.replace('"a":', '"a" :')}`),
      book(`"ETHUSDT":${entry.replace('"a":[', '"a":[["1","2","3"],')}`), // the general parser reads the first two
      book(`"ETHUSDT":${entry}`).slice(0, -1),
      `${book(`"ETHUSDT":${entry}`)} `,
      `\ufeff${book(`"ETHUSDT":${entry}`)}`,
      book(''),
    ];
    for (const text of refused) expect(decode(text), text).toBeUndefined();
    expect(decode(book(`"ETHUSDT":${entry}`))).toBeDefined();
  });

  it('takes no symbol named like an array index, which JSON.parse lists first', () => {
    const only = new OrderBookMessageDecoder(new Map([['123', { priceScale: 0, quantityScale: 0 }]]));
    const bytes = Buffer.from('{"ch":"orderbook/full","update":{"123":{"t":1,"s":1}}}');
    expect(only.decodeMessage(bytes, 0, bytes.length, 0)).toBeUndefined();
  });

  it('property: a message it takes gives the frames and books of JSON.parse + parseOrderBookFrames + text apply; it takes every plain one', () => {
    let taken = 0;
    fc.assert(fc.property(message, ({ kind, entries, layout }) => {
      const text = messageText(kind, entries, layout);
      const fast = decode(text);
      if (fast === undefined) {
        expect(mustTake(entries, layout), text).toBe(false);
        return;
      }
      taken++;
      const slow = general(text);
      expect(slow, text).toBeDefined();
      expect(fast.map((f) => f.symbol)).toEqual(slow!.map((f) => f.symbol));
      for (const [i, frame] of fast.entries()) {
        const textFrame = slow![i]!;
        const { priceScale, quantityScale } = SCALES.get(frame.symbol)!;
        expect([frame.sequence, frame.exchangeTime, frame.receivedAt, frame.snapshot, frame.priceScale, frame.quantityScale])
          .toEqual([textFrame.sequence, textFrame.exchangeTime, textFrame.receivedAt, textFrame.snapshot, priceScale, quantityScale]);
        const units = (levels: OrderBookFrame['asks']): (number | undefined)[] => levels.flatMap(([p, q]) => [scaledUnits(p, priceScale), scaledUnits(q, quantityScale)]);
        expect(frame.askLevels).toEqual(units(textFrame.asks));
        expect(frame.bidLevels).toEqual(units(textFrame.bids));
        const fromText = new OrderBook(frame.symbol, { instrument: instrumentOf(frame.symbol) });
        const fromScaled = new OrderBook(frame.symbol, { instrument: instrumentOf(frame.symbol) });
        fromText.apply(textFrame);
        fromScaled.apply(frame);
        for (const side of ['bid', 'ask'] as const) expect(fromScaled.topN(side, Infinity)).toEqual(fromText.topN(side, Infinity));
        expect([fromScaled.valid, fromScaled.crossed]).toEqual([fromText.valid, fromText.crossed]);
      }
    }), { numRuns: 1500 });
    expect(taken).toBeGreaterThan(200);
  });
});
