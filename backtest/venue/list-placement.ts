import { ErrorCode } from '../../framework/exchange/errors.js';
import { activate, affordableLots, start } from './order-activation.js';
import { listRole, validateOrderList, type ListState } from './order-lists.js';
import { assertFuturesOrder } from './futures/futures-order-checks.js';
import { admit, createRecord, initialNeed, insufficient, resolveClientOrderId } from './order-placement.js';
import { isActive, remainingLots, type OrderRecord } from './order-state.js';
import { validateNewOrder, type ValidationContext } from './order-validation.js';
import type { ReservationNeed } from './reservations.js';
import { hasLimitPrice } from './triggers.js';
import type { VenueEngine } from './venue-engine.js';
import { VenueRejection, type AccountId, type OrderListRequest } from './venue-types.js';

/**
 * Places an order list (POST /api/3/spot/order/list): the whole list is validated and funded
 * before any order is accepted, so a refusal leaves nothing behind. Then:
 * - allOrNone: every order is checked against the book first; all fill in this one transaction or
 *   all expire;
 * - oneCancelOther: the orders go to work in list order; the first execution cancels the others;
 * - oneTriggerOneCancelOther: the primary goes to work; the secondaries wait, `inactive`, holding
 *   no funds, until it fills completely.
 */
export function placeList(engine: VenueEngine, account: AccountId, request: OrderListRequest, ctx: ValidationContext): OrderRecord[] {
  const { listId, orders } = validateOrderList(request, () => resolveClientOrderId(engine, account, undefined));
  const validated = orders.map((o) => validateNewOrder(o, ctx));
  const type = request.contingency_type;
  const seen = new Set<string>();
  const records = validated.map((v, i) => {
    const clientOrderId = resolveClientOrderId(engine, account, v.clientOrderId);
    if (seen.has(clientOrderId)) throw new VenueRejection(ErrorCode.DuplicateClientOrderId, `client_order_id ${clientOrderId} repeats in the list`);
    seen.add(clientOrderId);
    const role = listRole(type, i);
    const reserveGroup = role === 'ocoLeg' ? `list:${account}:${listId}` : role === 'secondary' ? `list:${account}:${listId}:secondaries` : undefined;
    return createRecord(engine, account, v, clientOrderId, { listId, contingencyType: type, reserveGroup, inactive: role === 'secondary' });
  });
  if (type === 'allOrNone' && records.some((r) => r.instrument.info.type === 'futures')) {
    throw new VenueRejection(ErrorCode.ValidationError, 'futures order lists are oneCancelOther or oneTriggerOneCancelOther only');
  }
  for (const r of records) assertFuturesOrder(engine, r);
  const needs = records.map((r) => initialNeed(engine, r));
  assertListFunds(engine, records, needs);
  const list: ListState = { listId, account, contingencyType: type, orderKeys: records.map((r) => r.key) };
  records.forEach((r, i) => {
    engine.membership.set(r.key, { list, role: listRole(type, i) });
    admit(engine, r, needs[i]);
  });
  engine.commit();
  if (type === 'allOrNone') {
    if (records.every((r) => canFillNow(engine, r))) records.forEach((r) => activate(engine, r));
    else records.forEach((r) => engine.close(r, 'expired', 'expired'));
  } else if (type === 'oneCancelOther') {
    for (const r of records) if (isActive(r)) start(engine, r);
  } else {
    start(engine, records[0] as OrderRecord);
  }
  engine.commit();
  return records;
}

/** Holds every order's need together and refuses (20001) when any currency is short. */
function assertListFunds(engine: VenueEngine, records: readonly OrderRecord[], needs: readonly (ReservationNeed | undefined)[]): void {
  records.forEach((r, i) => engine.reservations.set(r.key, r.account, r.reserveGroup, needs[i]));
  let short: { order: OrderRecord; need: ReservationNeed } | undefined;
  records.forEach((r, i) => {
    const need = needs[i];
    if (short === undefined && need !== undefined && !engine.canHold(r.account, need.currency, engine.reservations.total(r.account, need.currency))) {
      short = { order: r, need };
    }
  });
  for (const r of records) engine.reservations.set(r.key, r.account, r.reserveGroup, undefined);
  if (short !== undefined) throw insufficient(short.order, short.need);
}

/** True when a FOK order of an allOrNone list would fill completely now (and, for a market buy, within its reserve). */
function canFillNow(engine: VenueEngine, order: OrderRecord): boolean {
  const market = engine.market(order);
  const lots = remainingLots(order);
  const limit = hasLimitPrice(order.type) ? order.priceTicks : undefined;
  if (order.postOnly && market.wouldTake(order.side, limit)) return false;
  if (market.availableToTake(order.side, limit, lots) < lots) return false;
  return order.marketBudget === undefined || affordableLots(order, market, lots, order.marketBudget) >= lots;
}
