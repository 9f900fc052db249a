import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { dec, ZERO } from '../../../framework/model/decimal.js';
import type { Decimal } from '../../../framework/model/decimal.js';
import { ValidationError } from '../../../framework/model/errors.js';
import type { FillRecord } from '../../../backtest/report/backtest-result.js';
import { fill, order, point, result } from './result-fixture.js';

const text = (record: Readonly<Record<string, Decimal>>): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v.toFixed()]));

describe('computeMetrics', () => {
  it('reports PnL by currency as final - initial over both key sets, keys sorted', () => {
    const m = computeMetrics(result({
      initialBalances: { USDT: dec('1000'), BTC: dec('0') },
      finalBalances: { USDT: dec('900.5'), ETH: dec('2'), BTC: dec('1') },
    }));
    expect(text(m.pnlByCurrency)).toEqual({ BTC: '1', ETH: '2', USDT: '-99.5' });
    expect(Object.keys(m.pnlByCurrency)).toEqual(['BTC', 'ETH', 'USDT']);
  });

  it('takes quote PnL and return from the first and last equity sample', () => {
    const m = computeMetrics(result({ equity: [point(0, '1000'), point(60_000, '990'), point(120_000, '1050')] }));
    expect(m.pnlQuote.toFixed()).toBe('50');
    expect(m.returnFraction).toBeCloseTo(0.05, 12);
    expect(computeMetrics(result()).returnFraction).toBeUndefined();
  });

  it('sums fees per currency and values base fees at the fill price', () => {
    const m = computeMetrics(result({
      fills: [
        fill(1, 'buy', '100', '1', '0.001', { feeCurrency: 'BTC' }),
        fill(2, 'sell', '120', '1', '0.12'),
        fill(3, 'sell', '120', '1', '3', { feeCurrency: 'BNB' }),
      ],
    }));
    expect(text(m.feesByCurrency)).toEqual({ BNB: '3', BTC: '0.001', USDT: '0.12' });
    expect(m.feesQuote.toFixed()).toBe('0.22');
    expect(m.feesNotValued).toEqual(['BNB']);
  });

  it('computes maker share by count and by notional, and counts orders and fills', () => {
    const m = computeMetrics(result({
      fills: [fill(1, 'buy', '100', '1', '0', { liquidity: 'maker' }), fill(2, 'buy', '100', '3')],
      orders: [order('a'), order('b'), order('c')],
    }));
    expect(m.makerShareByCount).toBe(0.5);
    expect(m.makerShareByNotional).toBe(0.25);
    expect(m.tradedNotional.toFixed()).toBe('400');
    expect([m.orders, m.fills]).toEqual([3, 2]);
    expect(computeMetrics(result()).makerShareByCount).toBeUndefined();
  });

  it('counts a round trip per position cycle, flat to flat, whatever the number of fills', () => {
    // Long 1 @ 100 then 1 @ 110, out with 1.5 @ 120 and 0.5 @ 100: one trip.
    // Sells 180 + 50 - buys 100 + 110 = 20, fees 1 + 1 + 1.5 + 0.5 = 4 -> 16.
    const m = computeMetrics(result({
      fills: [
        fill(1, 'buy', '100', '1', '1'), fill(2, 'buy', '110', '1', '1'),
        fill(3, 'sell', '120', '1.5', '1.5'), fill(4, 'sell', '100', '0.5', '0.5'),
      ],
    }));
    expect([m.roundTrips, m.winningRoundTrips, m.winRate]).toEqual([1, 1, 1]);
    expect(m.roundTripPnl.toFixed()).toBe('16');
  });

  it('counts one buy and one sell of the same quantity as one round trip, also when the buy filled in pieces', () => {
    const whole = computeMetrics(result({ fills: [fill(1, 'buy', '100', '2', '0.2'), fill(2, 'sell', '99', '2', '0.198')] }));
    // 198 - 200 - 0.2 - 0.198
    expect([whole.roundTrips, whole.winningRoundTrips, whole.roundTripPnl.toFixed()]).toEqual([1, 0, '-2.398']);
    const pieces = computeMetrics(result({
      fills: [fill(1, 'buy', '100', '0.5', '0.05'), fill(1, 'buy', '100', '1.5', '0.15'), fill(2, 'sell', '99', '2', '0.198')],
    }));
    expect([pieces.roundTrips, pieces.roundTripPnl.toFixed()]).toEqual([1, '-2.398']);
  });

  it('splits a fill that reverses the position between the trip it closes and the one it opens', () => {
    // Long 1 @ 100; sell 3 @ 110 (fee 0.3): 1 closes the long (fee 0.1) -> 10 - 0.1 = 9.9;
    // 2 open a short (fee 0.2), bought back @ 105 -> 2 x 5 - 0.2 = 9.8.
    const m = computeMetrics(result({
      fills: [fill(1, 'buy', '100', '1'), fill(2, 'sell', '110', '3', '0.3'), fill(3, 'buy', '105', '2')],
    }));
    expect([m.roundTrips, m.winningRoundTrips]).toEqual([2, 2]);
    expect(m.roundTripPnl.toFixed()).toBe('19.7');
  });

  it('counts short round trips and leaves an open position out', () => {
    const m = computeMetrics(result({
      fills: [fill(1, 'sell', '100', '1'), fill(2, 'buy', '90', '1'), fill(3, 'buy', '90', '5')],
    }));
    expect([m.roundTrips, m.winRate]).toEqual([1, 1]);
    expect(m.roundTripPnl.toFixed()).toBe('10');
  });

  /** Equity every minute from 100, moved by `moves` in turn (e.g. 1.1 for +10 %), exactly. */
  const curve = (moves: readonly string[], count: number): ReturnType<typeof point>[] => {
    const points = [point(0, '100')];
    let value = dec('100');
    for (let k = 0; k < count; k++) {
      value = value.times(moves[k % moves.length]!);
      points.push(point((k + 1) * 60_000, value.toFixed()));
    }
    return points;
  };

  it('annualises Sharpe and Sortino over 30 one-minute returns of 10%, -10%, 10%, ...', () => {
    const m = computeMetrics(result({ equity: curve(['1.1', '0.9', '1.1'], 30) }));
    // mean 1/30; deviations 1/15 (x20) and -2/15 (x10): sum of squares 4/15, sample variance
    // 4/15/29 = 4/435; downside deviation sqrt(10 x 0.01 / 30) = sqrt(1/300); 525600 minutes a year.
    expect(m.periodMs).toBe(60_000);
    expect(m.returns).toBe(30);
    expect(m.sharpe).toBeCloseTo((Math.sqrt(435) / 60) * Math.sqrt(525_600), 6);
    expect(m.sortino).toBeCloseTo(Math.sqrt(525_600 / 3), 6);
    expect([m.sharpeUnavailable, m.sortinoUnavailable]).toEqual([undefined, undefined]);
  });

  it('gives no Sharpe or Sortino from fewer than 30 returns, and says why', () => {
    const m = computeMetrics(result({ equity: curve(['1.1', '0.9', '1.1'], 29) }));
    expect([m.returns, m.sharpe, m.sortino]).toEqual([29, undefined, undefined]);
    expect(m.sharpeUnavailable).toBe('29 returns, fewer than the 30 needed');
    expect(m.sortinoUnavailable).toBe(m.sharpeUnavailable);
    const rising = computeMetrics(result({ equity: curve(['1.1', '1.2'], 30) }));
    expect(rising.sharpe).toBeGreaterThan(0);
    expect([rising.sortino, rising.sortinoUnavailable]).toEqual([undefined, 'no return is negative']);
    const flat = computeMetrics(result({ equity: curve(['1'], 30) }));
    expect([flat.sharpe, flat.sharpeUnavailable]).toEqual([undefined, 'the returns do not vary']);
  });

  it('resamples on the period grid holding the last sample, so extra samples between do not count', () => {
    const sparse = curve(['1.1', '0.9', '1.1'], 30);
    const dense = sparse.flatMap((p, i) => (i === 0 ? [p] : [point(p.time - 30_000, '1'), p]));
    expect(computeMetrics(result({ equity: dense })).sharpe).toBe(computeMetrics(result({ equity: sparse })).sharpe);
    expect(computeMetrics(result({ equity: [point(0, '1'), point(30_000, '2')] }), { periodMs: 10_000 }).returns)
      .toBe(3);
  });

  it('finds the deepest drawdown, its duration to recovery, and the longest one to the end', () => {
    const m = computeMetrics(result({
      equity: [
        point(0, '100'), point(10, '50'), point(20, '100'), point(30, '200'),
        point(40, '180'), point(50, '170'), point(60, '160'),
      ],
    }));
    expect(m.maxDrawdown).toBe(0.5);
    expect(m.maxDrawdownAmount.toFixed()).toBe('50');
    expect(m.maxDrawdownDurationMs).toBe(20);
    expect(m.longestDrawdownMs).toBe(30);
    const under = computeMetrics(result({ equity: [point(0, '100'), point(10, '80'), point(20, '90')] }));
    expect([under.maxDrawdown, under.maxDrawdownDurationMs]).toEqual([0.2, 20]);
  });

  it('measures exposure and turnover time-weighted', () => {
    const m = computeMetrics(result({
      equity: [point(0, '1000'), point(100, '1000', '1'), point(300, '3000', '0'), point(400, '1000')],
      fills: [fill(100, 'buy', '100', '1'), fill(300, 'sell', '300', '1')],
    }));
    expect(m.exposure).toBe(0.5);
    // (1000 * 100 + 1000 * 200 + 3000 * 100) / 400 = 1500; notional 400 / 1500
    expect(m.averageEquity.toFixed()).toBe('1500');
    expect(m.turnover).toBeCloseTo(400 / 1500, 12);
  });

  it('refuses a non-positive period and samples or fills out of time order', () => {
    expect(() => computeMetrics(result(), { periodMs: 0 })).toThrow(ValidationError);
    expect(() => computeMetrics(result({ equity: [point(0, '1'), point(86_400_000, '1')] }), { periodMs: 1 }))
      .toThrow('periodMs');
    expect(() => computeMetrics(result({ equity: [point(10, '1'), point(5, '1')] }))).toThrow('equity[1].time');
    expect(() => computeMetrics(result({ fills: [fill(10, 'buy', '1', '1'), fill(9, 'sell', '1', '1')] })))
      .toThrow('fills[1].time');
  });
});

const amount = fc.integer({ min: 1, max: 100_000 }).map((n) => dec(n).dividedBy(100));
const fillArb = fc.record({
  side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
  price: amount, quantity: fc.integer({ min: 1, max: 20 }), fee: fc.integer({ min: 0, max: 5 }),
});

/** Fills that end flat: a closing fill is appended for whatever position is left. */
function flatFills(specs: readonly { side: 'buy' | 'sell'; price: Decimal; quantity: number; fee: number }[]): FillRecord[] {
  const fills = specs.map((s, i) => fill(i, s.side, s.price.toFixed(), String(s.quantity), String(s.fee)));
  const net = specs.reduce((n, s) => n + (s.side === 'buy' ? s.quantity : -s.quantity), 0);
  if (net !== 0) fills.push(fill(specs.length, net > 0 ? 'sell' : 'buy', '50', String(Math.abs(net)), '1'));
  return fills;
}

describe('computeMetrics properties', () => {
  it('keeps max drawdown in [0, 1] and its amount and duration within the curve', () => {
    fc.assert(fc.property(fc.array(amount, { minLength: 1, maxLength: 40 }), (values) => {
      const m = computeMetrics(result({ equity: values.map((v, i) => point(i * 1000, v.toFixed())) }));
      expect(m.maxDrawdown).toBeGreaterThanOrEqual(0);
      expect(m.maxDrawdown).toBeLessThanOrEqual(1);
      const peak = values.reduce((a, b) => (a.greaterThan(b) ? a : b));
      expect(m.maxDrawdownAmount.greaterThanOrEqualTo(ZERO) && m.maxDrawdownAmount.lessThanOrEqualTo(peak)).toBe(true);
      expect(m.maxDrawdownDurationMs).toBeLessThanOrEqual(m.longestDrawdownMs);
      expect(m.longestDrawdownMs).toBeLessThanOrEqual((values.length - 1) * 1000);
    }));
  });

  it('finds the same max drawdown as a brute-force search over every pair of samples', () => {
    fc.assert(fc.property(fc.array(amount, { minLength: 1, maxLength: 30 }), (values) => {
      let fraction = ZERO;
      let drop = ZERO;
      values.forEach((peak, i) => values.slice(i + 1).forEach((later) => {
        const d = peak.minus(later);
        if (d.greaterThan(drop)) drop = d;
        if (d.dividedBy(peak).greaterThan(fraction)) fraction = d.dividedBy(peak);
      }));
      const m = computeMetrics(result({ equity: values.map((v, i) => point(i * 1000, v.toFixed())) }));
      expect(m.maxDrawdown).toBe(fraction.toNumber());
      expect(m.maxDrawdownAmount.toFixed()).toBe(drop.toFixed());
    }));
  });

  it('keeps exposure in [0, 1] and Sharpe and Sortino on the same side of zero', () => {
    const sample = fc.tuple(amount, fc.boolean());
    fc.assert(fc.property(fc.array(sample, { minLength: 1, maxLength: 60 }), (samples) => {
      const equity = samples.map(([v, held], i) => point(i * 60_000, v.toFixed(), held ? '1' : '0'));
      const m = computeMetrics(result({ equity }));
      expect(m.exposure).toBeGreaterThanOrEqual(0);
      expect(m.exposure).toBeLessThanOrEqual(1);
      if (m.sharpe !== undefined && m.sortino !== undefined) expect(Math.sign(m.sortino)).toBe(Math.sign(m.sharpe));
    }));
  });

  it('keeps win rate in [0, 1] and round trips no more than fills', () => {
    fc.assert(fc.property(fc.array(fillArb, { maxLength: 30 }), (specs) => {
      const m = computeMetrics(result({ fills: flatFills(specs) }));
      expect(m.roundTrips).toBeLessThanOrEqual(m.fills);
      if (m.winRate !== undefined) {
        expect(m.winRate).toBeGreaterThanOrEqual(0);
        expect(m.winRate).toBeLessThanOrEqual(1);
      }
    }));
  });

  it('counts one round trip each time the position comes back to zero or goes through it', () => {
    fc.assert(fc.property(fc.array(fillArb, { maxLength: 30 }), (specs) => {
      const fills = flatFills(specs);
      let position = 0;
      let closes = 0;
      for (const f of fills) {
        const next = position + (f.side === 'buy' ? 1 : -1) * f.quantity.toNumber();
        if (position !== 0 && (next === 0 || Math.sign(next) !== Math.sign(position))) closes++;
        position = next;
      }
      expect(computeMetrics(result({ fills })).roundTrips).toBe(closes);
    }));
  });

  const cashFlow = (fills: readonly FillRecord[]): Decimal =>
    fills.reduce((s, f) => s.plus(f.price.times(f.quantity).times(f.side === 'sell' ? 1 : -1)).minus(f.fee), ZERO);

  it('round-trip PnL of a flat book equals its cash flow, exactly when no fee is split', () => {
    const noFees = fillArb.map((f) => ({ ...f, fee: 0 }));
    fc.assert(fc.property(fc.array(noFees, { maxLength: 30 }), (specs) => {
      const fills = flatFills(specs).map((f) => ({ ...f, fee: ZERO }));
      expect(computeMetrics(result({ fills })).roundTripPnl.toFixed()).toBe(cashFlow(fills).toFixed());
    }));
  });

  it('round-trip PnL of a flat book equals cash flow minus fees, up to pro-rata rounding at 50 digits', () => {
    fc.assert(fc.property(fc.array(fillArb, { maxLength: 30 }), (specs) => {
      const fills = flatFills(specs);
      const diff = computeMetrics(result({ fills })).roundTripPnl.minus(cashFlow(fills)).abs();
      expect(diff.lessThan(dec('1e-30'))).toBe(true);
    }));
  });

  it('PnL by currency equals final - initial for each currency', () => {
    const balances = fc.dictionary(fc.constantFrom('USDT', 'BTC', 'ETH', 'XRP'), amount);
    fc.assert(fc.property(balances, balances, (initial, final) => {
      const m = computeMetrics(result({ initialBalances: initial, finalBalances: final }));
      for (const currency of new Set([...Object.keys(initial), ...Object.keys(final)])) {
        const expected = (final[currency] ?? ZERO).minus(initial[currency] ?? ZERO);
        expect(m.pnlByCurrency[currency]?.toFixed()).toBe(expected.toFixed());
      }
    }));
  });
});

describe('computeMetrics fee valuation', () => {
  it('values fees in the symbol quote for round trips but only quote-valued fees in feesQuote', () => {
    const eth = { symbol: 'ETHBTC' } as const;
    const m = computeMetrics(result({
      fills: [
        fill(1, 'buy', '0.05', '2', '0.01', { ...eth, feeCurrency: 'ETH' }),
        fill(2, 'sell', '0.06', '2', '0.0001', { ...eth, feeCurrency: 'BTC' }),
      ],
    }));
    // gross 2 * 0.01 = 0.02 BTC, fees 0.01 ETH * 0.05 + 0.0001 BTC = 0.0006 BTC
    expect(m.roundTripPnl.toFixed()).toBe('0.0194');
    expect(m.feesQuote.toFixed()).toBe('0');
    expect(m.feesNotValued).toEqual(['BTC', 'ETH']);
  });
});
