import type { OrderTracker } from '../../framework/execution/order-tracker.js';
import type { OrderRecord } from '../report/backtest-result.js';
import type { EventCause } from '../venue/venue-types.js';

/** An order's report record from its tracker: its last known state; undefined before the venue knew it. */
export function orderRecord(tracker: OrderTracker): OrderRecord | undefined {
  const order = tracker.order;
  if (order === undefined) return undefined;
  return {
    clientOrderId: tracker.clientOrderId, intentId: tracker.intentId, symbol: order.symbol, side: order.side, type: order.type,
    price: order.price, quantity: order.quantity, filledQuantity: tracker.quantityCumulative, status: order.status,
    createdAt: order.created_at, updatedAt: order.updated_at,
  };
}

/** A venue event cause as one short, stable text (see FillRecord.cause). */
export function causeText(cause: EventCause): string {
  switch (cause.kind) {
    case 'request': return `request#${cause.requestId}`;
    case 'market': return `market:${cause.channel}:${cause.symbol}@${cause.frameTime}${cause.sequence === undefined ? '' : `#${cause.sequence}`}`;
    case 'timer': return `timer:${cause.reason}@${cause.time}`;
  }
}
