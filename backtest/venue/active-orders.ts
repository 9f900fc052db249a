import type { OrderRecord } from './order-state.js';
import type { VenueEngine } from './venue-engine.js';
import type { AccountId } from './venue-types.js';

/** The account's active orders of one side (margin orders, or the others), of `symbol` when given, oldest first. */
export function activeOrdersOf(engine: VenueEngine, account: AccountId, margin: boolean, symbol?: string): OrderRecord[] {
  const map = engine.byClientId.get(account);
  if (map === undefined) return [];
  return [...map.values()].filter((o) => o.margin === margin && (symbol === undefined || o.instrument.symbol === symbol)).sort((a, b) => a.key - b.key || Number(a.id) - Number(b.id));
}
