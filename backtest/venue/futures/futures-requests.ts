import { Decimal, isDecimalString } from '../../../framework/model/decimal.js';
import { ErrorCode } from '../../../framework/exchange/errors.js';
import type { MarginAccount } from '../../../framework/model/resources/margin-account.js';
import type { OrderRecord } from '../order-state.js';
import { placeSingle } from '../order-placement.js';
import { invalid, validateNewOrder, type ValidationContext } from '../order-validation.js';
import type { VenueEngine } from '../venue-engine.js';
import { VenueRejection, type AccountId } from '../venue-types.js';
import type { FuturesTerms } from './futures-terms.js';
import { positionView } from './futures-views.js';
import type { PositionBook } from './position-book.js';
import { moveFunds, type FundsPocket } from '../funds-transfer.js';

/** The terms of a futures symbol, or the exchange's refusal (2001 unknown, 10001 not futures). */
export function futuresSymbol(engine: VenueEngine, symbol: string): FuturesTerms {
  if (!engine.instruments.has(symbol)) throw new VenueRejection(ErrorCode.SymbolNotFound, `symbol ${symbol} is not traded here`);
  const terms = engine.futures.terms.get(symbol);
  if (terms === undefined) throw invalid(`symbol ${symbol} is not a futures contract`);
  return terms;
}

/**
 * The terms of a symbol of `book`: a futures contract (see {@link futuresSymbol}), or a spot
 * symbol with margin trading (2001 unknown, 10001 without margin trading).
 */
export function bookSymbol(engine: VenueEngine, book: PositionBook, symbol: string): FuturesTerms {
  if (book.name === 'futures') return futuresSymbol(engine, symbol);
  if (!engine.instruments.has(symbol)) throw new VenueRejection(ErrorCode.SymbolNotFound, `symbol ${symbol} is not traded here`);
  const terms = book.accounts.terms.get(symbol);
  if (terms === undefined) throw invalid(`symbol ${symbol} has no margin trading`);
  return terms;
}

/**
 * Sets the account's leverage of a futures symbol (or, in the margin book, of an isolated margin account) (the `leverage` of `PUT
 * /api/3/futures/account/isolated/{symbol}`). Rules (assumed where the spec is silent):
 * - a decimal from 1 to the symbol's maximum leverage, else 10001 naming the bounds;
 * - refused with 10001 while the account has active orders on the symbol (their margin was taken
 *   at the old leverage);
 * - an open position's margin is recomputed at the new leverage; when the account cannot hold the
 *   larger margin, 20001 Insufficient funds and nothing changes.
 */
export function setLeverage(engine: VenueEngine, account: AccountId, symbol: string, text: string, book = engine.futuresBook): MarginAccount {
  const terms = bookSymbol(engine, book, symbol);
  if (typeof text !== 'string' || !isDecimalString(text)) throw invalid('leverage must be a decimal number');
  const leverage = new Decimal(text);
  if (leverage.lessThan(1) || leverage.greaterThan(terms.maxLeverage)) {
    throw invalid(`leverage must be between 1 and ${terms.maxLeverage.toFixed()} for ${symbol}`);
  }
  const open = [...(engine.byClientId.get(account)?.values() ?? [])].some((o) => o.instrument.symbol === symbol && engine.bookOf(o) === book);
  if (open) throw invalid(`leverage of ${symbol} cannot change while orders on it are active`);
  const futures = book.accounts;
  const previous = futures.leverage(account, symbol);
  futures.setLeverage(account, symbol, leverage);
  if (futures.available(account, terms.pocket).isNegative()) {
    futures.setLeverage(account, symbol, previous);
    throw new VenueRejection(ErrorCode.InsufficientFunds, `not enough ${terms.marginCurrency} to margin the ${symbol} position at leverage ${leverage.toFixed()}`);
  }
  engine.commit();
  return futuresAccount(engine, account, symbol, book);
}

/**
 * The futures account view of one symbol (or the isolated margin account of one, in the margin book) (`GET /api/3/futures/account/isolated/{symbol}`). The
 * venue margins every position of a currency from one balance, so `currencies` shows that shared
 * balance: margin_balance = cash + unrealized PnL, reserved_orders and reserved_positions over the
 * whole account; an isolated margin account shows its own balance.
 */
export function futuresAccount(engine: VenueEngine, account: AccountId, symbol: string, book = engine.futuresBook): MarginAccount {
  const terms = bookSymbol(engine, book, symbol);
  const futures = book.accounts;
  const currency = terms.marginCurrency;
  const pocket = terms.pocket;
  const open = futures.position(account, symbol);
  return {
    symbol,
    type: 'isolated',
    leverage: futures.leverage(account, symbol),
    created_at: open?.createdAt ?? engine.time,
    updated_at: open?.updatedAt ?? engine.time,
    currencies: [{
      code: currency,
      margin_balance: futures.marginBalance(account, pocket),
      reserved_orders: futures.ordersReserved(account, pocket),
      reserved_positions: futures.positionsReserved(account, pocket),
    }],
    positions: open === undefined ? null : [positionView(futures, open, account)],
  };
}

/**
 * Closes the whole position of a symbol (`DELETE /api/3/futures/position/isolated/{symbol}`): a
 * reduce-only order on the opposite side for the open quantity, a GTC limit at `price` when given,
 * else a market order. No open position is 20002 (assumed: the spec shows no code). Returns the order.
 */
export function closePosition(
  engine: VenueEngine, account: AccountId, symbol: string, ctx: ValidationContext, price?: string, strictValidate = false, book = engine.futuresBook,
): OrderRecord {
  bookSymbol(engine, book, symbol);
  const open = book.accounts.position(account, symbol);
  if (open === undefined) throw new VenueRejection(ErrorCode.OrderNotFound, `no open ${symbol} position to close`);
  const side = open.grid.lots > 0 ? 'sell' : 'buy';
  const quantity = engine.instruments.get(symbol)?.lotsToQuantity(Math.abs(open.grid.lots)) as string;
  const validated = validateNewOrder({
    symbol, side, quantity, type: price === undefined ? 'market' : 'limit', time_in_force: 'GTC', price,
    strict_validate: strictValidate, reduce_only: true,
  }, ctx, book.name === 'margin');
  return placeSingle(engine, account, validated);
}

/**
 * Sets the margin balance of the symbol's margin currency (`margin_balance` of `PUT
 * /api/3/futures/account/isolated/{symbol}`), moving the difference from or to the spot trading
 * account's available funds. The venue margins every position of a currency from one balance, so
 * the value set is that shared cash (the spec's per-symbol account reads it as its own); `0` returns
 * everything not in use. In the margin book the value is the symbol's own isolated account's cash
 * (its pocket is the symbol), in its quote currency; the spec's `strict_validate` (format and
 * currency precision) is not checked: the venue holds any exact decimal. Refusals: not a
 * non-negative decimal (10001), more than spot has available or less than the margin in use
 * (20001: the cash may only fall by what is available, so `0` with a position open is refused).
 */
export function setMarginBalance(engine: VenueEngine, account: AccountId, symbol: string, text: string, book = engine.futuresBook): MarginAccount {
  const terms = bookSymbol(engine, book, symbol);
  if (typeof text !== 'string' || !isDecimalString(text)) throw invalid('margin_balance must be a decimal number');
  const target = new Decimal(text);
  if (target.isNegative()) throw invalid('margin_balance must not be negative');
  const currency = terms.marginCurrency;
  const pocket = terms.pocket;
  const futures = book.accounts;
  // The margin book's pocket is the symbol's isolated account; the futures book's, the currency's margin.
  const section: FundsPocket = book.name === 'margin' ? { margin: pocket } : 'futures';
  const delta = target.minus(futures.cash(account, pocket));
  if (delta.greaterThan(0)) moveFunds(engine, account, currency, delta, 'spot', section);
  else if (delta.isNegative()) {
    if (futures.available(account, pocket).lessThan(delta.negated())) {
      throw new VenueRejection(ErrorCode.InsufficientFunds, `${currency} margin in use: at most ${futures.available(account, pocket).toFixed()} can be returned`);
    }
    moveFunds(engine, account, currency, delta.negated(), section, 'spot');
  }
  engine.commit();
  return futuresAccount(engine, account, symbol, book);
}
