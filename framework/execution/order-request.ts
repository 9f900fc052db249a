import type { OrderSpec } from '../model/intent.js';
import type { VenueOrderRequest } from './venue-port.js';

/** The wire request of an order spec under a chosen client_order_id. */
export function toRequest(clientOrderId: string, spec: OrderSpec): VenueOrderRequest {
  return {
    client_order_id: clientOrderId, symbol: spec.symbol, side: spec.side, type: spec.type, time_in_force: spec.timeInForce,
    quantity: spec.quantity, price: spec.price, stop_price: spec.stopPrice, expire_time: spec.expireTime, post_only: spec.postOnly,
    reduce_only: spec.reduceOnly,
  };
}
