import fc from 'fast-check';
import type { BookLevelText, OrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';

/** Decimal text of `units` x 10^-decimals, with `padding` gratuitous trailing zeros. */
export function decimalText(units: number | bigint, decimals: number, padding: number): string {
  let digits = units.toString();
  if (decimals > 0) {
    digits = digits.padStart(decimals + 1, '0');
    digits = `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`;
  }
  if (padding > 0) digits += (decimals === 0 ? '.' : '') + '0'.repeat(padding);
  return digits;
}

/** Prices on a small range so updates hit existing levels often; some with many decimals, a few huge. */
export const priceText = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 })).map(([u, d, p]) => decimalText(u * 10 ** d, d, p)) },
  { weight: 3, arbitrary: fc.tuple(fc.integer({ min: 1, max: 600_000 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 2 })).map(([u, d, p]) => decimalText(u, d, p)) },
  { weight: 1, arbitrary: fc.tuple(fc.bigInt({ min: 10n ** 15n, max: 10n ** 17n }), fc.integer({ min: 0, max: 3 })).map(([u, d]) => decimalText(u, d, 0)) },
);

/** Quantities: "0" (removal) often, ordinary values, a few huge ones. */
export const quantityText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('0', '0.0', '0.0000') },
  { weight: 10, arbitrary: fc.tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2 })).map(([u, d, p]) => decimalText(u, d, p)) },
  { weight: 1, arbitrary: fc.tuple(fc.bigInt({ min: 10n ** 15n, max: 10n ** 18n }), fc.integer({ min: 0, max: 4 })).map(([u, d]) => decimalText(u, d, 0)) },
);

const level: fc.Arbitrary<BookLevelText> = fc.tuple(priceText, quantityText);

/** A snapshot then updates (sometimes another snapshot), sequences +1 each. */
export const frameSequence: fc.Arbitrary<OrderBookFrame[]> = fc
  .array(fc.tuple(fc.boolean(), fc.array(level, { maxLength: 12 }), fc.array(level, { maxLength: 12 }), fc.integer({ min: 0, max: 20 })), { minLength: 1, maxLength: 30 })
  .map((steps) =>
    steps.map(([_, bids, asks, reset], i) => ({
      symbol: 'TEST',
      sequence: i + 1,
      exchangeTime: 1_700_000_000_000 + i,
      receivedAt: 1_700_000_000_001 + i,
      snapshot: i === 0 || reset === 0,
      asks,
      bids,
    })),
  );

/** Quantities to walk the book with. */
export const walkQuantity = fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 6 })).map(([u, d]) => decimalText(u, d, 0));

/**
 * A snapshot then updates around a touch that drifts by up to ±`maxDrift` ticks a frame (2
 * decimals), with most levels within 40 ticks of the touch and a few up to 10^6 ticks away: with a
 * small window this crosses the window edges, recentres it and parks levels outside it.
 */
export function movingFrameSequence(maxDrift: number): fc.Arbitrary<OrderBookFrame[]> {
  const offset = fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) },
  );
  const change = fc.tuple(offset, fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 5_000 }) }));
  const step = fc.tuple(fc.integer({ min: -maxDrift, max: maxDrift }), fc.array(change, { maxLength: 10 }), fc.array(change, { maxLength: 10 }));
  return fc.array(step, { minLength: 1, maxLength: 40 }).map((steps) => {
    let touch = 2_000_000;
    return steps.map(([drift, bids, asks], i) => {
      touch = Math.max(1_100_000, touch + drift);
      const level = (ticks: number, quantity: number): BookLevelText => [decimalText(ticks, 2, 0), decimalText(quantity, 4, 0)];
      return {
        symbol: 'TEST',
        sequence: i + 1,
        exchangeTime: 1_700_000_000_000 + i,
        receivedAt: 1_700_000_000_001 + i,
        snapshot: i === 0,
        // Bids at or below the touch, asks above it: a drifting touch may still cross the book.
        bids: bids.map(([away, quantity]) => level(touch - away, quantity)),
        asks: asks.map(([away, quantity]) => level(touch + 1 + away, quantity)),
      };
    });
  });
}
