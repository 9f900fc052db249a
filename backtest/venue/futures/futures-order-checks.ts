import { ErrorCode } from '../../../framework/exchange/errors.js';
import type { OrderRecord } from '../order-state.js';
import type { VenueEngine } from '../venue-engine.js';
import { VenueRejection } from '../venue-types.js';
import { assertRiskLimit } from './futures-risk-limit.js';
import { increases } from './position-math.js';

/**
 * Futures and margin rules checked when an order is accepted (spot orders pass untouched). A
 * reduce-only order must be able to reduce something now: the spec says only that its "fill never
 * flips the position", so an order on a flat symbol or on the side that would grow the position is
 * refused with 20044 Trading operation not allowed (assumed code; the spec shows none). One larger
 * than the position is accepted and cut at fill time (`settlePosition`). Every other futures order
 * must keep within the symbol's risk limit (`assertRiskLimit`; margin symbols have none). A
 * contract past its expiry takes no orders (20044).
 */
export function assertFuturesOrder(engine: VenueEngine, order: OrderRecord): void {
  const book = engine.bookOf(order);
  if (book === undefined) return;
  const expiry = order.instrument.info.expiry;
  if (book.name === 'futures' && expiry !== null && engine.time >= expiry) {
    throw new VenueRejection(ErrorCode.TradingNotAllowed, `${order.instrument.symbol} expired at ${new Date(expiry).toISOString()}`);
  }
  if (order.reduceOnly) {
    const position = book.accounts.position(order.account, order.instrument.symbol)?.grid;
    if (position === undefined || increases(position, order.side)) {
      throw new VenueRejection(
        ErrorCode.TradingNotAllowed,
        `reduce_only ${order.side} order ${order.clientOrderId} would not reduce the ${order.instrument.symbol} position`,
      );
    }
    return;
  }
  if (book.name === 'futures') assertRiskLimit(engine, order);
}
