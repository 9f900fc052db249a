import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../framework/model/decimal.js';
import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';
import { Funds } from '../../../framework/model/funds.js';
import { effectiveRates } from '../../../backtest/venue/fees.js';
import { limitNeed, limitNeedOnGrid, marketNeed, Reservations } from '../../../backtest/venue/reservations.js';
import { ETHUSDT } from './support/venue-fixture.js';

const rates = effectiveRates(ETHUSDT.info);
const d = (s: string): Decimal => new Decimal(s);
const u = (s: string): Funds => Funds.of(d(s), 'X', 'test');

describe('reservation needs', () => {
  it('buy: price x quantity x (1 + max rate) in quote; sell: the base quantity; market buy: x 1.1', () => {
    const buy = limitNeed(ETHUSDT, 'buy', d('2000'), d('2'), rates);
    const sell = limitNeed(ETHUSDT, 'sell', d('2000'), d('2'), rates);
    expect([buy.currency, buy.amount.toFixed(), sell.currency, sell.amount.toFixed()]).toEqual(['USDT', '4010', 'ETH', '2']);
    expect(marketNeed(ETHUSDT, 'buy', d('2000'), d('1'), rates).amount.toFixed()).toBe('2205.5');
  });
});

describe('Reservations', () => {
  it('sums independent orders and holds a oneCancelOther group once (its largest need)', () => {
    const r = new Reservations();
    r.set(1, 'a', 'order:1', { currency: 'ETH', amount: u('1') });
    r.set(2, 'a', 'list:L', { currency: 'ETH', amount: u('2') });
    r.set(3, 'a', 'list:L', { currency: 'ETH', amount: u('1.5') });
    expect(r.total('a', 'ETH').toFixed()).toBe('3');
    r.set(2, 'a', 'list:L', undefined);
    expect(r.total('a', 'ETH').toFixed()).toBe('2.5');
    expect(r.totalWith(3, 'a', 'list:L', { currency: 'ETH', amount: u('4') }).toFixed()).toBe('5');
    expect(r.total('a', 'ETH').toFixed()).toBe('2.5');
    r.set(3, 'a', 'list:L', { currency: 'USDT', amount: u('10') });
    expect([r.total('a', 'ETH').toFixed(), r.total('a', 'USDT').toFixed()]).toEqual(['1', '10']);
  });
});

describe('Reservations.totalWith', () => {
  const step = fc.record({
    key: fc.integer({ min: 1, max: 5 }),
    group: fc.constantFrom('order:g1', 'list:L', 'list:M'),
    currency: fc.constantFrom('ETH', 'USDT'),
    amount: fc.option(fc.integer({ min: 0, max: 40 }).map((n) => u((n / 4).toString())), { nil: undefined }),
  });

  it('equals setting the need, reading the total and restoring, and changes nothing', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 12 }), step, (steps, probe) => {
      const r = new Reservations();
      const twin = new Reservations();
      for (const s of steps) {
        const need = s.amount === undefined ? undefined : { currency: s.currency, amount: s.amount };
        r.set(s.key, 'a', s.group, need);
        twin.set(s.key, 'a', s.group, need);
      }
      const need = { currency: probe.currency, amount: probe.amount ?? u('1') };
      const before = ['ETH', 'USDT'].map((c) => r.total('a', c).toFixed());
      const got = r.totalWith(probe.key, 'a', probe.group, need);
      twin.set(probe.key, 'a', probe.group, need);
      expect(got.toFixed()).toBe(twin.total('a', need.currency).toFixed());
      expect(['ETH', 'USDT'].map((c) => r.total('a', c).toFixed())).toEqual(before);
    }));
  });
});

describe('Reservations totals', () => {
  /** A decimal of 0 to 30 integer digits and 0 to 18 decimals: beyond 2^53 units at either end. */
  const amountText = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
    .map(([digits, scale]) => {
      const text = digits.toString().padStart(scale + 1, '0');
      return scale === 0 ? text : `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`;
    });
  const step = fc.record({
    key: fc.integer({ min: 1, max: 6 }),
    group: fc.constantFrom('order:g1', 'list:L', 'list:M'),
    currency: fc.constantFrom('ETH', 'USDT'),
    amount: fc.option(amountText, { nil: undefined }),
  });

  it('property: each total is the sum over groups of their largest holding, exactly, at any scale and size', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
      const r = new Reservations();
      // The oracle: the holdings themselves, summed in decimal.js here.
      const holdings = new Map<number, { group: string; currency: string; amount: Decimal }>();
      for (const s of steps) {
        r.set(s.key, 'a', s.group, s.amount === undefined ? undefined : { currency: s.currency, amount: u(s.amount) });
        if (s.amount === undefined || d(s.amount).isZero()) holdings.delete(s.key);
        else holdings.set(s.key, { group: s.group, currency: s.currency, amount: d(s.amount) });
        for (const currency of ['ETH', 'USDT']) {
          const largest = new Map<string, Decimal>();
          for (const h of holdings.values()) {
            if (h.currency === currency) largest.set(h.group, Decimal.max(largest.get(h.group) ?? d('0'), h.amount));
          }
          const expected = [...largest.values()].reduce((sum, x) => sum.plus(x), d('0'));
          expect(r.total('a', currency).toFixed()).toBe(expected.toFixed());
        }
        for (const [key, h] of holdings) expect(r.held(key).toFixed()).toBe(h.amount.toFixed());
      }
    }));
  });
});

describe('limitNeedOnGrid', () => {
  /** Symbols whose fees are charged in the quote, or in the base (then a sell provisions them). */
  const symbol = (feeCurrency: 'USDT' | 'ETH', tick: string, lot: string, take: string, make: string): Instrument =>
    new Instrument('ETHUSDT', parseSymbolInfo({
      type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: lot, tick_size: tick,
      take_rate: take, make_rate: make, fee_currency: feeCurrency,
    }));
  const rate = fc.tuple(fc.integer({ min: -500, max: 5000 }), fc.integer({ min: 2, max: 9 })).map(([n, scale]) => d(n.toString()).dividedBy(d('10').pow(scale)).toFixed());
  const step = fc.tuple(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 0, max: 10 })).map(([n, scale]) => d(n.toString()).dividedBy(d('10').pow(scale)).toFixed());
  // Counts up to 2^53 - 1: products beyond 2^53 units take the exact fallback.
  const count = fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));

  it('property: price x quantity (x 1 + max rate in the fee currency) exactly, as decimal.js works it out', () => {
    fc.assert(fc.property(
      fc.constantFrom('USDT' as const, 'ETH' as const), step, step, rate, rate, fc.constantFrom('buy' as const, 'sell' as const), count, count,
      (feeCurrency, tick, lot, take, make, side, ticks, lots) => {
        const inst = symbol(feeCurrency, tick, lot, take, make);
        const orderRates = effectiveRates(inst.info);
        // The oracle: the rule written out in decimal.js.
        const quantity = d(lot).times(lots);
        const principal = side === 'buy' ? d(tick).times(ticks).times(quantity) : quantity;
        const spent = side === 'buy' ? 'USDT' : 'ETH';
        const maxRate = Decimal.max(d(take), d(make), d('0'));
        const expected = feeCurrency === spent ? principal.times(maxRate.plus(1)) : principal;
        const need = limitNeedOnGrid(inst, side, ticks, lots, orderRates);
        expect([need.currency, need.amount.toFixed()]).toEqual([spent, expected.toFixed()]);
      },
    ));
  });
});
