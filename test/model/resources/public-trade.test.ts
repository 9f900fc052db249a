import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parsePublicTrade, parsePublicTradeList, parsePublicTradeMap, publicTradeToWire, type PublicTrade,
} from '../../../framework/model/resources/public-trade.js';
import { decimalText, id, timeMs } from './arbitraries.js';

describe('public trade', () => {
  it('reads keyed arrays and a single list', () => {
    const map = parsePublicTradeMap({
      ETHBTC: [{ id: 1175851866285, price: '0.020585', qty: '0.0410', side: 'sell', timestamp: '2021-07-07T20:08:16.123Z' }],
    });
    expect(map['ETHBTC']?.[0]?.id).toBe('1175851866285');
    expect(map['ETHBTC']?.[0]?.qty).toBe('0.0410');
    expect(parsePublicTradeList([])).toEqual([]);
  });

  it('names the failing field', () => {
    expect(() => parsePublicTradeMap({ ETHBTC: [{ id: 1, price: '1', qty: '1', side: 'short', timestamp: 1 }] }))
      .toThrow(/trades\.ETHBTC\[0\]\.side: must be one of buy, sell/);
    expect(() => parsePublicTrade({ id: 1.5, price: '1', qty: '1', side: 'buy', timestamp: 1 })).toThrow(/trade\.id/);
  });

  it('round-trips', () => {
    const arb: fc.Arbitrary<PublicTrade> = fc.record({
      id: id(), price: decimalText(), qty: decimalText(), side: fc.constantFrom('buy' as const, 'sell' as const), timestamp: timeMs(),
    });
    fc.assert(
      fc.property(arb, (t) => {
        expect(parsePublicTrade(JSON.parse(JSON.stringify(publicTradeToWire(t))))).toEqual(t);
      }),
    );
  });
});
