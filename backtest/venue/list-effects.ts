import { activate, start } from './order-activation.js';
import { isActive, type OrderRecord } from './order-state.js';
import type { VenueEngine } from './venue-engine.js';

/**
 * What an order's fate does to the rest of its list (document 001):
 * - oneCancelOther: when one order executes, even partially, the others are canceled;
 * - oneTriggerOneCancelOther: when the primary fills completely the secondaries are activated
 *   (the `inactive` flag goes) and behave as a oneCancelOther list; when the primary ends without
 *   filling completely (canceled, expired) the inactive secondaries are canceled with it;
 * - a client cancel of one member of a oneCancelOther group cancels the whole group (the members
 *   only make sense together);
 * - allOrNone: decided at placement (all fill in one transaction or all expire), nothing after.
 */
export function afterExecution(engine: VenueEngine, order: OrderRecord): void {
  const m = engine.membership.get(order.key);
  if (m === undefined) return;
  if (m.role === 'ocoLeg' || m.role === 'secondary') cancelOthers(engine, order, m.role);
  else if (m.role === 'primary' && order.status === 'filled') activateSecondaries(engine, order);
}

/** Effects of an order closing without a complete fill (expired, canceled by the venue). */
export function afterClose(engine: VenueEngine, order: OrderRecord): void {
  const m = engine.membership.get(order.key);
  if (m?.role === 'primary') cancelOthers(engine, order, 'secondary');
}

/** A client cancel: the order, then the rest of its group. */
export function cancelWithList(engine: VenueEngine, order: OrderRecord): void {
  engine.close(order, 'canceled', 'canceled');
  const m = engine.membership.get(order.key);
  if (m === undefined) return;
  if (m.role === 'primary') cancelOthers(engine, order, 'secondary');
  else if (m.role === 'ocoLeg' || m.role === 'secondary') cancelOthers(engine, order, m.role);
}

function cancelOthers(engine: VenueEngine, order: OrderRecord, role: 'ocoLeg' | 'secondary'): void {
  for (const other of members(engine, order, role)) engine.close(other, 'canceled', 'canceled');
}

function members(engine: VenueEngine, order: OrderRecord, role: 'ocoLeg' | 'secondary'): OrderRecord[] {
  const m = engine.membership.get(order.key);
  if (m === undefined) return [];
  const out: OrderRecord[] = [];
  for (const key of m.list.orderKeys) {
    if (key === order.key || engine.membership.get(key)?.role !== role) continue;
    const other = engine.orders.get(key);
    if (other !== undefined && isActive(other) && other.orderListId === order.orderListId && other.account === order.account) out.push(other);
  }
  return out;
}

/**
 * Activates the secondaries of a filled primary. Their funds are reserved now (the primary's
 * proceeds usually pay for them); when the account cannot hold them, they expire instead.
 */
function activateSecondaries(engine: VenueEngine, primary: OrderRecord): void {
  const secondaries = members(engine, primary, 'secondary').filter((o) => o.inactive);
  if (secondaries.length === 0) return;
  engine.commit();
  for (const s of secondaries) {
    s.inactive = false;
    s.updatedAt = engine.time;
    engine.hold(s, engine.needOf(s));
  }
  const affordable = secondaries.every((s) => {
    const need = engine.needOf(s);
    return need === undefined || engine.canHold(s.account, need.currency, engine.reservations.total(s.account, need.currency));
  });
  if (!affordable) {
    for (const s of secondaries) engine.close(s, 'expired', 'expired');
    return;
  }
  for (const s of secondaries) engine.report(s, 'status');
  for (const s of secondaries) {
    if (!isActive(s)) continue;
    if (s.status === 'suspended') start(engine, s);
    else activate(engine, s);
  }
}
