import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import { leavesBand, leavesTickBand, movedBy, requoteBand, tickBand } from '../../strategies/market-maker/quote-prices.js';

const price = fc.integer({ min: 1, max: 10_000_000 }).map((cents) => new Decimal(cents).dividedBy(100));
const bps = fc.integer({ min: 0, max: 500 }).map((n) => new Decimal(n).dividedBy(10));
const anyBps = fc.oneof(bps, fc.integer({ min: 0, max: 500_000 }).map((n) => new Decimal(n).dividedBy(1000)), fc.integer({ min: 0, max: 50 }).map((n) => new Decimal(n)));

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

describe('tick band', () => {
  const instrument = (tick: string): Instrument => new Instrument('ETHUSDT', parseSymbolInfo({
    type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: tick,
    take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
  }));
  const instruments = [instrument('0.01'), instrument('0.05'), instrument('1'), instrument('0.25')];

  it('gives the same verdict as the Decimal band for any quote price and target, on or off the grid', () => {
    const near = fc.tuple(fc.boolean(), fc.integer({ min: -2, max: 2 }), fc.integer({ min: -3000, max: 3000 }));
    fc.assert(fc.property(fc.constantFrom(...instruments), fc.boolean(), anyBps, fc.integer({ min: 1, max: 1_000_000 }), near, (inst, offGrid, minimum, p, [edge, delta, anywhere]) => {
      const current = inst.tickSize.times(p).plus(offGrid ? '0.003' : '0');
      // Targets at the band's edges (the half-width in ticks, rounded, +/- 2) or anywhere near.
      const half = new Decimal(p).times(minimum).dividedBy(10_000).round().toNumber();
      const offset = edge ? (delta < 0 ? -half : half) + delta : anywhere;
      if (p + offset <= 0) return;
      const next = inst.tickSize.times(p + offset);
      const ticks = inst.priceToTicks(next.toFixed());
      const band = tickBand(inst, current, minimum);
      // Off the grid the band has no integer form and says so: the Decimal band answers then.
      expect(leavesTickBand(band, ticks) === undefined).toBe(offGrid);
      expect(leavesTickBand(band, ticks) ?? leavesBand(requoteBand(current, minimum), next)).toBe(leavesBand(requoteBand(current, minimum), next));
    }), { numRuns: 5000 });
  });
});
