import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyFill, FLAT, increases, type PositionGrid } from '../../../../backtest/venue/futures/position-math.js';

const fill = fc.record({
  side: fc.constantFrom('buy' as const, 'sell' as const),
  lots: fc.integer({ min: 1, max: 5_000 }),
  priceTicks: fc.integer({ min: 1, max: 1_000_000 }),
});

describe('applyFill', () => {
  it('opens, adds, reduces and flips with the entry value and PnL written out by hand', () => {
    // Long 10 lots at 100, add 10 at 110: entry value 2100 (average 105).
    let p = applyFill(FLAT, 'buy', 10, 100);
    expect(p).toEqual({ next: { lots: 10, entryUnits: 1000n }, realizedUnits: 0n, closedLots: 0, openedLots: 10 });
    p = applyFill(p.next, 'buy', 10, 110);
    expect(p.next).toEqual({ lots: 20, entryUnits: 2100n });
    // Sell 5 at 120: the closed share of the entry is 2100 x 5 / 20 = 525; realized 600 - 525 = 75.
    p = applyFill(p.next, 'sell', 5, 120);
    expect(p).toEqual({ next: { lots: 15, entryUnits: 1575n }, realizedUnits: 75n, closedLots: 5, openedLots: 0 });
    // Sell 20 at 90: closes 15 (realized 1350 - 1575 = -225) and opens a 5-lot short at 90.
    p = applyFill(p.next, 'sell', 20, 90);
    expect(p).toEqual({ next: { lots: -5, entryUnits: 450n }, realizedUnits: -225n, closedLots: 15, openedLots: 5 });
    // Buy 5 at 80 closes the short: realized 450 - 400 = 50.
    p = applyFill(p.next, 'buy', 5, 80);
    expect(p).toEqual({ next: FLAT, realizedUnits: 50n, closedLots: 5, openedLots: 0 });
  });

  it('rounds the closed share of the entry toward zero and keeps the remainder with the open lots', () => {
    // 3 lots with entry 100 + 100 + 101 = 301; closing 1 takes floor(301 / 3) = 100, 201 stays.
    const p = applyFill({ lots: 3, entryUnits: 301n }, 'sell', 1, 100);
    expect(p.next).toEqual({ lots: 2, entryUnits: 201n });
    expect(p.realizedUnits).toBe(0n);
  });

  it('refuses fills that are not positive safe integers', () => {
    expect(() => applyFill(FLAT, 'buy', 0, 1)).toThrow(RangeError);
    expect(() => applyFill(FLAT, 'buy', 1, 0)).toThrow(RangeError);
    expect(() => applyFill(FLAT, 'buy', 1.5, 1)).toThrow(RangeError);
    expect(() => applyFill({ lots: Number.MAX_SAFE_INTEGER, entryUnits: 1n }, 'buy', 1, 1)).toThrow(RangeError);
  });

  it('position = signed sum of fills; realized + unrealized at any mark = cash flows + mark value (oracle)', () => {
    fc.assert(fc.property(fc.array(fill, { maxLength: 60 }), fc.integer({ min: 1, max: 1_000_000 }), (fills, markTicks) => {
      let position: PositionGrid = FLAT;
      let realized = 0n;
      let signedLots = 0n;
      let cashFlow = 0n; // sells bring price x lots in, buys pay it out
      for (const f of fills) {
        const effect = applyFill(position, f.side, f.lots, f.priceTicks);
        expect(effect.closedLots + effect.openedLots).toBe(f.lots);
        position = effect.next;
        realized += effect.realizedUnits;
        const signed = BigInt(f.side === 'buy' ? f.lots : -f.lots);
        signedLots += signed;
        cashFlow -= signed * BigInt(f.priceTicks);
        expect(BigInt(position.lots)).toBe(signedLots);
        expect(position.entryUnits >= 0n).toBe(true);
        if (position.lots === 0) expect(position.entryUnits).toBe(0n);
      }
      const lots = BigInt(position.lots);
      const unrealized = lots >= 0n ? lots * BigInt(markTicks) - position.entryUnits : position.entryUnits + lots * BigInt(markTicks);
      expect(realized + unrealized).toBe(cashFlow + lots * BigInt(markTicks));
    }));
  });

  it('a round trip back to flat realizes exactly the cash flows', () => {
    fc.assert(fc.property(fc.array(fill, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 1_000_000 }), (fills, exitTicks) => {
      let position: PositionGrid = FLAT;
      let realized = 0n;
      let cashFlow = 0n;
      for (const f of fills) {
        const e = applyFill(position, f.side, f.lots, f.priceTicks);
        position = e.next;
        realized += e.realizedUnits;
        cashFlow += BigInt(f.side === 'buy' ? -f.lots : f.lots) * BigInt(f.priceTicks);
      }
      if (position.lots !== 0) {
        const side = position.lots > 0 ? 'sell' : 'buy';
        const e = applyFill(position, side, Math.abs(position.lots), exitTicks);
        expect(e.next).toEqual(FLAT);
        realized += e.realizedUnits;
        cashFlow += BigInt(side === 'buy' ? -Math.abs(position.lots) : Math.abs(position.lots)) * BigInt(exitTicks);
      }
      expect(realized).toBe(cashFlow);
    }));
  });

  it('increases: flat or the same direction', () => {
    expect(increases(FLAT, 'sell')).toBe(true);
    expect(increases({ lots: 3, entryUnits: 3n }, 'buy')).toBe(true);
    expect(increases({ lots: 3, entryUnits: 3n }, 'sell')).toBe(false);
    expect(increases({ lots: -3, entryUnits: 3n }, 'buy')).toBe(false);
  });
});
