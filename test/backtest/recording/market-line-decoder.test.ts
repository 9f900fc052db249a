import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketLineDecoder, type BookScales } from '../../../backtest/recording/market-line-decoder.js';
import { parseRecordedFrame } from '../../../backtest/recording/recording-format.js';
import { parseOrderBookFrames, scaledLevelsAsText, type OrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import { OrderBook } from '../../../framework/exchange/book/order-book.js';
import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';
import { parseMarketNotification, type MarketEvent } from '../../../framework/model/stream/market-events.js';
import { parseUnsignedScaled } from '../../../framework/model/parse-unsigned-scaled.js';

const SCALES = new Map<string, BookScales>([
  ['ETHUSDT', { priceScale: 2, quantityScale: 4 }],
  ['BTCUSDT', { priceScale: 1, quantityScale: 5 }],
]);
const decoder = new MarketLineDecoder(SCALES);

function decode(line: string): ReturnType<MarketLineDecoder['decode']> {
  const bytes = Buffer.from(`garbage\n${line}\nmore`, 'utf8');
  return decoder.decode(bytes, 8, 8 + Buffer.byteLength(line));
}

/** What the general path makes of a line: JSON.parse, frame check, book frame parser; undefined when it throws. */
function general(line: string): { t: number; books: OrderBookFrame[] } | undefined {
  try {
    const frame = parseRecordedFrame(JSON.parse(line), 2);
    return { t: frame.t, books: parseOrderBookFrames(frame.msg, frame.t) };
  } catch {
    return undefined;
  }
}

const canonical = (t: number, kind: 'snapshot' | 'update', entries: Record<string, unknown>): string =>
  JSON.stringify({ t, src: 'ws/public', msg: { ch: 'orderbook/full', [kind]: entries } });

describe('MarketLineDecoder: orderbook/full lines', () => {
  it('decodes the recorder layout to scaled levels, with the frame time JSON.parse reads', () => {
    const line = canonical(1723161254152.3228, 'update', { ETHUSDT: { t: 1723161254152, s: 7, a: [['2683.81', '31.4395'], ['2684.5', '0']], b: [['2683.80', '0.0020']] } });
    const decoded = decode(line);
    expect(decoded?.t).toBe(JSON.parse(line).t);
    expect(decoded?.books).toEqual([{
      symbol: 'ETHUSDT', sequence: 7, exchangeTime: 1723161254152, receivedAt: decoded?.t, snapshot: false, priceScale: 2, quantityScale: 4,
      askLevels: [268381, 314395, 268450, 0], bidLevels: [268380, 20],
    }]);
  });

  it('reads values with fewer decimals than the scale, whatever follows them', () => {
    // "0.0" at 5 decimals: five bytes on from its dot lies the next value's opening quote.
    const line = canonical(1, 'snapshot', { BTCUSDT: { t: 1, s: 1, b: [['0', '0.0'], ['0.0', '0'], ['7.5', '1.2']], a: [['8', '3.00001']] } });
    expect(decode(line)?.books[0]).toMatchObject({ bidLevels: [0, 0, 0, 0, 75, 120_000], askLevels: [80, 300_001] });
  });

  it('leaves every other line to the general parser', () => {
    const entry = { t: 1, s: 1, a: [['1.00', '1.0000']], b: [] };
    const refused = [
      JSON.stringify({ t: 1, src: 'ws/public', msg: { ch: 'ticker/1s', data: { ETHUSDT: {} } } }),
      JSON.stringify({ src: 'ws/public', t: 1, msg: { ch: 'orderbook/full', update: { ETHUSDT: entry } } }),
      JSON.stringify({ t: 1, src: 'ws/trading', msg: { ch: 'orderbook/full', update: { ETHUSDT: entry } } }),
      canonical(1, 'update', { XRPUSDT: entry }), // no scales known
      canonical(1, 'update', { ETHUSDT: { ...entry, a: [['1.001', '1']] } }), // finer than the tick scale
      canonical(1, 'update', { ETHUSDT: { ...entry, a: [['1.00', '1.00001']] } }),
      canonical(1, 'update', { ETHUSDT: { ...entry, a: [[1.5, '1']] } }), // a number, repaired by the general path
      canonical(1, 'update', { ETHUSDT: { ...entry, a: [['.5', '1']] } }),
      canonical(1, 'update', { ETHUSDT: { ...entry, a: [['1.', '1']] } }),
      canonical(1, 'update', { ETHUSDT: { ...entry, a: [['99999999999999.99', '1']] } }), // beyond 2^53 at scale 2
      canonical(1, 'update', { ETHUSDT: { ...entry, s: -1 } }),
      canonical(1, 'update', { ETHUSDT: { ...entry, t: '2024-08-08T23:54:14.152Z' } }),
      canonical(1, 'update', { ETHUSDT: { ...entry, x: 1 } }),
      canonical(1, 'update', { ETHUSDT: { t: 1, a: [] } }), // no sequence
      canonical(1, 'update', {}),
      `${canonical(1, 'update', { ETHUSDT: entry }).slice(0, -1)} }`,
      canonical(1, 'update', { ETHUSDT: entry }).replace('"a":', '"a" :'),
      canonical(1, 'update', { ETHUSDT: entry }).replace('"ETHUSDT"', '"ETH\\u0055SDT"'),
      '{"t":01,"src":"ws/public","msg":{"ch":"orderbook/full","update":{"ETHUSDT":{"t":1,"s":1}}}}',
      '{"t":1,"src":"ws/public","msg":{"ch":"orderbook/full","update":{"ETHUSDT":{"t":1,"s":1,"s":2}}}}',
      '{"t":1,"src":"ws/public","msg":{"ch":"orderbook/full","update":{"ETHUSDT":{"t":1,"s":1},"ETHUSDT":{"t":1,"s":2}}}}',
    ];
    for (const line of refused) expect(decode(line), line).toBeUndefined();
    expect(decode(canonical(1, 'update', { ETHUSDT: entry }))).toBeDefined();
  });

  it('takes a CRLF line end and several symbols in one frame', () => {
    const line = canonical(5, 'snapshot', { ETHUSDT: { t: 4, s: 1, b: [['10', '2']] }, BTCUSDT: { s: 9, t: 3, a: [['20.5', '0.00001']] } });
    const bytes = Buffer.from(`${line}\r\n`);
    const decoded = decoder.decode(bytes, 0, bytes.length - 1);
    expect(decoded?.books.map((b) => [b.symbol, b.sequence, b.exchangeTime, b.snapshot, b.askLevels, b.bidLevels])).toEqual([
      ['ETHUSDT', 1, 4, true, [], [1000, 20000]],
      ['BTCUSDT', 9, 3, true, [205, 1], []],
    ]);
  });

  it('agrees with the general parser on every line it takes, and takes every plain line at the scales', () => {
    const digits = (max: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`));
    // Mostly texts the decoder should take, with a share of every kind it must leave alone.
    const decimalText = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(digits(6), fc.stringMatching(/^[0-9]{1,2}$/)).map(([a, b]) => `${a}.${b}`) },
      { weight: 3, arbitrary: digits(6) },
      { weight: 1, arbitrary: fc.tuple(digits(6), fc.stringMatching(/^[0-9]{3,7}$/)).map(([a, b]) => `${a}.${b}`) },
      { weight: 1, arbitrary: fc.constantFrom('0', '0.0000', '9999999999999.00', '00012.50', '1e3', '-1', '', '1..2', ' 1', '1.') },
    );
    const level = fc.oneof({ weight: 30, arbitrary: fc.tuple(decimalText, decimalText) }, { weight: 1, arbitrary: fc.tuple(fc.double(), decimalText) });
    const entry = fc.record({
      t: fc.oneof({ weight: 20, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom(1.5, 'x') }),
      s: fc.oneof({ weight: 20, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom(-1, 2.5, '3') }),
      a: fc.array(level, { maxLength: 4 }),
      b: fc.array(level, { maxLength: 4 }),
    }, { requiredKeys: ['t', 's'] });
    const line = fc.record({
      t: fc.oneof(fc.double({ min: 0, max: 2e12, noNaN: true }), fc.nat()),
      kind: fc.constantFrom('snapshot' as const, 'update' as const),
      entries: fc.dictionary(fc.constantFrom('ETHUSDT', 'ETHUSDT', 'ETHUSDT', 'BTCUSDT', 'XRPUSDT'), entry, { minKeys: 1, maxKeys: 2 }),
    }).map(({ t, kind, entries }) => ({
      text: canonical(t, kind, entries),
      // A number where a level's text belongs: the general path repairs it, the decoder leaves it.
      numberLevel: Object.values(entries).some((e) => [...(e.a ?? []), ...(e.b ?? [])].some(([p]) => typeof p !== 'string')),
    }));
    fc.assert(fc.property(line, ({ text, numberLevel }) => {
      const fast = decode(text);
      const slow = general(text);
      if (fast === undefined) {
        // Taken whenever the general path reads every level text at the scales without trouble.
        if (!numberLevel && slow !== undefined && slow.books.every((b) => plainAtScales(b))) throw new Error(`refused a plain line: ${text}`);
        return;
      }
      expect(slow).toBeDefined();
      expect(fast.t).toBe(slow!.t);
      expect(fast.books.map(scaledLevelsAsText).map(normalise)).toEqual(slow!.books.map(normalise));
      for (const book of fast.books) {
        const scales = SCALES.get(book.symbol)!;
        const again = slow!.books.find((b) => b.symbol === book.symbol)!;
        expect(book.askLevels).toEqual(again.asks.flatMap(([p, q]) => [parseUnsignedScaled(p, scales.priceScale), parseUnsignedScaled(q, scales.quantityScale)]));
      }
    }), { numRuns: 400 });
  });

  it('gives an OrderBook the same book as the level texts', () => {
    const info = parseSymbolInfo({
      type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', status: 'working', quantity_increment: '0.0001', tick_size: '0.01',
      take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT', margin_trading: false,
    }, 'symbol');
    const instrument = new Instrument('ETHUSDT', info);
    const lines = [
      canonical(1, 'snapshot', { ETHUSDT: { t: 1, s: 1, a: [['100.01', '1.5'], ['100.05', '2']], b: [['99.99', '3'], ['99.5', '0.0001']] } }),
      canonical(2, 'update', { ETHUSDT: { t: 2, s: 2, a: [['100.01', '0'], ['100.02', '7.25']], b: [['99.99', '0.5000']] } }),
    ];
    const fromText = new OrderBook('ETHUSDT', { instrument });
    const fromScaled = new OrderBook('ETHUSDT', { instrument });
    for (const text of lines) {
      for (const book of general(text)!.books) fromText.apply(book);
      for (const book of decode(text)!.books) fromScaled.apply(book);
    }
    for (const side of ['bid', 'ask'] as const) expect(fromScaled.topN(side, 10)).toEqual(fromText.topN(side, 10));
    expect(fromScaled.mid()).toBe('100.005');
  });
});

/** True when the exchange time is an integer and each level text a plain decimal the decoder can read at its symbol's scales. */
function plainAtScales(book: OrderBookFrame): boolean {
  const scales = SCALES.get(book.symbol);
  if (scales === undefined || !Number.isInteger(book.exchangeTime)) return false;
  const plain = (text: string, scale: number): boolean => /^[0-9]+(\.[0-9]+)?$/.test(text) && parseUnsignedScaled(text, scale) >= 0;
  return [...book.asks, ...book.bids].every(([p, q]) => plain(p, scales.priceScale) && plain(q, scales.quantityScale));
}

/** A frame with its level texts as the values they mean, so "1.5" and "1.50" compare equal. */
function normalise(book: OrderBookFrame): unknown {
  const value = (text: string): string => {
    const [whole = '', fraction = ''] = text.split('.');
    const w = whole.replace(/^0+(?=\d)/, '');
    const f = fraction.replace(/0+$/, '');
    return f === '' ? w : `${w}.${f}`;
  };
  return { ...book, asks: book.asks.map(([p, q]) => [value(p), value(q)]), bids: book.bids.map(([p, q]) => [value(p), value(q)]) };
}

describe('MarketLineDecoder: trades lines', () => {
  const tradesLine = (t: number, kind: 'snapshot' | 'update', bySymbol: Record<string, unknown>): string =>
    JSON.stringify({ t, src: 'ws/public', msg: { ch: 'trades', [kind]: bySymbol } });
  const liveParse = (line: string): MarketEvent[] | undefined => {
    try {
      const frame = parseRecordedFrame(JSON.parse(line), 2);
      return parseMarketNotification(frame.msg, frame.t);
    } catch {
      return undefined;
    }
  };

  it('builds the events the live parser builds', () => {
    const line = tradesLine(1723161254340.8638, 'update', {
      ETHUSDT: [{ t: 1723161255611, i: 1520538925, p: '2683.80', q: '0.0020', s: 'sell' }, { s: 'buy', q: '1', p: '2684', i: 7, t: 1723161255612 }],
      BTCUSDT: [],
    });
    const decoded = decode(line);
    expect(decoded?.books).toEqual([]);
    expect(decoded?.t).toBe(JSON.parse(line).t);
    expect(decoded?.events).toEqual(liveParse(line));
    expect(decoded?.events[0]?.exchangeTime).toBe(1723161255612);
  });

  it('reads each trade price afresh after lines at another price of the same length', () => {
    const prices = ['2683.80', '2683.80', '2683.81', '2683.8', '2683.81', '12683.81', '2683.81'];
    for (const [n, p] of prices.entries()) {
      const line = tradesLine(n + 1, 'update', { ETHUSDT: [{ t: n, i: n, p, q: '0.0020', s: 'buy' }] });
      expect(decode(line)?.events, line).toEqual(liveParse(line));
    }
  });

  it('leaves unusual trades lines to the general parser', () => {
    const trade = { t: 1, i: 1, p: '1.5', q: '2', s: 'buy' };
    const refused = [
      tradesLine(1, 'update', { ETHUSDT: [{ ...trade, i: '1' }] }),
      tradesLine(1, 'update', { ETHUSDT: [{ ...trade, p: '1e3' }] }),
      tradesLine(1, 'update', { ETHUSDT: [{ ...trade, p: 1.5 }] }),
      tradesLine(1, 'update', { ETHUSDT: [{ ...trade, q: '2.' }] }),
      tradesLine(1, 'update', { ETHUSDT: [{ ...trade, s: 'BUY' }] }),
      tradesLine(1, 'update', { ETHUSDT: [{ ...trade, t: '2024-08-08T00:00:00Z' }] }),
      tradesLine(1, 'update', { ETHUSDT: [{ ...trade, x: 1 }] }),
      tradesLine(1, 'update', { ETHUSDT: [{ t: 1, i: 1, p: '1', s: 'buy' }] }),
      tradesLine(1, 'update', { XRPUSDT: [trade] }),
      tradesLine(1, 'update', { ETHUSDT: {} }),
      JSON.stringify({ t: 1, src: 'ws/public', msg: { ch: 'trades', data: { ETHUSDT: [trade] } } }),
    ];
    for (const line of refused) expect(decode(line), line).toBeUndefined();
    expect(decode(tradesLine(1, 'snapshot', { ETHUSDT: [trade] }))?.events[0]?.snapshot).toBe(true);
  });

  it('agrees with the live parser on every line it takes, and takes every plain one', () => {
    const text = fc.oneof(
      { weight: 8, arbitrary: fc.stringMatching(/^[0-9]{1,6}(\.[0-9]{1,6})?$/) },
      { weight: 1, arbitrary: fc.constantFrom('1e3', '-1', '', '1.', '.5', ' 1', '007.10') },
    );
    const trade = fc.record({
      t: fc.oneof({ weight: 9, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom(1.5, '12', -3) }),
      i: fc.oneof({ weight: 9, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constantFrom('abc', 2.5, 2 ** 60) }),
      p: text,
      q: text,
      s: fc.oneof({ weight: 9, arbitrary: fc.constantFrom('buy', 'sell') }, { weight: 1, arbitrary: fc.constantFrom('Buy', 'x') }),
    });
    const line = fc.record({
      t: fc.double({ min: 0, max: 2e12, noNaN: true }),
      kind: fc.constantFrom('snapshot' as const, 'update' as const),
      bySymbol: fc.dictionary(fc.constantFrom('ETHUSDT', 'ETHUSDT', 'BTCUSDT', 'XRPUSDT'), fc.array(trade, { maxLength: 4 }), { minKeys: 1, maxKeys: 2 }),
    });
    const plainText = (v: unknown): boolean => typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v);
    const plainInteger = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e15;
    let taken = 0;
    fc.assert(fc.property(line, ({ t, kind, bySymbol }) => {
      const candidate = tradesLine(t, kind, bySymbol);
      const fast = decode(candidate);
      const slow = liveParse(candidate);
      const plain = Object.entries(bySymbol).every(([symbol, list]) => SCALES.has(symbol) && list.every((trade) =>
        plainInteger(trade.t) && plainInteger(trade.i) && plainText(trade.p) && plainText(trade.q) && (trade.s === 'buy' || trade.s === 'sell')));
      if (fast === undefined) {
        expect(plain).toBe(false);
        return;
      }
      taken++;
      expect(fast.events).toEqual(slow);
      expect(fast.t).toBe(JSON.parse(candidate).t);
    }), { numRuns: 300 });
    expect(taken).toBeGreaterThan(30);
  });
});
