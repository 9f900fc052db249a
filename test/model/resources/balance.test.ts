import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseTradingBalance, parseTradingBalanceList, parseWalletBalance, parseWalletBalanceList, tradingBalanceToWire,
  walletBalanceToWire, type TradingBalance, type WalletBalance,
} from '../../../framework/model/resources/balance.js';
import { code, compact, decimal } from './arbitraries.js';

describe('trading balance', () => {
  it('reads the list and the single-currency form that omits currency', () => {
    const list = parseTradingBalanceList([
      { currency: 'ETH', available: '10.000000000', reserved: '0.560000000', reserved_margin: '0' },
      { currency: 'BTC', available: '0.010205869', reserved: '0' },
    ]);
    expect(list[0]?.reserved.toFixed()).toBe('0.56');
    expect(list[1]?.reserved_margin).toBeUndefined();
    const single = parseTradingBalance({ available: '1.5', reserved: '0' });
    expect(single.currency).toBeUndefined();
    expect(single.available.toFixed()).toBe('1.5');
  });

  it('names the failing field', () => {
    expect(() => parseTradingBalanceList([{ currency: 'ETH', available: '1', reserved: '0' }, { currency: 'BTC', available: '1' }]))
      .toThrow(/balances\[1\]\.reserved: is required/);
  });

  it('round-trips', () => {
    const arb: fc.Arbitrary<TradingBalance> = fc
      .record({
        currency: fc.option(code(), { nil: undefined }),
        available: decimal(),
        reserved: decimal(),
        reserved_margin: fc.option(decimal(), { nil: undefined }),
      })
      .map(compact);
    fc.assert(
      fc.property(arb, (b) => {
        expect(parseTradingBalance(JSON.parse(JSON.stringify(tradingBalanceToWire(b))))).toEqual(b);
      }),
    );
  });
});

describe('wallet balance', () => {
  it('reads a sample and rejects a non-decimal amount', () => {
    const [b] = parseWalletBalanceList([{ currency: 'USDT', available: '100.5', reserved: '0.000000000' }]);
    expect(b?.available.toFixed()).toBe('100.5');
    expect(() => parseWalletBalance({ currency: 'USDT', available: '1e', reserved: '0' })).toThrow(/balance\.available/);
    expect(() => parseWalletBalance({ available: '1', reserved: '0' })).toThrow(/balance\.currency: is required/);
  });

  it('round-trips', () => {
    const arb: fc.Arbitrary<WalletBalance> = fc.record({ currency: code(), available: decimal(), reserved: decimal() });
    fc.assert(
      fc.property(arb, (b) => {
        expect(parseWalletBalance(JSON.parse(JSON.stringify(walletBalanceToWire(b))))).toEqual(b);
      }),
    );
  });
});
