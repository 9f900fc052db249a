import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../framework/model/decimal.js';
import { intentKey, groupKey, legKey } from '../../framework/risk/reservation-key.js';
import { proportionalRemaining, ReservationLedger } from '../../framework/risk/reservation-ledger.js';
import { d } from './risk-fixtures.js';

describe('ReservationLedger', () => {
  it('two intents in flight cannot spend the same funds', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('USDT', d('1000'));
    expect(ledger.reserve(intentKey('a'), 'USDT', d('600'), d('1'))).toBe(true);
    expect(ledger.reserve(intentKey('b'), 'USDT', d('400.000001'), d('1'))).toBe(false);
    expect(ledger.reserve(intentKey('b'), 'USDT', d('400'), d('1'))).toBe(true);
    expect(ledger.free('USDT').toFixed()).toBe('0');
    expect(ledger.reserve(intentKey('a'), 'USDT', d('0'), d('1'))).toBe(false);
  });

  it('partial fills release proportionally and debit what was spent; the final fill ends it', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('USDT', d('10000'));
    ledger.reserve(intentKey('a'), 'USDT', d('2005'), d('1'));
    ledger.accept(intentKey('a'));
    expect(ledger.get(intentKey('a'))?.state).toBe('open');
    expect(ledger.fill(intentKey('a'), d('0.3'), d('600.9'))).toBe(true);
    expect(ledger.reserved('USDT').toFixed()).toBe('1403.5');
    expect(ledger.balance('USDT').toFixed()).toBe('9399.1');
    expect(ledger.fill(intentKey('a'), d('0.3'), d('600.9'))).toBe(false);
    expect(ledger.balance('USDT').toFixed()).toBe('9399.1');
    expect(ledger.fill(intentKey('a'), d('1'))).toBe(true);
    expect(ledger.get(intentKey('a'))).toBeUndefined();
    expect(ledger.reserved('USDT').toFixed()).toBe('0');
  });

  it('release is idempotent; amend moves an open reservation within the free funds', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('ETH', d('2'));
    ledger.reserve(intentKey('a'), 'ETH', d('1'), d('1'));
    expect(ledger.amend(intentKey('a'), d('2.5'), d('2.5'))).toBe(false);
    expect(ledger.amend(intentKey('a'), d('2'), d('2'))).toBe(true);
    expect(ledger.free('ETH').toFixed()).toBe('0');
    expect(ledger.release(intentKey('a'))).toBe(true);
    expect(ledger.release(intentKey('a'))).toBe(false);
    expect(ledger.reserved('ETH').toFixed()).toBe('0');
  });

  it('refuses negative amounts with a ValidationError naming the field', () => {
    const ledger = new ReservationLedger();
    expect(() => ledger.reserve(intentKey('a'), 'USDT', d('-1'), d('1'))).toThrow(/amount/);
    expect(() => ledger.reserve(intentKey('a'), 'USDT', d('1'), d('0'))).toThrow(/quantity/);
  });

  type Op =
    | { op: 'reserve'; key: number; amount: string; quantity: number }
    | { op: 'accept'; key: number }
    | { op: 'fill'; key: number; num: number; spendShare: number }
    | { op: 'release'; key: number };
  const key = fc.integer({ min: 0, max: 5 });
  const amount = fc.bigInt({ min: 0n, max: 10n ** 9n }).chain((units) => fc.integer({ min: 0, max: 6 }).map((s) => new Decimal(units.toString()).dividedBy(10 ** s).toFixed()));
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant('reserve' as const), key, amount, quantity: fc.integer({ min: 1, max: 1000 }) }),
    fc.record({ op: fc.constant('accept' as const), key }),
    fc.record({ op: fc.constant('fill' as const), key, num: fc.integer({ min: 0, max: 1000 }), spendShare: fc.integer({ min: 0, max: 100 }) }),
    fc.record({ op: fc.constant('release' as const), key }),
  );

  it('ends an intent\'s reservations, or one group of them, by the intent, whatever their currencies', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('USDT', d('1000'));
    ledger.setBalance('ETH', d('10'));
    ledger.reserve(legKey('L', 0), 'USDT', d('100'), d('1'));
    ledger.reserve(groupKey('L', 'oneCancelOther'), 'USDT', d('200'), d('1'));
    ledger.reserve(groupKey('L', 'oneCancelOther', 'ETH'), 'ETH', d('1'), d('1'));
    ledger.reserve(groupKey('L', 'exits'), 'ETH', d('2'), d('2'));
    // Another intent whose id starts the same way is not touched.
    ledger.reserve(intentKey('L1'), 'USDT', d('5'), d('1'));
    ledger.releaseGroup('L', 'oneCancelOther');
    expect([...ledger.entries()].map((r) => r.key.id).sort()).toEqual(['L#0', 'L#secondaries', 'L1']);
    ledger.releaseIntent('L');
    expect([...ledger.entries()].map((r) => r.key.id)).toEqual(['L1']);
    expect(ledger.reserved('USDT').toFixed()).toBe('5');
    expect(ledger.reserved('ETH').toFixed()).toBe('0');
  });

  it('property: covers(amount) is amount <= free, whether or not the free figure was computed since the last change', () => {
    const units = fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n });
    const text = (n: bigint): string => {
      const digits = (n < 0n ? -n : n).toString().padStart(5, '0');
      return `${n < 0n ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
    };
    fc.assert(fc.property(units, fc.array(fc.bigInt({ min: 1n, max: 10n ** 12n }), { maxLength: 4 }), fc.oneof(fc.constant(0n), units), fc.boolean(), (balance, held, amount, computed) => {
      const ledger = new ReservationLedger();
      ledger.setBalance('X', d(text(balance)));
      held.forEach((h, i) => ledger.reserve(intentKey(`h${i}`), 'X', d(text(h)), d('1')));
      if (computed) ledger.free('X');
      // Oracle: the balance less what the ledger holds, from its own figures.
      const expected = d(text(amount)).lessThanOrEqualTo(ledger.balance('X').minus(ledger.reserved('X')));
      expect(ledger.covers('X', d(text(amount)))).toBe(expected);
    }), { numRuns: 1000 });
  });

  it('ends a single order\'s reservation by its intent too, and nothing of another intent', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('USDT', d('1000'));
    ledger.reserve(intentKey('P'), 'USDT', d('100'), d('1'));
    ledger.reserve(intentKey('P2'), 'USDT', d('7'), d('1'));
    ledger.reserve(legKey('Q', 0), 'USDT', d('3'), d('1'));
    ledger.releaseIntent('P');
    expect([...ledger.entries()].map((r) => r.key.id).sort()).toEqual(['P2', 'Q#0']);
    expect(ledger.free('USDT').toFixed()).toBe('990');
    ledger.releaseIntent('Q');
    ledger.releaseIntent('unknown');
    expect([...ledger.entries()].map((r) => r.key.id)).toEqual(['P2']);
    expect(ledger.reserved('USDT').toFixed()).toBe('7');
  });

  it('property: never negative, total equals the sum of live reservations, never above the balance', () => {
    fc.assert(fc.property(amount, fc.array(op, { maxLength: 60 }), (balance, ops) => {
      const ledger = new ReservationLedger();
      ledger.setBalance('X', d(balance));
      for (const o of ops) {
        const k = intentKey(`k${o.key}`);
        if (o.op === 'reserve') ledger.reserve(k, 'X', d(o.amount), new Decimal(o.quantity));
        else if (o.op === 'accept') ledger.accept(k);
        else if (o.op === 'release') {
          ledger.release(k);
          expect(ledger.release(k)).toBe(false);
        } else {
          const r = ledger.get(k);
          if (r !== undefined) {
            const cumulative = r.quantity.times(o.num).dividedBy(1000).toDecimalPlaces(0, Decimal.ROUND_DOWN);
            // A fill never spends more than the share of the reservation it releases.
            const released = cumulative.greaterThan(r.filled) ? r.remaining.minus(proportionalRemaining(r.amount, r.quantity, cumulative)) : ZERO;
            ledger.fill(k, cumulative, released.times(o.spendShare).dividedBy(100));
          }
        }
        let sum = ZERO;
        for (const r of ledger.entries()) {
          expect(r.remaining.isNegative()).toBe(false);
          expect(r.remaining.lessThanOrEqualTo(r.amount)).toBe(true);
          sum = sum.plus(r.remaining);
        }
        expect(ledger.reserved('X').toFixed()).toBe(sum.toFixed());
        expect(ledger.reserved('X').lessThanOrEqualTo(ledger.balance('X'))).toBe(true);
        expect(ledger.balance('X').isNegative()).toBe(false);
      }
    }), { numRuns: 300 });
  });
});
