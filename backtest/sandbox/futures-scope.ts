import { ErrorCode } from '../../framework/exchange/errors.js';
import type { Order } from '../../framework/model/resources/order.js';
import { SimulatedFuturesVenue } from '../venue/futures/simulated-futures-venue.js';
import { VenueRejection, type Venue } from '../venue/venue-types.js';
import type { MarketState } from './market-state.js';
import { SectionScope } from './section-scope.js';

/** The futures side of `venue` (`SimulatedVenue.futures`); undefined for a venue without futures accounts. */
export function futuresVenueOf(venue: Venue): SimulatedFuturesVenue | undefined {
  const futures = (venue as { readonly futures?: unknown }).futures;
  return futures instanceof SimulatedFuturesVenue ? futures : undefined;
}

/**
 * Which symbols the futures endpoints know: the market's `type: futures` symbols. The futures
 * section of the API does not see spot symbols, nor the spot section futures ones, so a symbol of
 * the other section is 2001 Symbol not found and an order of the other section 20002 Order not found.
 */
export class FuturesScope extends SectionScope {
  constructor(market: MarketState) {
    super(market, 'futures contract');
  }

  /** True for a futures contract of the market. */
  has(symbol: string): boolean {
    return this.market.symbols[symbol]?.type === 'futures';
  }

  /** True for a perpetual contract of the market (not cash-settled, no expiry). */
  isPerpetual(symbol: string): boolean {
    const info = this.market.symbols[symbol];
    return info?.type === 'futures' && info.contract_type !== 'cash_settled' && info.expiry === null;
  }

  /** `order`, or 20002 when it is not an order on a futures contract. */
  requireOrder(order: Order): Order {
    if (!this.has(order.symbol)) throw new VenueRejection(ErrorCode.OrderNotFound, `futures order ${order.client_order_id} not found`);
    return order;
  }

  /** The orders on futures contracts. */
  only(orders: readonly Order[]): Order[] {
    return orders.filter((o) => this.has(o.symbol));
  }

  /** The orders on every other symbol (the spot section's). */
  exclude(orders: readonly Order[]): Order[] {
    return orders.filter((o) => !this.has(o.symbol));
  }

  /**
   * Cancels the account's active orders of one section (futures, or spot when `futures` is false),
   * of `symbol` only when given (the caller checks it belongs to the section): the venue's cancel
   * all knows no sections, so it goes symbol by symbol.
   */
  cancelAll(venue: Venue, account: string, futures: boolean, symbol?: string): Order[] {
    if (symbol !== undefined) return venue.cancelAll(account, symbol);
    const open = venue.openOrders(account).filter((o) => this.has(o.symbol) === futures);
    return [...new Set(open.map((o) => o.symbol))].sort().flatMap((s) => venue.cancelAll(account, s));
  }
}
