import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import { ordersOf } from './intent-orders.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskView } from './risk-state.js';

/** Refuses orders on symbols the bot has no instrument for, or whose status is not `working`. */
export function instrumentStatusCheck(intent: Intent, view: RiskView, _config: RiskConfig): Denial | undefined {
  for (const order of ordersOf(intent, view)) {
    const instrument = view.instrument(order.symbol);
    if (instrument === undefined) return { check: 'instrument-status', reason: `${order.symbol}: unknown symbol` };
    if (!instrument.isWorking) {
      return { check: 'instrument-status', reason: `${order.symbol}: status is ${instrument.info.status}, orders need working` };
    }
  }
  return undefined;
}
