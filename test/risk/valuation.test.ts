import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../framework/model/decimal.js';
import { valueHoldings } from '../../framework/risk/valuation.js';

describe('valueHoldings', () => {
  it('values the valuation currency at face value and the rest at their prices; nothing when a holding has no price', () => {
    const prices = new Map([['BTC', dec('60000.5')], ['ETH', dec('3000.25')]]);
    const holdings: [string, Decimal][] = [['USDT', dec('100.1')], ['BTC', dec('0.002')], ['ETH', dec('0')], ['SOL', dec('0')]];
    expect(valueHoldings(holdings, 'USDT', (c) => prices.get(c))?.toFixed()).toBe('220.101');
    expect(valueHoldings([...holdings, ['SOL', dec('1')]], 'USDT', (c) => prices.get(c))).toBeUndefined();
    expect(valueHoldings([], 'USDT', () => undefined)?.toFixed()).toBe('0');
  });

  it('property: equals the sum over holdings in integer hundredths (an oracle in BigInt)', () => {
    const holding = fc.tuple(fc.constantFrom('USDT', 'BTC', 'ETH'), fc.bigInt({ min: 0n, max: 10n ** 15n }));
    const price = fc.bigInt({ min: 1n, max: 10n ** 9n });
    fc.assert(fc.property(fc.array(holding, { maxLength: 8 }), price, price, (list, btc, eth) => {
      const cents = (n: bigint): Decimal => new Decimal(n.toString()).div(100);
      const prices: Record<string, bigint> = { USDT: 100n, BTC: btc, ETH: eth };
      // amount/100 * price/100 summed = sum(amount * price) / 10^4
      const expected = list.reduce((sum, [c, a]) => sum + a * prices[c]!, 0n);
      const value = valueHoldings(list.map(([c, a]) => [c, cents(a)] as const), 'USDT', (c) => cents(prices[c]!));
      expect(value?.toFixed()).toBe(new Decimal(expected.toString()).div(10_000).toFixed());
    }), { seed: 3, numRuns: 200 });
  });
});
