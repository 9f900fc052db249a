import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskView } from './risk-state.js';

/**
 * A self-imposed budget of trading requests, `maxOrdersPerWindow` per `orderRateWindowMs`, kept
 * under the exchange's 300 per second so a runaway strategy is stopped here rather than by 429s
 * that would also block its cancels. The window is the half-open interval (now - window, now].
 * Cancels are never refused (they are how risk goes down) but the gate counts them, as the
 * exchange does.
 */
export function orderRateCheck(intent: Intent, view: RiskView, config: RiskConfig): Denial | undefined {
  if (intent.kind === 'cancel' || intent.kind === 'cancelAll') return undefined;
  const sent = view.ordersSentAfter(view.now - config.orderRateWindowMs);
  if (sent < config.maxOrdersPerWindow) return undefined;
  return {
    check: 'order-rate',
    reason: `${sent} trading requests in the last ${config.orderRateWindowMs} ms, budget ${config.maxOrdersPerWindow}`,
  };
}
