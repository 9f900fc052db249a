import type { OrderReport } from '../../../framework/model/stream/order-report.js';
import type { LiquidationRecord } from '../venue-types.js';

/**
 * The trading-stream report of a forced close (`futures_order`), in the shape of an order report
 * with its execution (exchange-notes.md): the venue's closing order, a market IOC reduce-only order
 * on the side that flattens the position, filled at once at the mark (`report_type: trade`, taker,
 * `trade_fee` the force-close fee, `trade_position_id` the position). Its `client_order_id` is
 * `liquidation-<position id>`, as in the trade history, and `liquidation: true` marks it as the
 * trade history record's field does. The sandbox sends it on the wire and the backtest's port hands
 * it to the bot as it is, so a liquidation is booked by the same code in paper, live and backtest.
 */
export function liquidationOrderReport(liquidation: LiquidationRecord): OrderReport {
  const quantity = liquidation.quantity.abs();
  return {
    id: liquidation.orderId,
    client_order_id: `liquidation-${liquidation.positionId}`,
    symbol: liquidation.symbol,
    side: liquidation.quantity.isNegative() ? 'buy' : 'sell',
    status: 'filled',
    type: 'market',
    time_in_force: 'IOC',
    quantity,
    quantity_cumulative: quantity,
    post_only: false,
    reduce_only: true,
    created_at: liquidation.time,
    updated_at: liquidation.time,
    report_type: 'trade',
    trade_id: liquidation.tradeId,
    trade_quantity: quantity,
    trade_price: liquidation.price,
    trade_fee: liquidation.fee,
    trade_taker: true,
    trade_position_id: liquidation.positionId,
    liquidation: true,
  };
}
