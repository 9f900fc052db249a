import type { Decimal } from '../../../framework/model/decimal.js';
import { ErrorCode } from '../../../framework/exchange/errors.js';
import type { FuturesAccounts } from '../futures/futures-accounts.js';
import type { MarginFundsPort } from '../funds-transfer.js';
import { VenueRejection, type AccountId } from '../venue-types.js';

/**
 * The isolated margin accounts' side of transfers (`VenueEngine.marginFunds`): each symbol with
 * margin trading is a pocket of `accounts` holding the symbol's margin currency; what may leave it
 * is its available margin (`FuturesAccounts.available`: the margin held for the position and
 * orders, and an unrealized loss, stay).
 */
export function marginFundsPort(accounts: FuturesAccounts): MarginFundsPort {
  const termsOf = (symbol: string) => {
    const terms = accounts.terms.get(symbol);
    if (terms === undefined) throw new VenueRejection(ErrorCode.ValidationError, `symbol ${symbol} has no margin trading`);
    return terms;
  };
  return {
    currencyOf: (symbol: string): string => termsOf(symbol).marginCurrency,
    withdrawable: (account: AccountId, symbol: string): Decimal => accounts.available(account, termsOf(symbol).pocket),
    credit: (account: AccountId, symbol: string, amount: Decimal): void => accounts.credit(account, termsOf(symbol).pocket, amount),
  };
}
