import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook, type BookLevel } from '../../../framework/exchange/book/order-book.js';
import type { BookLevelText, OrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import { Decimal } from '../../../framework/model/decimal.js';
import { ParseError, UnrepresentableValueError, ValidationError } from '../../../framework/model/errors.js';
import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';
import { frameSequence, movingFrameSequence, walkQuantity } from './book-arbitraries.js';
import { NaiveBook, normalised } from './naive-book.js';

function frame(snapshot: boolean, bids: BookLevelText[], asks: BookLevelText[], sequence = 1): OrderBookFrame {
  return { symbol: 'ETHUSDT', sequence, exchangeTime: 1, receivedAt: 2, snapshot, bids, asks };
}

function instrument(tick: string, increment: string): Instrument {
  return new Instrument('ETHUSDT', parseSymbolInfo({
    type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', tick_size: tick, quantity_increment: increment,
    take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
  }));
}

function sameAsNaive(book: OrderBook, naive: NaiveBook): void {
  expect(normalised(book.topN('bid', Infinity))).toEqual(naive.levels('bid'));
  expect(normalised(book.topN('ask', Infinity))).toEqual(naive.levels('ask'));
  expect(book.crossed).toBe(naive.crossed());
  const bestBid = naive.levels('bid')[0];
  expect(book.bestBid() === undefined ? undefined : new Decimal(book.bestBid()!.price).toFixed()).toBe(bestBid?.[0]);
}

describe('OrderBook', () => {
  const book = new OrderBook('ETHUSDT', { instrument: instrument('0.01', '0.0001') });
  book.apply(frame(true, [['2676.78', '4.2454'], ['2676.77', '3.0734'], ['2670.00', '1']], [['2676.80', '1.5'], ['2676.81', '2.0000'], ['2677.00', '10']]));

  it('answers best levels as text and scaled integers at the instrument scales', () => {
    const fields = (l: BookLevel | undefined): unknown[] => [l?.price, l?.quantity, l?.priceUnits, l?.quantityUnits, l?.priceScaled, l?.quantityScaled];
    expect(fields(book.bestBid())).toEqual(['2676.78', '4.2454', 267678n, 42454n, 267678, 42454]);
    expect(fields(book.bestAsk())).toEqual(['2676.80', '1.5000', 267680n, 15000n, 267680, 15000]);
    expect([book.bestBidPrice, book.bestAskPrice, book.bestBidQuantity, book.bestAskQuantity]).toEqual([267678, 267680, 42454, 15000]);
    expect(book.priceScale).toBe(2);
    expect(book.quantityScale).toBe(4);
    expect(book.valid).toBe(true);
  });

  it('computes spread and an exact mid, with one more decimal when needed', () => {
    expect(book.spread()).toBe('0.02');
    expect(book.mid()).toBe('2676.79');
    const odd = new OrderBook('X');
    odd.apply(frame(true, [['1.01', '1']], [['1.02', '1']]));
    expect(odd.mid()).toBe('1.015');
    expect(new OrderBook('X').spread()).toBeUndefined();
  });

  it('lists the top levels best first and the depth at a price', () => {
    expect(book.topN('ask', 2).map((l) => l.price)).toEqual(['2676.80', '2676.81']);
    expect(book.topN('bid', 10).map((l) => l.price)).toEqual(['2676.78', '2676.77', '2670.00']);
    expect(book.topN('bid', 0)).toEqual([]);
    expect(book.depthAt('ask', '2676.81')).toBe('2.0000');
    expect(book.depthAt('ask', '2676.8100')).toBe('2.0000');
    expect(book.depthAt('ask', '2676.815')).toBe('0');
    expect(book.depthAt('bid', '2676.80')).toBe('0.0000');
    expect(() => book.depthAt('bid', '-1')).toThrow(ValidationError);
  });

  it('walks the asks exactly for a market buy, and reports an incomplete fill', () => {
    const walk = book.costToBuy('3');
    expect(walk.filled.toFixed()).toBe('3');
    // 1.5 x 2676.80 + 1.5 x 2676.81
    expect(walk.notional.toFixed()).toBe('8030.415');
    expect(walk.averagePrice?.toFixed()).toBe('2676.805');
    expect(walk.worstPrice?.toFixed()).toBe('2676.81');
    expect(walk.complete).toBe(true);
    expect(walk.levels).toBe(2);
    const all = book.costToBuy(new Decimal('100'));
    expect(all.complete).toBe(false);
    expect(all.filled.toFixed()).toBe('13.5');
    const none = book.proceedsToSell('0');
    expect([none.filled.toFixed(), none.averagePrice, none.worstPrice, none.complete]).toEqual(['0', null, null, true]);
    // A request finer than the book's quantity scale is walked exactly, not rounded.
    expect(book.proceedsToSell('0.00001').notional.toFixed()).toBe('0.0267678');
    expect(() => book.costToBuy('-1')).toThrow(ValidationError);
    expect(() => book.costToBuy('abc')).toThrow(ValidationError);
  });

  it('applies updates: quantity 0 removes, an absent level with 0 is ignored', () => {
    const b = new OrderBook('X');
    b.apply(frame(true, [['10', '1'], ['9', '1']], [['11', '1']]));
    b.apply(frame(false, [['10', '0'], ['8', '0.000'], ['9.5', '2']], [['11', '3'], ['12', '0']], 2));
    expect(normalised(b.topN('bid', 5))).toEqual([['9.5', '2'], ['9', '1']]);
    expect(normalised(b.topN('ask', 5))).toEqual([['11', '3']]);
    expect(b.sequence).toBe(2);
  });

  it('raises its scales exactly when finer values arrive, never rounding', () => {
    const b = new OrderBook('X');
    b.apply(frame(true, [['10', '1'], ['9', '2']], [['11', '1']]));
    expect([b.priceScale, b.quantityScale]).toEqual([0, 0]);
    b.apply(frame(false, [['9.999', '0.5']], [['10.0001', '0.25']], 2));
    expect([b.priceScale, b.quantityScale]).toEqual([4, 2]);
    expect(normalised(b.topN('bid', 5))).toEqual([['10', '1'], ['9.999', '0.5'], ['9', '2']]);
    expect(b.bestAskPrice).toBe(100001);
    expect(b.depthAt('bid', '9')).toBe('2.00');
  });

  it('takes the mid and spread from a best level beyond 2^53 when there is one', () => {
    // A bid beyond 2^53 at the book's scale is better than every safe one; an ask there, worse.
    const b = new OrderBook('X');
    b.apply(frame(true, [['9.5', '1'], ['9007199254740993', '1']], [['9007199254740995', '1']]));
    expect(b.mid()).toBe('9007199254740994.0');
    expect(b.spread()).toBe('2.0');
    b.apply(frame(true, [['9.5', '1']], [['10.5', '1'], ['9007199254740995', '1']], 2));
    expect(b.mid()).toBe('10.0');
    expect(b.spread()).toBe('1.0');
    b.apply(frame(true, [['9.5', '1']], [['9007199254740995', '1']], 3));
    expect(b.spread()).toBe('9007199254740985.5');
  });

  it('keeps values beyond 2^53 exactly (placeholder asks of real books)', () => {
    const b = new OrderBook('BORUSDT');
    b.apply(frame(true, [['150.003', '1']], [['174.929', '2'], ['9999999999999.000', '0.0001'], ['99999999999.000', '0.0001']]));
    expect(b.valid).toBe(true);
    expect(b.topN('ask', 5).map((l) => l.price)).toEqual(['174.929', '99999999999.000', '9999999999999.000']);
    const placeholder = b.topN('ask', 5)[2];
    expect([placeholder?.priceUnits, placeholder?.quantityScaled]).toEqual([9999999999999000n, 1]);
    expect(() => placeholder?.priceScaled).toThrow(UnrepresentableValueError);
    expect(b.costToBuy('2.0002').worstPrice?.toFixed()).toBe('9999999999999');
    b.apply(frame(false, [], [['9999999999999.000', '0']], 2));
    expect(b.size('ask')).toBe(2);
    expect(b.depthAt('ask', '99999999999')).toBe('0.0001');
  });

  it('marks a crossed book invalid until the next snapshot', () => {
    const b = new OrderBook('X');
    b.apply(frame(true, [['10', '1']], [['11', '1']]));
    b.apply(frame(false, [['11', '1']], [], 2));
    expect(b.crossed).toBe(true);
    expect(b.valid).toBe(false);
    b.apply(frame(true, [['10', '1']], [['11', '1']], 7));
    expect(b.valid).toBe(true);
  });

  it('tells whether a frame that failed part-way left the levels it applied crossed', () => {
    const b = new OrderBook('X');
    b.apply(frame(true, [['10', '1']], [['11', '1']]));
    expect(() => b.apply(frame(false, [['12', '1'], ['1x', '1']], [], 2))).toThrow(ParseError);
    expect(b.crossed).toBe(true);
    b.apply(frame(true, [['10', '1']], [['11', '1']], 3));
    expect(b.crossed).toBe(false);
    expect(() => b.apply(frame(false, [['9', '1'], ['1x', '1']], [], 4))).toThrow(ParseError);
    expect(b.crossed).toBe(false);
  });

  it('refuses malformed level text with a ParseError naming the level, and is invalid after it', () => {
    const b = new OrderBook('X');
    b.apply(frame(true, [['10', '1']], [['11', '1']]));
    expect(() => b.apply(frame(false, [['1x', '1']], [], 2))).toThrow(ParseError);
    const thrown = (() => {
      try {
        b.apply(frame(false, [], [['11', '-1']], 3));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(ParseError);
    expect((thrown as ParseError).path).toBe('X.a[0][1]');
    expect(b.valid).toBe(false);
    expect(new OrderBook('X').valid).toBe(false);
  });

  it('property: any snapshot/update sequence gives the same book as a naive Decimal model', () => {
    fc.assert(
      fc.property(frameSequence, walkQuantity, (frames, quantity) => {
        const book = new OrderBook('TEST');
        const naive = new NaiveBook();
        for (const f of frames) {
          book.apply(f);
          naive.apply(f.snapshot, f.bids, f.asks);
        }
        sameAsNaive(book, naive);
        for (const side of ['ask', 'bid'] as const) {
          const walk = side === 'ask' ? book.costToBuy(quantity) : book.proceedsToSell(quantity);
          const expected = naive.walk(side, new Decimal(quantity));
          expect(walk.filled.eq(expected.filled)).toBe(true);
          expect(walk.notional.eq(expected.notional)).toBe(true);
          expect(walk.complete).toBe(expected.complete);
          expect(walk.worstPrice?.toFixed() ?? null).toBe(expected.worst?.toFixed() ?? null);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: adaptive scales answer exactly like a fixed large scale', () => {
    const fine = instrument('0.00000001', '0.00000001');
    fc.assert(
      fc.property(frameSequence, walkQuantity, (frames, quantity) => {
        const adaptive = new OrderBook('TEST');
        const fixed = new OrderBook('TEST', { instrument: fine });
        for (const f of frames) {
          adaptive.apply(f);
          fixed.apply(f);
        }
        expect(normalised(adaptive.topN('bid', Infinity))).toEqual(normalised(fixed.topN('bid', Infinity)));
        expect(normalised(adaptive.topN('ask', Infinity))).toEqual(normalised(fixed.topN('ask', Infinity)));
        expect(adaptive.crossed).toBe(fixed.crossed);
        expect(adaptive.spread() === undefined ? undefined : new Decimal(adaptive.spread()!).toFixed())
          .toBe(fixed.spread() === undefined ? undefined : new Decimal(fixed.spread()!).toFixed());
        expect(adaptive.costToBuy(quantity).notional.eq(fixed.costToBuy(quantity).notional)).toBe(true);
        expect(adaptive.proceedsToSell(quantity).filled.eq(fixed.proceedsToSell(quantity).filled)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('property: a small window recentred by a drifting touch, with far levels outside it, matches the naive model', () => {
    fc.assert(
      fc.property(movingFrameSequence(300), walkQuantity, (frames, quantity) => {
        const book = new OrderBook('TEST', { instrument: instrument('0.01', '0.0001'), windowSize: 64 });
        const naive = new NaiveBook();
        for (const f of frames) {
          book.apply(f);
          naive.apply(f.snapshot, f.bids, f.asks);
          expect(book.crossed).toBe(naive.crossed());
          expect(book.size('bid') + book.size('ask')).toBe(naive.bids.size + naive.asks.size);
        }
        sameAsNaive(book, naive);
        const bestAsk = naive.levels('ask')[0];
        expect(book.bestAskPrice).toBe(bestAsk === undefined ? Number.NaN : Number(new Decimal(bestAsk[0]).times(100).toFixed()));
        for (const [price, q] of naive.levels('bid').slice(0, 5)) expect(new Decimal(book.depthAt('bid', price)).toFixed()).toBe(q);
        const walk = book.costToBuy(quantity);
        const expected = naive.walk('ask', new Decimal(quantity));
        expect(walk.notional.eq(expected.notional)).toBe(true);
        expect(walk.filled.eq(expected.filled)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('follows the touch far beyond its window and back, keeping deep levels exact', () => {
    const b = new OrderBook('X', { instrument: instrument('0.01', '0.0001'), windowSize: 64 });
    b.apply(frame(true, [['100.00', '1'], ['99.99', '2'], ['50.00', '3']], [['100.01', '1'], ['250.00', '4']]));
    // The touch moves 100 windows up, then all the way back down below the start.
    b.apply(frame(false, [['100.00', '0'], ['99.99', '0'], ['164.00', '5']], [['100.01', '0'], ['164.01', '6']], 2));
    expect([b.bestBidPrice, b.bestAskPrice]).toEqual([16400, 16401]);
    b.apply(frame(false, [['164.00', '0'], ['60.00', '7']], [['164.01', '0'], ['60.01', '8']], 3));
    expect([b.bestBidPrice, b.bestAskPrice, b.bestBidQuantity]).toEqual([6000, 6001, 70000]);
    expect(normalised(b.topN('bid', 5))).toEqual([['60', '7'], ['50', '3']]);
    expect(normalised(b.topN('ask', 5))).toEqual([['60.01', '8'], ['250', '4']]);
    b.apply(frame(false, [['60.00', '0']], [], 4));
    expect(b.bestBidPrice).toBe(5000);
    b.apply(frame(false, [['50.00', '0']], [], 5));
    expect(b.bestBidPrice).toBeNaN();
    expect(b.size('bid')).toBe(0);
    expect(b.valid).toBe(true);
  });

  it('refuses a window size that is not a power of two in range', () => {
    for (const windowSize of [0, 32, 100, 2 ** 21, 1.5]) {
      expect(() => new OrderBook('X', { windowSize })).toThrow(ValidationError);
    }
    expect(new OrderBook('X', { windowSize: 64 }).size('bid')).toBe(0);
    for (const maxWindowSize of [32, 100, 2 ** 21]) {
      expect(() => new OrderBook('X', { windowSize: 64, maxWindowSize })).toThrow(/maxWindowSize/);
    }
    expect(() => new OrderBook('X', { windowSize: 4096, maxWindowSize: 1024 })).toThrow(/from windowSize/);
    expect(new OrderBook('X', { windowSize: 4096, maxWindowSize: 4096 }).valid).toBe(false);
  });
});

describe('OrderBook.mid()', () => {
  it('after every frame equals (best bid + best ask) / 2 of the naive book, cached or not', () => {
    fc.assert(
      fc.property(movingFrameSequence(3), (frames) => {
        const book = new OrderBook('TEST');
        const naive = new NaiveBook();
        for (const f of frames) {
          book.apply(f);
          naive.apply(f.snapshot, f.bids, f.asks);
          const bid = naive.levels('bid')[0]?.[0];
          const ask = naive.levels('ask')[0]?.[0];
          const expected = bid === undefined || ask === undefined ? undefined : new Decimal(bid).plus(ask).dividedBy(2).toFixed();
          const mid = book.mid();
          expect(mid === undefined ? undefined : new Decimal(mid).toFixed()).toBe(expected);
          // Asked twice without a change: the same text (served from the cache).
          expect(book.mid()).toBe(mid);
        }
      }),
    );
  });
});
