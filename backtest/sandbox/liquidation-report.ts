import { orderReportToWire } from '../../framework/model/stream/order-report.js';
import { liquidationOrderReport } from '../venue/futures/liquidation-order-report.js';
import type { LiquidationRecord } from '../venue/venue-types.js';

/**
 * The wire form of a forced close's trading-stream report (`futures_order` params, or
 * `margin_order` for an isolated margin account's position): see {@link liquidationOrderReport};
 * `liquidation: true` marks it (a client that does not know the key ignores it).
 */
export function liquidationReport(liquidation: LiquidationRecord): Record<string, unknown> {
  return orderReportToWire(liquidationOrderReport(liquidation));
}
