import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import { Instrument } from '../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';

function instrument(tick: string, lot: string): Instrument {
  return new Instrument('TESTUSDT', parseSymbolInfo({
    type: 'spot', base_currency: 'TEST', quote_currency: 'USDT', quantity_increment: lot, tick_size: tick,
    take_rate: '0.001', make_rate: '0.0005', fee_currency: 'USDT',
  }));
}

const grids = fc.constantFrom(['0.01', '0.001'], ['0.05', '0.1'], ['0.000001', '1'], ['5', '0.00001'], ['0.25', '10']);
const price = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 14n }), fc.integer({ min: 0, max: 9 }))
  .map(([units, s]) => new Decimal(units.toString()).dividedBy(new Decimal(10).pow(s)));
const side = fc.constantFrom('buy' as const, 'sell' as const);

describe('Instrument', () => {
  it('examples on a 0.05 tick', () => {
    const i = instrument('0.05', '0.1');
    expect(i.quantizePriceHalfDown(new Decimal('1.025')).toFixed()).toBe('1');
    expect(i.quantizePriceHalfDown(new Decimal('1.026')).toFixed()).toBe('1.05');
    expect(i.roundPricePassive('buy', new Decimal('1.04')).toFixed()).toBe('1');
    expect(i.roundPricePassive('sell', new Decimal('1.01')).toFixed()).toBe('1.05');
    expect(i.priceToTicks('2684.05')).toBe(53681);
    expect(i.priceToTicks('2684.07')).toBeNaN();
    expect(i.ticksToPrice(53681)).toBe('2684.05');
    expect(() => i.assertValidQuantity(new Decimal('0.15'))).toThrow(ValidationError);
  });

  it('half-down quantize lands on the grid within half a step, ties going down', () => {
    fc.assert(
      fc.property(grids, price, ([tick, lot], p) => {
        const i = instrument(tick, lot);
        const q = i.quantizePriceHalfDown(p);
        expect(q.mod(i.tickSize).isZero()).toBe(true);
        const distance = q.minus(p).abs();
        const half = i.tickSize.dividedBy(2);
        expect(distance.lte(half)).toBe(true);
        if (distance.equals(half)) expect(q.lt(p)).toBe(true);
        const qq = i.quantizeQuantityHalfDown(p);
        expect(qq.mod(i.quantityIncrement).isZero()).toBe(true);
        expect(qq.minus(p).abs().lte(i.quantityIncrement.dividedBy(2))).toBe(true);
      }),
    );
  });

  it('passive rounding never worsens the price for the side, and stays within one tick', () => {
    fc.assert(
      fc.property(grids, price, side, ([tick, lot], p, s) => {
        const i = instrument(tick, lot);
        const r = i.roundPricePassive(s, p);
        expect(r.mod(i.tickSize).isZero()).toBe(true);
        if (s === 'buy') expect(r.lte(p)).toBe(true);
        else expect(r.gte(p)).toBe(true);
        expect(r.minus(p).abs().lt(i.tickSize)).toBe(true);
        const a = i.roundPriceAggressive(s, p);
        if (s === 'buy') expect(a.gte(p)).toBe(true);
        else expect(a.lte(p)).toBe(true);
      }),
    );
  });

  it('ticks and lots round trip', () => {
    fc.assert(
      fc.property(grids, fc.integer({ min: 0, max: 2 ** 40 }), ([tick, lot], n) => {
        const i = instrument(tick, lot);
        const text = i.ticksToPrice(n);
        expect(i.priceToTicks(text)).toBe(n);
        expect(i.ticksToDecimal(n).equals(i.tickSize.times(n))).toBe(true);
        expect(i.quantityToLots(i.lotsToQuantity(n))).toBe(n);
        expect(i.lotsToDecimal(n).equals(i.quantityIncrement.times(n))).toBe(true);
      }),
    );
  });
});
