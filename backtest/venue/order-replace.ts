import { ErrorCode } from '../../framework/exchange/errors.js';
import { assertRiskLimit } from './futures/futures-risk-limit.js';
import { activate } from './order-activation.js';
import { insufficient, resolveClientOrderId } from './order-placement.js';
import { isActive, remainingLots, transition, type OrderRecord } from './order-state.js';
import { invalid, toLots, toTicks } from './order-validation.js';
import { hasLimitPrice } from './triggers.js';
import type { VenueEngine } from './venue-engine.js';
import { VenueRejection, type AccountId, type ReplaceOrderRequest } from './venue-types.js';

/**
 * Replaces an active order (PATCH /api/3/spot/order/{client_order_id}). A new order takes over with
 * `new_client_order_id` (generated when omitted), `original_client_order_id` naming the old one, the
 * executed quantity carried over and the same list membership; it is reported once with
 * report_type `replaced` (the old order leaves the active set and goes to history as canceled).
 *
 * Queue priority: a price change or a quantity increase loses it (the order leaves the book and is
 * worked again, possibly taking liquidity at its new price); a quantity decrease keeps it (reduced
 * in place). Funds are recomputed for the new order (20001 when they do not fit). `margin` says
 * which account's orders the request sees (an order of the other one is 20002, as an unknown one).
 */
export function replaceOrder(engine: VenueEngine, account: AccountId, request: ReplaceOrderRequest, margin = false): OrderRecord {
  const old = engine.activeByClientId(account, request.client_order_id);
  if (old === undefined || !isActive(old) || old.margin !== margin) throw new VenueRejection(ErrorCode.OrderNotFound, `no active order ${request.client_order_id}`);
  const inst = old.instrument;
  const strict = request.strict_validate === true;
  const quantityLots = toLots(inst, request.quantity, strict);
  let priceTicks = old.priceTicks;
  if (hasLimitPrice(old.type)) {
    if (request.price === undefined) throw invalid(`price is required to replace an order of type ${old.type}`);
    priceTicks = toTicks(inst, request.price, 'price', strict);
  }
  if (quantityLots === old.quantityLots && priceTicks === old.priceTicks) {
    throw new VenueRejection(ErrorCode.NothingChanged, 'price and quantity are the same as the order\'s');
  }
  if (quantityLots <= old.cumulativeLots) {
    throw invalid(`quantity must exceed the executed quantity ${inst.lotsToQuantity(old.cumulativeLots)}`);
  }
  const clientOrderId = resolveClientOrderId(engine, account, request.new_client_order_id);
  const next = replacement(old, engine.ids.nextOrderId(), clientOrderId, quantityLots, priceTicks, engine.time);
  if (inst.info.type === 'futures') assertRiskLimit(engine, next, old.key);
  const need = engine.needOf(next);
  if (need !== undefined && !engine.fits(next, need)) throw insufficient(next, need);

  const repriced = priceTicks !== old.priceTicks || quantityLots > old.quantityLots;
  const market = engine.market(old);
  if (old.resting) {
    if (repriced) {
      market.remove(old.key);
      next.resting = false;
    } else {
      market.reduce(old.key, remainingLots(next));
    }
  }
  old.resting = false;
  transition(old, 'canceled', engine.time);
  engine.unregister(old);
  engine.history.addClosed(account, old, engine.time);

  engine.register(next);
  if (next.status === 'suspended') engine.park(next);
  engine.hold(next, need);
  // One report, as the real exchange sends it: the new order, report_type `replaced`, naming the old
  // one in original_client_order_id; the old order simply stops being active.
  engine.report(next, 'replaced');
  engine.commit();
  if (repriced && !next.inactive && next.status !== 'suspended' && (next.triggered || next.type === 'limit')) activate(engine, next);
  engine.commit();
  return next;
}

/**
 * The record of the order taking over from `old`: every field of `old` except the new identity,
 * size, price and times, and its own copy of the executions. Spelled out field by field, in the
 * order `createRecord` builds them, so every record shares one object shape (a spread of the old
 * record costs several times more on this per-requote path). A field added to OrderRecord must be
 * added here too.
 */
function replacement(old: OrderRecord, id: string, clientOrderId: string, quantityLots: number, priceTicks: number | undefined, time: number): OrderRecord {
  return {
    key: old.key,
    id,
    account: old.account,
    clientOrderId,
    instrument: old.instrument,
    side: old.side,
    type: old.type,
    timeInForce: old.timeInForce,
    quantityLots,
    cumulativeLots: old.cumulativeLots,
    priceTicks,
    stopTicks: old.stopTicks,
    expireTime: old.expireTime,
    postOnly: old.postOnly,
    rates: old.rates,
    status: old.status,
    inactive: old.inactive,
    triggered: old.triggered,
    resting: old.resting,
    marketBudget: old.marketBudget,
    createdAt: time,
    updatedAt: time,
    orderListId: old.orderListId,
    contingencyType: old.contingencyType,
    reserveGroup: old.reserveGroup,
    originalClientOrderId: old.clientOrderId,
    trades: [...old.trades],
    notional: old.notional,
    reduceOnly: old.reduceOnly,
    liquidation: old.liquidation,
    margin: old.margin,
  };
}
