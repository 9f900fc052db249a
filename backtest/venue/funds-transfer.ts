import type { Decimal } from '../../framework/model/decimal.js';
import { ErrorCode } from '../../framework/exchange/errors.js';
import type { VenueEngine } from './venue-engine.js';
import { VenueRejection, type AccountId } from './venue-types.js';

/** Where an account of the venue holds funds: its wallet, spot trading account, futures margin or margin accounts. */
export type FundsPocket = 'wallet' | 'spot' | 'futures' | 'margin';

/**
 * What a transfer needs of the isolated margin accounts: the hook through which they take part in
 * {@link moveFunds} (`VenueEngine.marginFunds`). Funds move in and out of an account's margin
 * balance of a currency; what is held for orders and positions stays.
 */
export interface MarginFundsPort {
  /** What the account could take out of its margin balance in the currency (free of orders and positions). */
  withdrawable(account: AccountId, currency: string): Decimal;
  /** Adds (negative: takes) to the account's margin balance in the currency. */
  credit(account: AccountId, currency: string, amount: Decimal): void;
}

/**
 * Moves `amount` (positive) of `currency` between two pockets of one account, all or nothing:
 * - wallet and spot: their available funds;
 * - futures: the margin cash, of which only what `FuturesAccounts.available` allows may leave (the
 *   margin held for positions and orders, and unrealized losses, stay);
 * - margin: through `engine.marginFunds`; without margin accounts at the venue it is refused
 *   (10001, naming the pocket).
 * A short source is 20001 Insufficient funds naming the pocket, and nothing moves. The caller
 * checks which pairs its request allows (the spec's `POST /wallet/transfer` knows wallet and spot
 * only; futures margin moves through `PUT /futures/account/isolated/{symbol}`) and commits.
 */
export function moveFunds(engine: VenueEngine, account: AccountId, currency: string, amount: Decimal, from: FundsPocket, to: FundsPocket): void {
  if (from === to) throw new VenueRejection(ErrorCode.ValidationError, 'destination must differ from source');
  if (!amount.greaterThan(0)) throw new VenueRejection(ErrorCode.ValidationError, 'amount must be a positive number');
  if ((from === 'margin' || to === 'margin') && engine.marginFunds === undefined) {
    throw new VenueRejection(ErrorCode.ValidationError, 'margin accounts are not available at this venue');
  }
  if (withdrawable(engine, account, currency, from).lessThan(amount)) {
    throw new VenueRejection(ErrorCode.InsufficientFunds, `not enough ${currency} available in ${from} to move ${amount.toFixed()}`);
  }
  take(engine, account, currency, amount, from);
  give(engine, account, currency, amount, to);
}

/** What may leave a pocket of the account in the currency. */
export function withdrawable(engine: VenueEngine, account: AccountId, currency: string, pocket: FundsPocket): Decimal {
  switch (pocket) {
    case 'wallet':
    case 'spot':
      return engine.ledger.available(pocket, account, currency);
    case 'futures':
      return engine.futures.available(account, currency);
    case 'margin':
      return marginPort(engine).withdrawable(account, currency);
  }
}

function take(engine: VenueEngine, account: AccountId, currency: string, amount: Decimal, pocket: FundsPocket): void {
  give(engine, account, currency, amount.negated(), pocket);
}

function give(engine: VenueEngine, account: AccountId, currency: string, amount: Decimal, pocket: FundsPocket): void {
  switch (pocket) {
    case 'wallet':
      engine.ledger.creditWallet(account, currency, amount);
      return;
    case 'spot':
      engine.ledger.credit(account, currency, amount);
      return;
    case 'futures':
      engine.futures.credit(account, currency, amount);
      return;
    case 'margin':
      marginPort(engine).credit(account, currency, amount);
  }
}

function marginPort(engine: VenueEngine): MarginFundsPort {
  const port = engine.marginFunds;
  if (port === undefined) throw new VenueRejection(ErrorCode.ValidationError, 'margin accounts are not available at this venue');
  return port;
}
