import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../framework/model/decimal.js';
import { Ledger, LedgerInvariantError } from '../../../backtest/venue/ledger.js';

describe('Ledger', () => {
  it('moves between available and reserved exactly and refuses overdrafts', () => {
    const l = new Ledger({ a: { spot: { USDT: '100' }, wallet: { USDT: '5' } } });
    expect(l.canReserve('a', 'USDT', new Decimal('100'))).toBe(true);
    expect(l.canReserve('a', 'USDT', new Decimal('100.01'))).toBe(false);
    l.setReserved('a', 'USDT', new Decimal('60.5'));
    expect(l.available('spot', 'a', 'USDT').toFixed()).toBe('39.5');
    l.spendReserved('a', 'USDT', new Decimal('60.5'));
    expect(() => l.spendReserved('a', 'USDT', new Decimal('0.1'))).toThrow(LedgerInvariantError);
    expect(() => l.setReserved('a', 'USDT', new Decimal('40'))).toThrow(LedgerInvariantError);
    expect(l.move('a', 'USDT', new Decimal('6'), 'wallet', 'spot')).toBe(false);
    expect(l.takeChanges().spot.get('a')).toEqual(['USDT']);
    expect(l.takeChanges().spot.size).toBe(0);
  });

  it('property: moves and reservations conserve the total', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 20000 }))), (ops) => {
        const l = new Ledger({ a: { spot: { X: '100' }, wallet: { X: '50' } } });
        for (const [op, n] of ops) {
          const amount = new Decimal(n).dividedBy(100);
          if (op === 0 && l.canReserve('a', 'X', amount)) l.setReserved('a', 'X', amount);
          if (op === 1) l.move('a', 'X', amount, 'spot', 'wallet');
          if (op === 2) l.move('a', 'X', amount, 'wallet', 'spot');
          if (op === 3) l.setReserved('a', 'X', new Decimal(0));
          expect(l.total('X').toFixed()).toBe('150');
          expect(l.available('spot', 'a', 'X').isNegative()).toBe(false);
        }
      }),
    );
  });
});
