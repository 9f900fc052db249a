import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import type { Side } from '../../framework/model/instrument.js';
import { maxPositionCheck } from '../../framework/risk/max-position-check.js';
import { config, d, place, spotInstrument, spotState } from './risk-fixtures.js';

describe('maxPositionCheck', () => {
  const cfg = config({ symbolLimits: { ETHUSDT: { maxPosition: '10' } } });

  it('counts position + open orders on the same side + the order; exactly at the limit passes', () => {
    const state = spotState();
    state.positionsBySymbol.set('ETHUSDT', d('6'));
    state.orders.set('o1', { clientOrderId: 'o1', symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: d('3'), quantityCumulative: d('1'), price: d('1990') });
    state.orders.set('o2', { clientOrderId: 'o2', symbol: 'ETHUSDT', side: 'sell', type: 'limit', quantity: d('50'), quantityCumulative: d('0'), price: d('2010') });
    expect(maxPositionCheck(place({ side: 'buy', quantity: '2', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxPositionCheck(place({ side: 'buy', quantity: '2.0001', price: '2000' }), state, cfg)?.reason)
      .toBe('ETHUSDT: long exposure 10.0001 (position 6, open 2, order 2.0001) exceeds max position 10');
  });

  it('measures sells on the short side, so reducing orders pass', () => {
    const state = spotState();
    state.positionsBySymbol.set('ETHUSDT', d('12'));
    expect(maxPositionCheck(place({ side: 'sell', quantity: '12', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxPositionCheck(place({ side: 'sell', quantity: '22', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxPositionCheck(place({ side: 'sell', quantity: '22.0001', price: '2000' }), state, cfg)?.reason).toMatch(/short exposure 10.0001/);
    expect(maxPositionCheck(place({ side: 'buy', quantity: '0.0001', price: '2000' }), state, cfg)?.check).toBe('max-position');
  });

  it('property: agrees with a Decimal oracle at any quantity scale, near and beyond 2^53 units', () => {
    const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
    const units = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 6n }), fc.bigInt({ min: MAX_SAFE / 4n - 1000n, max: MAX_SAFE / 4n + 1000n }), fc.bigInt({ min: 0n, max: 10n ** 20n }));
    const positive = units.map((n) => n + 1n);
    const text = (n: bigint, scale: number): string => {
      const digits = n.toString().padStart(scale + 1, '0');
      return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    };
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 2 }), positive, units, fc.boolean(), fc.array(fc.tuple(units, units, fc.constantFrom<Side>('buy', 'sell'))), positive, fc.constantFrom<Side>('buy', 'sell'),
      (scale, extra, maxUnits, positionUnits, short, open, quantityUnits, side) => {
        const state = spotState();
        const instrument = spotInstrument({ quantity_increment: text(1n, scale) });
        state.instruments.set(instrument.symbol, instrument);
        // `extra` decimals beyond the scale put some figures off the integer path.
        const position = d(text(positionUnits, scale + (extra === 2 ? 1 : 0))).times(short ? -1 : 1);
        const max = d(text(maxUnits, scale + (extra === 1 ? 1 : 0)));
        state.positionsBySymbol.set('ETHUSDT', position);
        let sameSide = new Decimal(0);
        open.forEach(([q, filled], i) => {
          const quantity = d(text(q + filled, scale));
          state.orders.set(`o${i}`, { clientOrderId: `o${i}`, symbol: 'ETHUSDT', side: open[i]![2], type: 'limit', quantity, quantityCumulative: d(text(filled, scale)), price: d('2000') });
          if (open[i]![2] === side) sameSide = sameSide.plus(d(text(q, scale)));
        });
        const quantity = d(text(quantityUnits, scale));
        // Oracle: the worst-case exposure on the order's side, in Decimals.
        const exposure = (side === 'buy' ? position : position.negated()).plus(sameSide).plus(quantity);
        const verdict = maxPositionCheck(place({ side, quantity: quantity.toFixed(), price: '2000' }), state, config({ defaultLimits: { maxPosition: max.toFixed() } }));
        expect(verdict?.check).toBe(exposure.greaterThan(max) ? 'max-position' : undefined);
        if (verdict !== undefined) expect(verdict.reason).toContain(`exposure ${exposure.toFixed()}`);
      },
    ), { numRuns: 1500 });
  });
});
