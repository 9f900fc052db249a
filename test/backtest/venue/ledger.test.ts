import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../framework/model/decimal.js';
import { Funds } from '../../../framework/model/funds.js';
import { Ledger, LedgerInvariantError } from '../../../backtest/venue/ledger.js';

const units = (text: string): Funds => Funds.of(new Decimal(text), 'X', 'test');

/** A decimal of 0 to 30 integer digits and 0 to 18 decimals: beyond 2^53 units at either end. */
const amountText = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
  .map(([digits, scale]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    return scale === 0 ? text : `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`;
  });

describe('Ledger', () => {
  it('moves between available and reserved exactly and refuses overdrafts', () => {
    const l = new Ledger({ a: { spot: { USDT: '100' }, wallet: { USDT: '5' } } });
    expect(l.canReserve('a', 'USDT', units('100'))).toBe(true);
    expect(l.canReserve('a', 'USDT', units('100.01'))).toBe(false);
    l.setReserved('a', 'USDT', units('60.5'));
    expect(l.available('spot', 'a', 'USDT').toFixed()).toBe('39.5');
    l.spendReserved('a', 'USDT', new Decimal('60.5'));
    expect(() => l.spendReserved('a', 'USDT', new Decimal('0.1'))).toThrow(LedgerInvariantError);
    expect(() => l.setReserved('a', 'USDT', units('40'))).toThrow(LedgerInvariantError);
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
          if (op === 0 && l.canReserve('a', 'X', units(amount.toFixed()))) l.setReserved('a', 'X', units(amount.toFixed()));
          if (op === 1) l.move('a', 'X', amount, 'spot', 'wallet');
          if (op === 2) l.move('a', 'X', amount, 'wallet', 'spot');
          if (op === 3) l.setReserved('a', 'X', Funds.ZERO);
          expect(l.total('X').toFixed()).toBe('150');
          expect(l.available('spot', 'a', 'X').isNegative()).toBe(false);
        }
      }),
    );
  });

  it('property: balances match Decimal arithmetic at any scale and size, and refuse exactly the overdrafts it finds', () => {
    fc.assert(
      fc.property(amountText, fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), amountText), { maxLength: 30 }), (start, ops) => {
        const l = new Ledger({ a: { spot: { X: start } } });
        // The oracle: the same moves in decimal.js, written out here.
        let available = new Decimal(start);
        let reserved = new Decimal(0);
        let wallet = new Decimal(0);
        for (const [op, text] of ops) {
          const amount = new Decimal(text);
          if (op === 0) {
            const fits = !available.minus(amount.minus(reserved)).isNegative();
            expect(l.canReserve('a', 'X', units(text))).toBe(fits);
            if (fits) {
              l.setReserved('a', 'X', units(text));
              available = available.minus(amount.minus(reserved));
              reserved = amount;
            } else {
              expect(() => l.setReserved('a', 'X', units(text))).toThrow(LedgerInvariantError);
            }
          } else if (op === 1) {
            l.credit('a', 'X', amount);
            available = available.plus(amount);
          } else if (op === 2) {
            if (reserved.lessThan(amount)) {
              // An overdraft is a venue bug: the ledger is not used after it.
              expect(() => l.spendReserved('a', 'X', amount)).toThrow(LedgerInvariantError);
              return;
            } else {
              l.spendReserved('a', 'X', amount);
              reserved = reserved.minus(amount);
            }
          } else {
            const [from, to] = op === 3 ? (['spot', 'wallet'] as const) : (['wallet', 'spot'] as const);
            const source = from === 'spot' ? available : wallet;
            const moved = !source.lessThan(amount);
            expect(l.move('a', 'X', amount, from, to)).toBe(moved);
            if (moved) {
              available = from === 'spot' ? available.minus(amount) : available.plus(amount);
              wallet = from === 'spot' ? wallet.plus(amount) : wallet.minus(amount);
            }
          }
          expect(l.available('spot', 'a', 'X').toFixed()).toBe(available.toFixed());
          expect(l.reserved('spot', 'a', 'X').toFixed()).toBe(reserved.toFixed());
          expect(l.available('wallet', 'a', 'X').toFixed()).toBe(wallet.toFixed());
          expect(l.total('X').toFixed()).toBe(available.plus(reserved).plus(wallet).toFixed());
        }
      }),
    );
  });
});
