import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../framework/model/decimal.js';
import { UnrepresentableValueError } from '../../framework/model/errors.js';
import { intentKey, groupKey, legKey } from '../../framework/risk/reservation-key.js';
import { proportionalRemaining, ReservationLedger } from '../../framework/risk/reservation-ledger.js';
import { d, f } from './risk-fixtures.js';

describe('ReservationLedger', () => {
  it('two intents in flight cannot spend the same funds', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('USDT', d('1000'));
    expect(ledger.reserve(intentKey('a'), 'USDT', f('600'), d('1'))).toBe(true);
    expect(ledger.reserve(intentKey('b'), 'USDT', f('400.000001'), d('1'))).toBe(false);
    expect(ledger.reserve(intentKey('b'), 'USDT', f('400'), d('1'))).toBe(true);
    expect(ledger.free('USDT').toFixed()).toBe('0');
    expect(ledger.reserve(intentKey('a'), 'USDT', f('0'), d('1'))).toBe(false);
  });

  it('partial fills release proportionally and debit what was spent; the final fill ends it', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('USDT', d('10000'));
    ledger.reserve(intentKey('a'), 'USDT', f('2005'), d('1'));
    ledger.accept(intentKey('a'));
    expect(ledger.get(intentKey('a'))?.state).toBe('open');
    expect(ledger.fill(intentKey('a'), d('0.3'), f('600.9'))).toBe(true);
    expect(ledger.reserved('USDT').toFixed()).toBe('1403.5');
    expect(ledger.balance('USDT').toFixed()).toBe('9399.1');
    expect(ledger.fill(intentKey('a'), d('0.3'), f('600.9'))).toBe(false);
    expect(ledger.balance('USDT').toFixed()).toBe('9399.1');
    expect(ledger.fill(intentKey('a'), d('1'))).toBe(true);
    expect(ledger.get(intentKey('a'))).toBeUndefined();
    expect(ledger.reserved('USDT').toFixed()).toBe('0');
  });

  it('release is idempotent; amend moves an open reservation within the free funds', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('ETH', d('2'));
    ledger.reserve(intentKey('a'), 'ETH', f('1'), d('1'));
    expect(ledger.amend(intentKey('a'), f('2.5'), d('2.5'))).toBe(false);
    expect(ledger.amend(intentKey('a'), f('2'), d('2'))).toBe(true);
    expect(ledger.free('ETH').toFixed()).toBe('0');
    expect(ledger.release(intentKey('a'))).toBe(true);
    expect(ledger.release(intentKey('a'))).toBe(false);
    expect(ledger.reserved('ETH').toFixed()).toBe('0');
  });

  it('refuses a balance that is not a finite number with an UnrepresentableValueError naming the currency', () => {
    const ledger = new ReservationLedger();
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => ledger.setBalance('USDT', new Decimal(bad))).toThrow(UnrepresentableValueError);
    }
    expect(() => ledger.setBalance('USDT', new Decimal(Number.NaN))).toThrow(/USDT balance/);
    expect(ledger.balance('USDT').isZero()).toBe(true);
  });

  it('refuses negative amounts with a ValidationError naming the field', () => {
    const ledger = new ReservationLedger();
    expect(() => ledger.reserve(intentKey('a'), 'USDT', f('-1'), d('1'))).toThrow(/amount/);
    expect(() => ledger.reserve(intentKey('a'), 'USDT', f('1'), d('0'))).toThrow(/quantity/);
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
    ledger.reserve(legKey('L', 0), 'USDT', f('100'), d('1'));
    ledger.reserve(groupKey('L', 'oneCancelOther'), 'USDT', f('200'), d('1'));
    ledger.reserve(groupKey('L', 'oneCancelOther', 'ETH'), 'ETH', f('1'), d('1'));
    ledger.reserve(groupKey('L', 'exits'), 'ETH', f('2'), d('2'));
    // Another intent whose id starts the same way is not touched.
    ledger.reserve(intentKey('L1'), 'USDT', f('5'), d('1'));
    ledger.releaseGroup('L', 'oneCancelOther');
    expect([...ledger.entries()].map((r) => r.key.id).sort()).toEqual(['L#0', 'L#secondaries', 'L1']);
    ledger.releaseIntent('L');
    expect([...ledger.entries()].map((r) => r.key.id)).toEqual(['L1']);
    expect(ledger.reserved('USDT').toFixed()).toBe('5');
    expect(ledger.reserved('ETH').toFixed()).toBe('0');
  });

  it('property: reserve and covers agree with a Decimal oracle, at mixed scales and beyond 2^53 units', () => {
    // Units up to 10^20 at 0 to 18 decimals: many of them beyond 2^53 at their own scale or once rescaled.
    const amountText = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 18 })).map(([n, scale]) => decimalText(n, scale));
    const positive = amountText.filter((t) => !t.startsWith('-'));
    fc.assert(fc.property(amountText, fc.array(positive, { maxLength: 5 }), fc.oneof(fc.constant('0'), positive), fc.boolean(), (balance, held, amount, computed) => {
      const ledger = new ReservationLedger();
      ledger.setBalance('X', d(balance));
      // Oracle: a reservation is taken when it fits under the balance less what is already held, in Decimals.
      let sum = ZERO;
      held.forEach((h, i) => {
        const fits = d(h).lessThanOrEqualTo(d(balance).minus(sum));
        expect(ledger.reserve(intentKey(`h${i}`), 'X', f(h), d('1'))).toBe(fits);
        if (fits) sum = sum.plus(d(h));
      });
      if (computed) expect(ledger.free('X').toFixed()).toBe(d(balance).minus(sum).toFixed());
      expect(ledger.reserved('X').toFixed()).toBe(sum.toFixed());
      expect(ledger.covers('X', f(amount))).toBe(d(amount).lessThanOrEqualTo(d(balance).minus(sum)));
    }), { numRuns: 1000 });
  });

  it('property: proportionalRemaining is amount x (quantity - filled) / quantity rounded up at 18 decimals, at most the amount', () => {
    const units = fc.bigInt({ min: 0n, max: 10n ** 22n });
    fc.assert(fc.property(units, fc.integer({ min: 0, max: 18 }), fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 8 }), fc.bigInt({ min: -10n, max: 10n ** 12n + 10n }), (a, aScale, q, qScale, filledUnits) => {
      const amount = d(decimalText(a, aScale));
      const quantity = d(decimalText(q, qScale));
      const filled = d(decimalText(filledUnits, qScale));
      // Oracle: the rational quotient in BigInts, rounded up on the 10^-18 grid.
      let expected: Decimal;
      if (!filled.lessThan(quantity)) expected = ZERO;
      else if (!filled.isPositive() || filled.isZero()) expected = amount;
      else {
        const aUnits = a * 10n ** BigInt(18 - aScale);
        const numerator = aUnits * (q - filledUnits);
        const share = (numerator + q - 1n) / q;
        expected = Decimal.min(d(decimalText(share, 18)), amount);
      }
      expect(proportionalRemaining(f(amount.toFixed()), quantity, filled).toFixed()).toBe(expected.toFixed());
    }), { numRuns: 2000 });
  });

  it('ends a single order\'s reservation by its intent too, and nothing of another intent', () => {
    const ledger = new ReservationLedger();
    ledger.setBalance('USDT', d('1000'));
    ledger.reserve(intentKey('P'), 'USDT', f('100'), d('1'));
    ledger.reserve(intentKey('P2'), 'USDT', f('7'), d('1'));
    ledger.reserve(legKey('Q', 0), 'USDT', f('3'), d('1'));
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
        if (o.op === 'reserve') ledger.reserve(k, 'X', f(o.amount), new Decimal(o.quantity));
        else if (o.op === 'accept') ledger.accept(k);
        else if (o.op === 'release') {
          ledger.release(k);
          expect(ledger.release(k)).toBe(false);
        } else {
          const r = ledger.get(k);
          if (r !== undefined) {
            const cumulative = r.quantity.times(o.num).dividedBy(1000).toDecimalPlaces(0, Decimal.ROUND_DOWN);
            // A fill never spends more than the share of the reservation it releases.
            const released = cumulative.greaterThan(r.filled) ? r.remaining.minus(proportionalRemaining(r.amount, r.quantity, cumulative)).toDecimal() : ZERO;
            ledger.fill(k, cumulative, f(released.times(o.spendShare).dividedBy(100).toFixed()));
          }
        }
        let sum = ZERO;
        for (const r of ledger.entries()) {
          expect(r.remaining.isNegative()).toBe(false);
          expect(r.remaining.lessThanOrEqualTo(r.amount)).toBe(true);
          sum = sum.plus(r.remaining.toDecimal());
        }
        expect(ledger.reserved('X').toFixed()).toBe(sum.toFixed());
        expect(ledger.reserved('X').lessThanOrEqualTo(ledger.balance('X'))).toBe(true);
        expect(ledger.balance('X').isNegative()).toBe(false);
      }
    }), { numRuns: 300 });
  });
});

/** Decimal text of `units` x 10^-`scale`, written independently of the code under test. */
function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}
