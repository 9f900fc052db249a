import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { leavesBand, movedBy, requoteBand } from '../../strategies/market-maker/quote-prices.js';

const price = fc.integer({ min: 1, max: 10_000_000 }).map((cents) => new Decimal(cents).dividedBy(100));
const bps = fc.integer({ min: 0, max: 500 }).map((n) => new Decimal(n).dividedBy(10));

describe('requote band', () => {
  it('gives the same verdict as movedBy for any quote price, target and minimum move', () => {
    fc.assert(fc.property(price, price, bps, (current, next, minimum) => {
      expect(leavesBand(requoteBand(current, minimum), next)).toBe(movedBy(current, next, minimum));
    }));
  });

  it('at the exact band edges: a move of exactly the minimum counts', () => {
    const band = requoteBand(new Decimal('3000'), new Decimal('1'));
    expect(leavesBand(band, new Decimal('3000.3'))).toBe(true);
    expect(leavesBand(band, new Decimal('3000.29'))).toBe(false);
    expect(leavesBand(band, new Decimal('2999.7'))).toBe(true);
    expect(leavesBand(requoteBand(new Decimal('3000'), new Decimal('0')), new Decimal('3000'))).toBe(false);
  });
});
