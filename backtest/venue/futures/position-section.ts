import type { MarginAccount } from '../../../framework/model/resources/margin-account.js';
import type { Order } from '../../../framework/model/resources/order.js';
import type { PositionHistoryRecord } from '../../../framework/model/resources/position-history.js';
import { toOrder } from '../order-state.js';
import type { ValidationContext } from '../order-validation.js';
import type { VenueEngine } from '../venue-engine.js';
import type { AccountId, MarginAccountRequest } from '../venue-types.js';
import { closePosition, futuresAccount, setLeverage, setMarginBalance } from './futures-requests.js';
import type { PositionBook } from './position-book.js';

/** What the position requests need from the venue that owns them. */
export interface FuturesVenueHost {
  readonly engine: VenueEngine;
  /** Starts a request of the account (request id, cause, account check). */
  begin(account: AccountId): void;
  context(): ValidationContext;
  advanceTo(time: number): void;
}

/**
 * The account and position requests that the futures and the isolated margin sections of document
 * 001 share (same paths under `/futures` and `/margin`, same shapes): isolated account views, the
 * account update (leverage and margin balance), closing positions and the positions history, over
 * one {@link PositionBook}. Every method processes at the venue's current time and throws
 * `VenueRejection` on refusal.
 */
export class PositionSection {
  constructor(
    protected readonly host: FuturesVenueHost,
    protected readonly book: PositionBook,
  ) {}

  /** Account views of every symbol with an open position (`GET .../account`). */
  accounts(account: AccountId): MarginAccount[] {
    this.host.begin(account);
    return this.book.accounts.openPositions(account).map((p) => futuresAccount(this.host.engine, account, p.symbol, this.book));
  }

  /** Account view of one symbol (`GET .../account/isolated/{symbol}`). */
  account(account: AccountId, symbol: string): MarginAccount {
    this.host.begin(account);
    return futuresAccount(this.host.engine, account, symbol, this.book);
  }

  /** Sets the leverage of a symbol (`leverage` of `PUT .../account/isolated/{symbol}`; rules in `setLeverage`). */
  setLeverage(account: AccountId, symbol: string, leverage: string): MarginAccount {
    this.host.begin(account);
    return setLeverage(this.host.engine, account, symbol, leverage, this.book);
  }

  /**
   * `PUT .../account/isolated/{symbol}`: the leverage when given (see `setLeverage`), then the
   * margin balance when given (see `setMarginBalance`); a refusal of either changes nothing.
   */
  updateAccount(account: AccountId, symbol: string, request: MarginAccountRequest): MarginAccount {
    this.host.begin(account);
    const { engine } = this.host;
    const book = this.book;
    if (request.leverage === undefined) {
      return request.margin_balance === undefined ? futuresAccount(engine, account, symbol, book) : setMarginBalance(engine, account, symbol, request.margin_balance, book);
    }
    const previous = book.accounts.leverage(account, symbol);
    const view = setLeverage(engine, account, symbol, request.leverage, book);
    if (request.margin_balance === undefined) return view;
    try {
      return setMarginBalance(engine, account, symbol, request.margin_balance, book);
    } catch (error) {
      book.accounts.setLeverage(account, symbol, previous);
      engine.commit();
      throw error;
    }
  }

  /** Closes a position whole, with a limit at `price` or at market (`DELETE .../position/isolated/{symbol}`). */
  closePosition(account: AccountId, symbol: string, price?: string, strictValidate = false): Order {
    this.host.begin(account);
    return toOrder(closePosition(this.host.engine, account, symbol, this.host.context(), price, strictValidate, this.book));
  }

  /** Closes every position of the account at market (`DELETE .../position`). */
  closeAllPositions(account: AccountId): Order[] {
    this.host.begin(account);
    const { engine } = this.host;
    return this.book.accounts.openPositions(account).map((p) => toOrder(closePosition(engine, account, p.symbol, this.host.context(), undefined, false, this.book)));
  }

  /** Positions of the account: open ones (`active`), then closed and liquidated ones newest first (`GET .../history/positions`). */
  positionHistory(account: AccountId): PositionHistoryRecord[] {
    this.host.begin(account);
    return this.book.history.records(this.book.accounts, account);
  }
}
