import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lotsDecimal, ticksDecimal } from '../../../backtest/venue/grid-decimals.js';
import { BTCUSDT, ETHUSDT } from './support/venue-fixture.js';

describe('ticksDecimal and lotsDecimal', () => {
  it('equal the instrument\'s conversions, one instance per value and instrument', () => {
    fc.assert(fc.property(fc.constantFrom(ETHUSDT, BTCUSDT), fc.integer({ min: 0, max: 10_000_000 }), (instrument, n) => {
      expect(ticksDecimal(instrument, n).toFixed()).toBe(instrument.ticksToDecimal(n).toFixed());
      expect(lotsDecimal(instrument, n).toFixed()).toBe(instrument.lotsToDecimal(n).toFixed());
      expect(ticksDecimal(instrument, n)).toBe(ticksDecimal(instrument, n));
      expect(lotsDecimal(instrument, n)).toBe(lotsDecimal(instrument, n));
    }), { numRuns: 6000 });
    expect(ticksDecimal(ETHUSDT, 250_000).toFixed()).toBe('2500');
    expect(ticksDecimal(BTCUSDT, 250_000).toFixed()).toBe('25000');
  });
});
