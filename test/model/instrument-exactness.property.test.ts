import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnrepresentableValueError } from '../../framework/model/errors.js';
import { Instrument } from '../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';

const MAX = 2n ** 53n - 1n;

/** A grid step as (digits, decimals): 25 and 3 is 0.025. Steps from 10^-12 to 1000. */
const step = fc.tuple(fc.constantFrom(1n, 2n, 5n, 25n, 1000n), fc.integer({ min: 0, max: 12 }))
  .map(([d, places]) => {
    let [digits, decimals]: [bigint, number] = [d, places];
    while (decimals > 0 && digits % 10n === 0n) [digits, decimals] = [digits / 10n, decimals - 1];
    return { digits, decimals, text: oracleText(digits, decimals) };
  });

/** Counts from 1 to far beyond 2^53, weighted towards the boundary. */
const count = fc.oneof(
  fc.bigInt({ min: 1n, max: 10n ** 6n }),
  fc.bigInt({ min: MAX - 1000n, max: MAX + 1000n }),
  fc.bigInt({ min: 1n, max: 2n ** 70n }),
);

/** The exact decimal text of `units` x 10^-decimals, written with BigInt only (the oracle). */
function oracleText(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  if (decimals === 0) return digits;
  return `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`;
}

function instrumentOf(tick: { text: string }, lot: { text: string }): Instrument {
  return new Instrument('EXTUSDT', parseSymbolInfo({
    type: 'spot', base_currency: 'EXT', quote_currency: 'USDT', tick_size: tick.text, quantity_increment: lot.text,
    take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
  }));
}

/** The conversion's answer, or the typed error's field, as a comparable value. */
function outcome(convert: () => number): number | string {
  try {
    return convert();
  } catch (error) {
    if (error instanceof UnrepresentableValueError) return `unrepresentable ${error.field}`;
    throw error;
  }
}

describe('Instrument integer conversions on extreme grids', () => {
  it('a price on the grid is its exact tick count, or UnrepresentableValueError beyond 2^53 - 1 ticks', () => {
    fc.assert(fc.property(step, step, count, (tick, lot, ticks) => {
      const instrument = instrumentOf(tick, lot);
      const text = oracleText(ticks * tick.digits, tick.decimals);
      expect(outcome(() => instrument.priceToTicks(text))).toEqual(ticks <= MAX ? Number(ticks) : 'unrepresentable price');
      if (ticks <= MAX) expect(instrument.ticksToPrice(Number(ticks))).toBe(text);
    }), { numRuns: 3000 });
  });

  it('a quantity on the grid is its exact lot count, or UnrepresentableValueError beyond 2^53 - 1 lots', () => {
    fc.assert(fc.property(step, step, count, (tick, lot, lots) => {
      const instrument = instrumentOf(tick, lot);
      const text = oracleText(lots * lot.digits, lot.decimals);
      expect(outcome(() => instrument.quantityToLots(text))).toEqual(lots <= MAX ? Number(lots) : 'unrepresentable quantity');
      if (lots <= MAX) {
        expect(instrument.lotsToQuantity(Number(lots))).toBe(text);
        expect(instrument.lotsToDecimal(Number(lots)).toFixed()).toBe(text.includes('.') ? text.replace(/\.?0+$/, '') : text);
      }
    }), { numRuns: 3000 });
  });

  it('a text off the grid has no count (NaN, never a rounded one), at any size', () => {
    fc.assert(fc.property(step, count, (lot, lots) => {
      const instrument = instrumentOf({ text: '0.01' }, lot);
      // One unit of the next decimal past the grid's: never a multiple of the step.
      const text = `${oracleText(lots * lot.digits * 10n + 1n, lot.decimals + 1)}`;
      expect(instrument.quantityToLots(text)).toBeNaN();
    }), { numRuns: 1000 });
  });

  it('a count that is not a safe integer is refused, never formatted', () => {
    const instrument = instrumentOf({ text: '0.01' }, { text: '0.00000001' });
    for (const bad of [Number.NaN, 2 ** 53, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => instrument.ticksToPrice(bad)).toThrow(UnrepresentableValueError);
      expect(() => instrument.lotsToQuantity(bad)).toThrow(UnrepresentableValueError);
    }
  });

  it('refuses a grid step that is not an exact integer number of units', () => {
    expect(() => instrumentOf({ text: '90071992547409930' }, { text: '1' })).toThrow(/EXTUSDT tick_size/);
  });
});
