import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../framework/model/errors.js';
import { parseBalanceFlags } from '../../../backtest/sandbox/balance-flags.js';

function refusal(texts: readonly string[]): ValidationError {
  try {
    parseBalanceFlags(texts);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('parseBalanceFlags', () => {
  it('reads CUR=AMOUNT pairs, amounts kept as written', () => {
    expect(parseBalanceFlags(['USDT=1000', 'BTC=0.5', 'ETH=0'])).toEqual({ USDT: '1000', BTC: '0.5', ETH: '0' });
    expect(parseBalanceFlags([])).toEqual({});
  });

  it.each([
    ['USDT', 'CUR=AMOUNT'],
    ['=5', 'CUR=AMOUNT'],
    ['usdt=5', 'currency'],
    ['US-DT=5', 'currency'],
    ['USDT=', 'amount'],
    ['USDT=-5', 'amount'],
    ['USDT=1e3', 'amount'],
    ['USDT=1.', 'amount'],
    ['USDT=abc', 'amount'],
  ])('refuses %s naming the rule', (text, rule) => {
    const error = refusal([text]);
    expect(error.message).toContain('--balance');
    expect(error.message).toContain(rule);
  });

  it('refuses a currency given twice', () => {
    expect(refusal(['USDT=1', 'USDT=2']).message).toContain('more than once');
  });

  it('round-trips any valid set of balances', () => {
    const currency = fc.stringMatching(/^[A-Z0-9]{1,20}$/);
    const amount = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.option(fc.stringMatching(/^\d{1,18}$/), { nil: undefined }))
      .map(([whole, fraction]) => (fraction === undefined ? whole.toString() : `${whole}.${fraction}`));
    fc.assert(fc.property(fc.dictionary(currency, amount), (balances) => {
      const texts = Object.entries(balances).map(([c, a]) => `${c}=${a}`);
      expect(parseBalanceFlags(texts)).toEqual(balances);
    }));
  });
});
