import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import { ErrorCode } from '../../../framework/exchange/errors.js';
import type { TradingBalance } from '../../../framework/model/resources/balance.js';
import type { ClearingRecord } from '../../../framework/model/resources/clearing.js';
import type { Order } from '../../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../../framework/model/resources/trade-history.js';
import type { MarginAccount } from '../../../framework/model/resources/margin-account.js';
import { bookSymbol, futuresAccount } from '../futures/futures-requests.js';
import { marginBalances } from '../futures/futures-views.js';
import { PositionSection, type FuturesVenueHost } from '../futures/position-section.js';
import { cancelWithList } from '../list-effects.js';
import { placeSingle } from '../order-placement.js';
import { replaceOrder } from '../order-replace.js';
import { isActive, toOrder, type OrderRecord } from '../order-state.js';
import { validateNewOrder } from '../order-validation.js';
import { activeOrdersOf } from '../active-orders.js';
import { VenueRejection, type AccountId, type NewOrderRequest, type ReplaceOrderRequest } from '../venue-types.js';

/**
 * The isolated margin side of `SimulatedVenue` (`venue.margin`): document 001's margin section.
 * Each spot symbol with `margin_trading` has one isolated margin account per venue account, funded
 * from (and returned to) the spot trading account's available quote currency by the account update
 * (`margin_balance`); its orders trade a signed position on the futures rules (`margin-terms.ts`
 * states the assumptions: quote-currency margin and fees, implicit borrowing, no interest).
 *
 * Margin orders live beside spot orders (one client_order_id namespace per account: an id is
 * unique over both, as over spot and futures) but are seen only here: the spot requests neither
 * list nor change them (20002), nor do these requests see spot orders. Their order and trade
 * histories are apart too ({@link orderHistory}, {@link tradeHistory}: the spec shows no margin
 * history endpoints for them, the sandbox serves them as the spot ones); trades carry the position
 * id.
 */
export class SimulatedMarginVenue extends PositionSection {
  constructor(host: FuturesVenueHost) {
    super(host, host.engine.marginBook);
  }

  /**
   * The account's isolated margin accounts (`GET /api/3/margin/account`): every symbol whose
   * account holds funds or a position, by symbol. (The futures list shows only symbols with a
   * position, its balance being shared; here each account has its own.)
   */
  override accounts(account: AccountId): MarginAccount[] {
    this.host.begin(account);
    const margin = this.host.engine.margin;
    const funded = margin.currencies(account).filter((symbol) => !margin.cash(account, symbol).isZero() || margin.position(account, symbol) !== undefined);
    const symbols = [...new Set([...funded, ...margin.openPositions(account).map((p) => p.symbol)])].sort();
    return symbols.map((symbol) => futuresAccount(this.host.engine, account, symbol, this.book));
  }

  /** Margin trading balances of the account: totals per quote currency over its isolated accounts. */
  balances(account: AccountId): TradingBalance[] {
    this.host.begin(account);
    return marginBalances(this.host.engine.margin, account);
  }

  /** Cash of a symbol's isolated account: its margin balance without unrealized PnL. */
  cash(account: AccountId, symbol: string): Decimal {
    return this.host.engine.margin.cash(account, symbol);
  }

  /** Cash of every isolated account of the account in `currency` (their quote currency), summed. */
  cashIn(account: AccountId, currency: string): Decimal {
    const margin = this.host.engine.margin;
    return margin.currencies(account).filter((pocket) => margin.pocketCurrency(pocket) === currency)
      .reduce((sum, pocket) => sum.plus(margin.cash(account, pocket)), ZERO);
  }

  /** Interest charges of the account (`GET /api/3/margin/history/clearing`): none, the venue charges no interest. */
  clearing(account: AccountId): ClearingRecord[] {
    this.host.begin(account);
    return [];
  }

  /**
   * `POST /api/3/margin/order`: a new order on the symbol's isolated account (create-order
   * parameters with reduce_only). The symbol needs margin trading (10001 otherwise); its funds are
   * the account's margin (20001 when it cannot hold the order's initial margin and fee provision,
   * which is the case with no margin account at all).
   */
  placeOrder(account: AccountId, request: NewOrderRequest): Order {
    this.host.begin(account);
    const validated = validateNewOrder(request, this.host.context(), true);
    bookSymbol(this.host.engine, this.book, validated.instrument.symbol);
    return toOrder(placeSingle(this.host.engine, account, validated));
  }

  /** Replaces an active margin order (the spot replace's rules; an order of spot is 20002). */
  replaceOrder(account: AccountId, request: ReplaceOrderRequest): Order {
    this.host.begin(account);
    return toOrder(replaceOrder(this.host.engine, account, request, true));
  }

  /** Cancels an active margin order (20002 when there is none by that id). */
  cancelOrder(account: AccountId, clientOrderId: string): Order {
    this.host.begin(account);
    const order = this.active(account, clientOrderId);
    cancelWithList(this.host.engine, order);
    this.host.engine.commit();
    return toOrder(order);
  }

  /** Cancels every active margin order of the account (of `symbol` only when given). */
  cancelAll(account: AccountId, symbol?: string): Order[] {
    this.host.begin(account);
    const { engine } = this.host;
    const out: Order[] = [];
    for (const order of activeOrdersOf(engine, account, true, symbol)) {
      if (!isActive(order)) continue;
      cancelWithList(engine, order);
      out.push(toOrder(order));
    }
    engine.commit();
    return out;
  }

  /** One active margin order (20002 when there is none by that id). */
  getOpenOrder(account: AccountId, clientOrderId: string): Order {
    this.host.begin(account);
    return toOrder(this.active(account, clientOrderId));
  }

  /** Active margin orders, oldest first (of `symbol` only when given). */
  openOrders(account: AccountId, symbol?: string): Order[] {
    this.host.begin(account);
    return activeOrdersOf(this.host.engine, account, true, symbol).map((o) => toOrder(o));
  }

  /** Margin order history (closed and open), newest first; orders without executions drop out after 24 h. */
  orderHistory(account: AccountId): Order[] {
    this.host.begin(account);
    const { engine } = this.host;
    const open = activeOrdersOf(engine, account, true).map((o) => toOrder(o, true));
    return [...open, ...engine.history.closedOrders(account, engine.time, true)].sort((a, b) => b.updated_at - a.updated_at || Number(b.id) - Number(a.id));
  }

  /** Executions of the account's margin orders, newest first. */
  tradeHistory(account: AccountId): readonly TradeHistoryRecord[] {
    this.host.begin(account);
    return this.host.engine.history.tradeHistory(account, true);
  }

  private active(account: AccountId, clientOrderId: string): OrderRecord {
    const order = this.host.engine.activeByClientId(account, clientOrderId);
    if (order === undefined || !isActive(order) || !order.margin) throw new VenueRejection(ErrorCode.OrderNotFound, `no active margin order ${clientOrderId}`);
    return order;
  }
}
