import type { Decimal } from '../../framework/model/decimal.js';
import { ErrorCode } from '../../framework/exchange/errors.js';
import type { VenueEngine } from './venue-engine.js';
import { VenueRejection, type AccountId } from './venue-types.js';

/**
 * One isolated margin account of a venue account: the one of a spot symbol with margin trading,
 * holding the symbol's quote currency (document 001 funds each from the spot trading account).
 */
export interface IsolatedMarginPocket {
  readonly margin: string;
}

/** Where an account of the venue holds funds: its wallet, spot trading account, futures margin or an isolated margin account. */
export type FundsPocket = 'wallet' | 'spot' | 'futures' | IsolatedMarginPocket;

/**
 * What a transfer needs of the isolated margin accounts: the hook through which they take part in
 * {@link moveFunds} (`VenueEngine.marginFunds`). Funds move in and out of a symbol's isolated
 * account's margin balance; what is held for its orders and position stays.
 */
export interface MarginFundsPort {
  /** The currency the symbol's isolated account holds; a rejection (10001) when the symbol has none. */
  currencyOf(symbol: string): string;
  /** What the account could take out of the symbol's isolated account (free of orders and the position). */
  withdrawable(account: AccountId, symbol: string): Decimal;
  /** Adds (negative: takes) to the margin balance of the account's isolated account of the symbol. */
  credit(account: AccountId, symbol: string, amount: Decimal): void;
}

/**
 * Moves `amount` (positive) of `currency` between two pockets of one account, all or nothing:
 * - wallet and spot: their available funds;
 * - futures: the margin cash, of which only what `FuturesAccounts.available` allows may leave (the
 *   margin held for positions and orders, and unrealized losses, stay);
 * - an isolated margin account (`{ margin: symbol }`): through `engine.marginFunds`; without margin
 *   accounts at the venue, or in another currency than the account holds, it is refused (10001).
 * A short source is 20001 Insufficient funds naming the pocket, and nothing moves. The caller
 * checks which pairs its request allows (the spec's `POST /wallet/transfer` knows wallet and spot
 * only; futures margin moves through `PUT /futures/account/isolated/{symbol}`, an isolated margin
 * account's through `PUT /margin/account/isolated/{symbol}`) and commits.
 */
export function moveFunds(engine: VenueEngine, account: AccountId, currency: string, amount: Decimal, from: FundsPocket, to: FundsPocket): void {
  if (pocketName(from) === pocketName(to)) throw new VenueRejection(ErrorCode.ValidationError, 'destination must differ from source');
  if (!amount.greaterThan(0)) throw new VenueRejection(ErrorCode.ValidationError, 'amount must be a positive number');
  for (const pocket of [from, to]) {
    if (typeof pocket !== 'string' && marginPort(engine).currencyOf(pocket.margin) !== currency) {
      throw new VenueRejection(ErrorCode.ValidationError, `the ${pocket.margin} isolated margin account holds ${marginPort(engine).currencyOf(pocket.margin)}, not ${currency}`);
    }
  }
  if (withdrawable(engine, account, currency, from).lessThan(amount)) {
    throw new VenueRejection(ErrorCode.InsufficientFunds, `not enough ${currency} available in ${pocketName(from)} to move ${amount.toFixed()}`);
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
    default:
      return marginPort(engine).withdrawable(account, pocket.margin);
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
    default:
      marginPort(engine).credit(account, pocket.margin, amount);
  }
}

/** A pocket's name in messages: `wallet`, `spot`, `futures` or `margin ETHUSDT`. */
function pocketName(pocket: FundsPocket): string {
  return typeof pocket === 'string' ? pocket : `margin ${pocket.margin}`;
}

function marginPort(engine: VenueEngine): MarginFundsPort {
  const port = engine.marginFunds;
  if (port === undefined) throw new VenueRejection(ErrorCode.ValidationError, 'margin accounts are not available at this venue');
  return port;
}
