import type { Instrument } from '../../../framework/model/instrument.js';
import { ValidationError } from '../../../framework/model/errors.js';
import type { AccountBalances } from '../ledger.js';
import type { InitialBalances } from '../venue-types.js';

/**
 * The starting balances of an account that trades `instruments` on margin, from balances by
 * currency (a backtest's or a paper run's): each quote currency's amount becomes the margin balance
 * of the isolated account of the one instrument quoted in it, the other currencies stay on spot.
 * Two instruments sharing a quote currency are refused: an amount is never split, so which account
 * holds what stays the user's choice.
 */
export function marginFunding(instruments: readonly Instrument[], balances: InitialBalances): AccountBalances {
  const margin: Record<string, string> = {};
  const spot: Record<string, string> = { ...balances };
  for (const [index, instrument] of instruments.entries()) {
    const quote = instrument.quoteCurrency;
    if (instruments.findIndex((i) => i.quoteCurrency === quote) !== index) {
      throw new ValidationError(`strategy.symbols[${index}]`, `must not share its quote currency ${quote} with another symbol on a margin account: each isolated account is funded from one balance`, instrument.symbol);
    }
    margin[instrument.symbol] = balances[quote] ?? '0';
    delete spot[quote];
  }
  return { spot, margin };
}
