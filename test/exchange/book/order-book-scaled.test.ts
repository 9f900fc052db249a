import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../../framework/exchange/book/order-book.js';
import type { BookFrame, BookLevelText, OrderBookFrame, ScaledOrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import { frameSequence, movingFrameSequence } from './book-arbitraries.js';
import { bookInstrument } from './book-instrument.js';
import { NaiveBook, normalised } from './naive-book.js';
import { scaledUnits } from './scaled-units.js';

const PRICE_SCALE = 2;
const QUANTITY_SCALE = 4;
const INSTRUMENT = bookInstrument('TEST', '0.01', '0.0001');

/** The frame as a decoder makes it at the instrument's scales; undefined when one of its values does not fit them. */
function asScaled(frame: OrderBookFrame): ScaledOrderBookFrame | undefined {
  const levels = (list: readonly BookLevelText[]): number[] | undefined => {
    const out: number[] = [];
    for (const [price, quantity] of list) {
      const p = scaledUnits(price, PRICE_SCALE);
      const q = scaledUnits(quantity, QUANTITY_SCALE);
      if (p === undefined || q === undefined) return undefined;
      out.push(p, q);
    }
    return out;
  };
  const askLevels = levels(frame.asks);
  const bidLevels = levels(frame.bids);
  if (askLevels === undefined || bidLevels === undefined) return undefined;
  const { symbol, sequence, exchangeTime, receivedAt, snapshot } = frame;
  return { symbol, sequence, exchangeTime, receivedAt, snapshot, priceScale: PRICE_SCALE, quantityScale: QUANTITY_SCALE, askLevels, bidLevels };
}

/** What per-event readers see of a book. */
function readings(book: OrderBook): unknown[] {
  const read = (get: () => number): number | string => {
    try {
      return get();
    } catch (error) {
      return (error as Error).name;
    }
  };
  return [
    book.valid, book.crossed, book.size('bid'), book.size('ask'), book.priceScale, book.quantityScale, book.mid(), book.spread(),
    read(() => book.bestBidPrice), read(() => book.bestAskPrice), read(() => book.bestBidQuantity), read(() => book.bestAskQuantity),
    book.sequence, book.exchangeTime, book.receivedAt,
  ];
}

describe('OrderBook: frames with scaled levels', () => {
  it('property: scaled snapshots and updates give the naive book and the readings of the same frames as text, after every frame', () => {
    fc.assert(
      fc.property(movingFrameSequence(300), (frames) => {
        const fromScaled = new OrderBook('TEST', { instrument: INSTRUMENT, windowSize: 64 });
        const fromText = new OrderBook('TEST', { instrument: INSTRUMENT, windowSize: 64 });
        const naive = new NaiveBook();
        for (const frame of frames) {
          const decoded = asScaled(frame);
          expect(decoded).toBeDefined();
          fromScaled.apply(decoded!);
          fromText.apply(frame);
          naive.apply(frame.snapshot, frame.bids, frame.asks);
          expect(readings(fromScaled)).toEqual(readings(fromText));
          expect(fromScaled.crossed).toBe(naive.crossed());
        }
        expect(normalised(fromScaled.topN('bid', Infinity))).toEqual(naive.levels('bid'));
        expect(normalised(fromScaled.topN('ask', Infinity))).toEqual(naive.levels('ask'));
      }),
      { numRuns: 300 },
    );
  });

  it('property: scaled frames mixed with text ones (finer or huge values that raise the scales or stay beyond 2^53) match the text book', () => {
    fc.assert(
      fc.property(frameSequence, (frames) => {
        const mixed = new OrderBook('TEST', { instrument: INSTRUMENT });
        const fromText = new OrderBook('TEST', { instrument: INSTRUMENT });
        const naive = new NaiveBook();
        for (const frame of frames) {
          // As the live socket does: scaled when every value fits the instrument's scales, else the text.
          const input: BookFrame = asScaled(frame) ?? frame;
          mixed.apply(input);
          fromText.apply(frame);
          naive.apply(frame.snapshot, frame.bids, frame.asks);
          expect(readings(mixed)).toEqual(readings(fromText));
        }
        expect(normalised(mixed.topN('bid', Infinity))).toEqual(naive.levels('bid'));
        expect(normalised(mixed.topN('ask', Infinity))).toEqual(naive.levels('ask'));
      }),
      { numRuns: 300 },
    );
  });

  it('rebalances only the side an update changed, leaving the other side\'s best as it was', () => {
    const book = new OrderBook('TEST', { instrument: INSTRUMENT, windowSize: 64 });
    const frame = (snapshot: boolean, sequence: number, bidLevels: number[], askLevels: number[]): ScaledOrderBookFrame => ({
      symbol: 'TEST', sequence, exchangeTime: sequence, receivedAt: sequence, snapshot, priceScale: PRICE_SCALE, quantityScale: QUANTITY_SCALE, bidLevels, askLevels,
    });
    book.apply(frame(true, 1, [10_000, 1, 9_999, 2], [10_001, 3]));
    book.apply(frame(false, 2, [10_000, 0], []));
    expect([book.bestBidPrice, book.bestBidQuantity, book.bestAskPrice, book.bestAskQuantity]).toEqual([9_999, 2, 10_001, 3]);
    // The touch moves far beyond the 64-tick window on the ask side only.
    book.apply(frame(false, 3, [], [10_001, 0, 50_000, 4]));
    expect([book.bestBidPrice, book.bestAskPrice, book.bestAskQuantity, book.valid]).toEqual([9_999, 50_000, 4, true]);
    book.apply(frame(false, 4, [60_000, 5], []));
    expect([book.crossed, book.valid]).toEqual([true, false]);
  });
});
