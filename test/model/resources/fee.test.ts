import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeRateToWire, parseFeeRate, parseFeeRateList, type FeeRate } from '../../../framework/model/resources/fee.js';
import { decimal } from './arbitraries.js';

describe('fee rate', () => {
  it('reads a sample, including a negative (rebate) make rate', () => {
    const [f] = parseFeeRateList([{ symbol: 'ETHBTC', take_rate: '0.001', make_rate: '-0.0001' }]);
    expect(f?.take_rate.toFixed()).toBe('0.001');
    expect(f?.make_rate.isNegative()).toBe(true);
  });

  it('names the failing field', () => {
    expect(() => parseFeeRate({ symbol: 'ETHBTC', take_rate: 0.001 })).toThrow(/fee\.make_rate: is required/);
    expect(() => parseFeeRate({ symbol: 7, take_rate: '0', make_rate: '0' })).toThrow(/fee\.symbol: must be a string/);
  });

  it('round-trips', () => {
    const arb: fc.Arbitrary<FeeRate> = fc.record({
      symbol: fc.constantFrom('BTCUSDT', 'ETHBTC'),
      take_rate: decimal({ negative: true }),
      make_rate: decimal({ negative: true }),
    });
    fc.assert(
      fc.property(arb, (f) => {
        expect(parseFeeRate(JSON.parse(JSON.stringify(feeRateToWire(f))))).toEqual(f);
      }),
    );
  });
});
