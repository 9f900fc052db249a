import { ValidationError } from '../../framework/model/errors.js';
import type { InitialBalances } from '../venue/venue-types.js';

const CURRENCY = /^[A-Z0-9]{1,20}$/;
/** As the sandbox's account options accept them. */
const AMOUNT = /^\d+(\.\d+)?$/;

/**
 * Starting balances from `CUR=AMOUNT` texts (the sandbox CLI's repeatable `--balance`): the
 * currency in upper-case letters and digits, the amount a non-negative decimal written exactly
 * (no exponent, no sign), each currency once. Errors name the flag and the rule.
 */
export function parseBalanceFlags(texts: readonly string[], flag = '--balance'): InitialBalances {
  const balances: Record<string, string> = {};
  for (const text of texts) {
    const at = text.indexOf('=');
    if (at <= 0) throw new ValidationError(flag, 'must be CUR=AMOUNT, for example USDT=1000', text);
    const currency = text.slice(0, at);
    const amount = text.slice(at + 1);
    if (!CURRENCY.test(currency)) throw new ValidationError(`${flag} ${currency}`, 'currency must be 1-20 upper-case letters or digits', currency);
    if (!AMOUNT.test(amount)) {
      throw new ValidationError(`${flag} ${currency}`, 'amount must be a non-negative decimal number such as 1000 or 0.5', amount);
    }
    if (currency in balances) throw new ValidationError(`${flag} ${currency}`, 'currency given more than once', text);
    balances[currency] = amount;
  }
  return balances;
}
