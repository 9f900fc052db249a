import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook, type BookSide } from '../../../framework/exchange/book/order-book.js';
import type { BookLevelText, OrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import type { Decimal } from '../../../framework/model/decimal.js';
import { UnrepresentableValueError } from '../../../framework/model/errors.js';
import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';

/**
 * The book's window logic (placement, recentring, sizing from a snapshot, growth, the sorted
 * fallback, exact values beyond 2^53) against an oracle written here: a Map of BigInt price units
 * to quantity units per side, sorted only when asked.
 */

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** `units` x 10^-decimals as plain text, exactly (BigInt digits, no float). */
function text(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Units of a Decimal known to have at most `decimals` decimals, from its text. */
function unitsOf(value: Decimal, decimals: number): bigint {
  return BigInt(value.toFixed(decimals).replace('.', ''));
}

function instrument(priceDecimals: number, quantityDecimals: number): Instrument {
  const step = (d: number): string => text(1n, d);
  return new Instrument('TEST', parseSymbolInfo({
    type: 'spot', base_currency: 'B', quote_currency: 'Q', tick_size: step(priceDecimals), quantity_increment: step(quantityDecimals),
    take_rate: '0.001', make_rate: '0.001', fee_currency: 'Q',
  }));
}

class Oracle {
  readonly bids = new Map<bigint, bigint>();
  readonly asks = new Map<bigint, bigint>();

  apply(snapshot: boolean, bids: readonly [bigint, bigint][], asks: readonly [bigint, bigint][]): void {
    if (snapshot) {
      this.bids.clear();
      this.asks.clear();
    }
    for (const [price, quantity] of bids) set(this.bids, price, quantity);
    for (const [price, quantity] of asks) set(this.asks, price, quantity);
  }

  /** [price, quantity] best first. */
  levels(side: BookSide): [bigint, bigint][] {
    const sorted = [...(side === 'bid' ? this.bids : this.asks)].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    return side === 'bid' ? sorted.reverse() : sorted;
  }

  walk(side: BookSide, wanted: bigint): { filled: bigint; notional: bigint; worst: bigint | undefined; levels: number } {
    let left = wanted;
    let notional = 0n;
    let worst: bigint | undefined;
    let levels = 0;
    for (const [price, quantity] of this.levels(side)) {
      if (left === 0n) break;
      const take = quantity < left ? quantity : left;
      notional += price * take;
      left -= take;
      worst = price;
      levels++;
    }
    return { filled: wanted - left, notional, worst, levels };
  }
}

function set(map: Map<bigint, bigint>, price: bigint, quantity: bigint): void {
  if (quantity === 0n) map.delete(price);
  else map.set(price, quantity);
}

/** One level change relative to a moving touch, or at an absolute extreme price. */
type Change = { readonly at: 'near' | 'far' | 'absolute'; readonly offset: bigint; readonly quantity: bigint };

const quantity = fc.oneof(
  { weight: 4, arbitrary: fc.constant(0n) },
  { weight: 8, arbitrary: fc.bigInt({ min: 1n, max: 100_000n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: SAFE - 2n, max: SAFE * 1000n }) },
);

const change: fc.Arbitrary<Change> = fc.oneof(
  // At and next to the touch: adjacent levels, the best removed and the next one found.
  { weight: 6, arbitrary: fc.record({ at: fc.constant('near' as const), offset: fc.bigInt({ min: 0n, max: 3n }), quantity }) },
  { weight: 10, arbitrary: fc.record({ at: fc.constant('near' as const), offset: fc.bigInt({ min: 0n, max: 60n }), quantity }) },
  { weight: 3, arbitrary: fc.record({ at: fc.constant('far' as const), offset: fc.bigInt({ min: 0n, max: 2_000_000n }), quantity }) },
  // Placeholder-like levels: around 2^53 units and far beyond it.
  { weight: 1, arbitrary: fc.record({ at: fc.constant('absolute' as const), offset: fc.oneof(fc.bigInt({ min: SAFE - 3n, max: SAFE + 3n }), fc.bigInt({ min: SAFE, max: 10n ** 19n })), quantity }) },
);

/** A frame: the touch's move (small drifts, sometimes a jump of many windows), then changes per side. */
const step = fc.tuple(
  fc.oneof({ weight: 6, arbitrary: fc.bigInt({ min: -40n, max: 40n }) }, { weight: 1, arbitrary: fc.bigInt({ min: -3_000_000n, max: 3_000_000n }) }),
  fc.array(change, { maxLength: 14 }),
  fc.array(change, { maxLength: 14 }),
  fc.nat({ max: 12 }),
);

interface Scenario {
  readonly priceDecimals: number;
  readonly quantityDecimals: number;
  readonly windowSize: number;
  readonly maxWindowSize: number;
  readonly frames: { snapshot: boolean; bids: [bigint, bigint][]; asks: [bigint, bigint][] }[];
  readonly walks: readonly bigint[];
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    priceDecimals: fc.constantFrom(0, 2, 8),
    quantityDecimals: fc.constantFrom(0, 4, 8),
    window: fc.constantFrom([64, 64], [64, 512], [128, 1 << 12], [4096, 1 << 18]),
    start: fc.bigInt({ min: 5_000_000n, max: 10n ** 12n }),
    steps: fc.array(step, { minLength: 1, maxLength: 25 }),
    walks: fc.array(fc.oneof(fc.bigInt({ min: 0n, max: 300_000n }), fc.bigInt({ min: 0n, max: 10n ** 20n })), { minLength: 1, maxLength: 3 }),
  })
  .map(({ priceDecimals, quantityDecimals, window, start, steps, walks }) => {
    let touch = start;
    const frames = steps.map(([drift, bids, asks, reset], i) => {
      touch = touch + drift < 4_000_000n ? 4_000_000n : touch + drift;
      const price = (c: Change, side: 1n | -1n): bigint =>
        c.at === 'absolute' ? c.offset : side === 1n ? touch - c.offset : touch + 1n + c.offset;
      return {
        snapshot: i === 0 || reset === 0,
        bids: bids.map((c): [bigint, bigint] => [price(c, 1n), c.quantity]),
        asks: asks.map((c): [bigint, bigint] => [price(c, -1n), c.quantity]),
      };
    });
    return { priceDecimals, quantityDecimals, windowSize: window[0] as number, maxWindowSize: window[1] as number, frames, walks };
  });

function wireFrame(s: Scenario, i: number): OrderBookFrame {
  const f = s.frames[i] as Scenario['frames'][number];
  const wire = (levels: [bigint, bigint][]): BookLevelText[] => levels.map(([p, q]) => [text(p, s.priceDecimals), text(q, s.quantityDecimals)]);
  return { symbol: 'TEST', sequence: i + 1, exchangeTime: 1, receivedAt: 2, snapshot: f.snapshot, bids: wire(f.bids), asks: wire(f.asks) };
}

/** A number read of the book: the exact value when within 2^53, UnrepresentableValueError beyond, NaN for none. */
function expectNumberRead(read: () => number, exact: bigint | undefined): void {
  if (exact === undefined) expect(read()).toBeNaN();
  else if (exact > SAFE) expect(read).toThrow(UnrepresentableValueError);
  else expect(read()).toBe(Number(exact));
}

function expectSame(book: OrderBook, oracle: Oracle, s: Scenario): void {
  for (const side of ['bid', 'ask'] as const) {
    const levels = oracle.levels(side);
    expect(book.size(side)).toBe(levels.length);
    expect(book.topN(side, Infinity).map((l) => [l.priceUnits, l.quantityUnits])).toEqual(levels);
    const best = levels[0];
    const bestLevel = side === 'bid' ? book.bestBid() : book.bestAsk();
    expect(bestLevel?.price).toBe(best === undefined ? undefined : text(best[0], s.priceDecimals));
    expectNumberRead(() => (side === 'bid' ? book.bestBidPrice : book.bestAskPrice), best?.[0]);
    expectNumberRead(() => (side === 'bid' ? book.bestBidQuantity : book.bestAskQuantity), best?.[1]);
    for (const [price, quantity] of levels.slice(0, 40)) {
      expect(book.depthAt(side, text(price, s.priceDecimals))).toBe(text(quantity, s.quantityDecimals));
      expect(book.depthAt(side, text(price + 1n, s.priceDecimals))).toBe(text(side === 'bid' ? (oracle.bids.get(price + 1n) ?? 0n) : (oracle.asks.get(price + 1n) ?? 0n), s.quantityDecimals));
    }
    for (const wanted of s.walks) {
      const walk = side === 'ask' ? book.costToBuy(text(wanted, s.quantityDecimals)) : book.proceedsToSell(text(wanted, s.quantityDecimals));
      const expected = oracle.walk(side, wanted);
      expect(unitsOf(walk.filled, s.quantityDecimals)).toBe(expected.filled);
      expect(unitsOf(walk.notional, s.priceDecimals + s.quantityDecimals)).toBe(expected.notional);
      expect(walk.worstPrice === null ? undefined : unitsOf(walk.worstPrice, s.priceDecimals)).toBe(expected.worst);
      expect([walk.levels, walk.complete]).toEqual([expected.levels, expected.filled === wanted]);
    }
  }
  const bid = oracle.levels('bid')[0];
  const ask = oracle.levels('ask')[0];
  expect(book.crossed).toBe(bid !== undefined && ask !== undefined && bid[0] >= ask[0]);
}

describe('OrderBook window logic against a BigInt oracle', () => {
  it('property: any snapshots and updates over extreme grids, jumps and deletes give the oracle book', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const book = new OrderBook('TEST', { instrument: instrument(s.priceDecimals, s.quantityDecimals), windowSize: s.windowSize, maxWindowSize: s.maxWindowSize });
        const oracle = new Oracle();
        for (let i = 0; i < s.frames.length; i++) {
          const f = s.frames[i] as Scenario['frames'][number];
          book.apply(wireFrame(s, i));
          oracle.apply(f.snapshot, f.bids, f.asks);
          const bid = oracle.levels('bid')[0];
          const ask = oracle.levels('ask')[0];
          expect(book.crossed).toBe(bid !== undefined && ask !== undefined && bid[0] >= ask[0]);
          expect([book.bestBid()?.priceUnits, book.bestAsk()?.priceUnits]).toEqual([bid?.[0], ask?.[0]]);
        }
        expectSame(book, oracle, s);
      }),
      { numRuns: 250 },
    );
  });

  it('sizes the window from a snapshot spread over many ticks, and grows it when updates keep missing it', () => {
    const book = new OrderBook('BTCUSDT', { instrument: instrument(2, 5) });
    // 60 bids a basis point apart at 60,000 (600 ticks): 36,000 ticks deep.
    const bids: BookLevelText[] = Array.from({ length: 60 }, (_, i) => [text(5_999_000n - BigInt(i) * 600n, 2), '0.01000']);
    book.apply({ symbol: 'BTCUSDT', sequence: 1, exchangeTime: 1, receivedAt: 2, snapshot: true, bids, asks: [['60010.00', '1.00000']] });
    const ladder = (book as unknown as { bidLadder: { windowSpan: number; outside: { count: number } } }).bidLadder;
    expect(ladder.windowSpan).toBe(65_536);
    expect(ladder.outside.count).toBeLessThanOrEqual(6);
    // Updates 50,000 to 60,000 ticks under the touch keep missing the window: it doubles.
    for (let s = 2; s < 3000; s++) {
      book.apply({ symbol: 'BTCUSDT', sequence: s, exchangeTime: 1, receivedAt: 2, snapshot: false, bids: [[text(5_940_000n - BigInt(s % 97) * 100n, 2), text(BigInt(s), 5)]], asks: [] });
    }
    expect(ladder.windowSpan).toBe(131_072);
    expect(book.size('bid')).toBe(60 + 97);
  });
});

describe('OrderBook conversions beyond 2^53', () => {
  it('throws UnrepresentableValueError naming the symbol, field and exact text, never NaN', () => {
    const book = new OrderBook('BORUSDT', { instrument: instrument(3, 4) });
    book.apply({ symbol: 'BORUSDT', sequence: 1, exchangeTime: 1, receivedAt: 2, snapshot: true, bids: [['9999999999999.000', '1']], asks: [['99999999999999.000', '1']] });
    const error = (() => {
      try {
        return book.bestBidPrice;
      } catch (e) {
        return e;
      }
    })() as UnrepresentableValueError;
    expect(error).toBeInstanceOf(UnrepresentableValueError);
    expect([error.instrument, error.field, error.value]).toEqual(['BORUSDT', 'bestBidPrice', '9999999999999.000']);
    expect(error.rule).toMatch(/2\^53/);
    expect(() => book.bestAskPrice).toThrow(UnrepresentableValueError);
    expect(book.bestBidQuantity).toBe(10_000);
    expect(book.bestBid()?.priceUnits).toBe(9_999_999_999_999_000n);
    expect(() => book.bestAsk()?.priceScaled).toThrow(/BORUSDT price/);
    expect(book.mid()).toBe('54999999999999.000');
  });

  it('property: a level read as a number is exact below 2^53 and throws above, for prices and quantities', () => {
    const units = fc.oneof(fc.bigInt({ min: 1n, max: SAFE }), fc.bigInt({ min: SAFE - 5n, max: SAFE + 5n }), fc.bigInt({ min: 1n, max: 10n ** 24n }));
    fc.assert(
      fc.property(units, units, fc.constantFrom(0, 3, 8), (price, size, decimals) => {
        const book = new OrderBook('TEST', { instrument: instrument(decimals, decimals) });
        book.apply({ symbol: 'TEST', sequence: 1, exchangeTime: 1, receivedAt: 2, snapshot: true, bids: [], asks: [[text(price, decimals), text(size, decimals)]] });
        const level = book.bestAsk();
        expect([level?.priceUnits, level?.quantityUnits]).toEqual([price, size]);
        expectNumberRead(() => level?.priceScaled ?? Number.NaN, price);
        expectNumberRead(() => level?.quantityScaled ?? Number.NaN, size);
        expectNumberRead(() => book.bestAskPrice, price);
        expectNumberRead(() => book.bestAskQuantity, size);
      }),
      { numRuns: 300 },
    );
  });
});
