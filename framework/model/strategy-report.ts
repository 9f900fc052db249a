import type { Intent } from './intent.js';
import type { Order } from './resources/order.js';
import type { OrderReport } from './stream/order-report.js';

/**
 * What comes back to a strategy about its intents, as data. A risk denial is a report, not an
 * exception; so is an exchange rejection.
 */
export type StrategyReport = DeniedReport | RejectedReport | AcceptedReport | OrderUpdateReport;

/** The risk gate refused the intent; nothing was sent. */
export interface DeniedReport {
  readonly kind: 'denied';
  readonly intent: Intent;
  /** Which check refused it (`balance`, `price-band`, `order-rate`, ...; `intent-id` for an intent id that holds a reservation already). */
  readonly check: string;
  /** Human-readable reason naming the limit and the value. */
  readonly reason: string;
  readonly time: number;
}

/** The exchange refused the request (error code from the exchange's table). */
export interface RejectedReport {
  readonly kind: 'rejected';
  readonly intent: Intent;
  readonly code: number;
  readonly message: string;
  readonly time: number;
}

/** The exchange accepted the request; `orders` are its immediate answer. */
export interface AcceptedReport {
  readonly kind: 'accepted';
  readonly intent: Intent;
  readonly orders: readonly Order[];
  readonly time: number;
}

/** An order of the strategy changed on the exchange (trading-stream report), with the intent that made it. */
export interface OrderUpdateReport {
  readonly kind: 'order';
  readonly report: OrderReport;
  /** The intent whose order this is; undefined for orders adopted at reconciliation. */
  readonly intentId?: string;
  readonly time: number;
}
