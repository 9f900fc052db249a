import { Decimal } from '../../framework/model/decimal.js';
import { ErrorCode } from '../../framework/exchange/errors.js';
import type { ContingencyType } from '../../framework/model/resources/order.js';
import { start } from './order-activation.js';
import { assertFuturesOrder } from './futures/futures-order-checks.js';
import type { ValidatedOrder } from './order-validation.js';
import { tradesPosition, transition, type OrderRecord } from './order-state.js';
import { marketNeed, type ReservationNeed } from './reservations.js';
import { isConditionalType } from './triggers.js';
import type { VenueEngine } from './venue-engine.js';
import { VenueRejection, type AccountId } from './venue-types.js';

/**
 * The client_order_id an order gets: the requested one unless an active order carries it or it was
 * used earlier in the UTC day (20008 Duplicate clientOrderId), or a generated one.
 */
export function resolveClientOrderId(engine: VenueEngine, account: AccountId, requested: string | undefined): string {
  if (requested !== undefined) {
    if (engine.activeByClientId(account, requested) !== undefined || engine.clientIds.usedOn(account, requested, engine.time)) {
      throw new VenueRejection(ErrorCode.DuplicateClientOrderId, `client_order_id ${requested} was already used today`);
    }
    return requested;
  }
  for (;;) {
    const id = engine.ids.nextClientOrderId();
    if (engine.activeByClientId(account, id) === undefined && !engine.clientIds.usedOn(account, id, engine.time)) return id;
  }
}

/** List placement details of an order. */
export interface ListPlacement {
  readonly listId: string;
  readonly contingencyType: ContingencyType;
  readonly reserveGroup?: string;
  readonly inactive: boolean;
}

/** A new record for a validated order (not yet registered). */
export function createRecord(engine: VenueEngine, account: AccountId, v: ValidatedOrder, clientOrderId: string, list?: ListPlacement): OrderRecord {
  const key = engine.newKey();
  return {
    key,
    id: engine.ids.nextOrderId(),
    account,
    clientOrderId,
    instrument: v.instrument,
    side: v.side,
    type: v.type,
    timeInForce: v.timeInForce,
    quantityLots: v.quantityLots,
    cumulativeLots: 0,
    priceTicks: v.priceTicks,
    stopTicks: v.stopTicks,
    expireTime: v.expireTime,
    postOnly: v.postOnly,
    rates: v.rates,
    status: 'none',
    inactive: list?.inactive ?? false,
    triggered: false,
    resting: false,
    // Set later (a market buy's budget) or by a replacement; present from the start so every
    // record has one shape.
    marketBudget: undefined,
    createdAt: engine.time,
    updatedAt: engine.time,
    orderListId: list?.listId,
    contingencyType: list?.contingencyType,
    reserveGroup: list?.reserveGroup ?? `order:${key}`,
    originalClientOrderId: undefined,
    trades: [],
    notional: new Decimal(0),
    reduceOnly: v.reduceOnly,
    liquidation: false,
    margin: v.margin,
  };
}

/**
 * What a new order holds from acceptance. A market buy holds best ask x quantity x 1.1 plus fees
 * and keeps that as its budget; with no ask at all it holds nothing and will expire unfilled.
 */
export function initialNeed(engine: VenueEngine, order: OrderRecord): ReservationNeed | undefined {
  if (order.inactive) return undefined;
  if (order.type === 'market' && order.side === 'buy' && !tradesPosition(order)) {
    const ask = engine.market(order).bestAskTicks;
    if (Number.isNaN(ask)) {
      order.marketBudget = new Decimal(0);
      return undefined;
    }
    const inst = order.instrument;
    const need = marketNeed(inst, 'buy', inst.ticksToDecimal(ask), inst.lotsToDecimal(order.quantityLots), order.rates);
    order.marketBudget = need.amount.toDecimal();
    return need;
  }
  return engine.needOf({ ...order, status: 'new' });
}

/** 20001 with the currency short of funds. */
export function insufficient(order: OrderRecord, need: ReservationNeed): VenueRejection {
  return new VenueRejection(ErrorCode.InsufficientFunds, `not enough ${need.currency} available for ${order.clientOrderId}`);
}

/**
 * Checks funds for a single order: the market-buy rule is strict ("available balance greater
 * than" the reserve), every other order must fit what is available.
 */
export function assertFunds(engine: VenueEngine, order: OrderRecord, need: ReservationNeed | undefined): void {
  if (need === undefined) return;
  if (order.type === 'market' && order.side === 'buy' && !tradesPosition(order)) {
    if (!engine.ledger.availableUnits(order.account, need.currency).greaterThan(need.amount)) throw insufficient(order, need);
    return;
  }
  if (!engine.fits(order, need)) throw insufficient(order, need);
}

/** Registers an accepted order, holds its funds and reports `new` or `suspended`. */
export function admit(engine: VenueEngine, order: OrderRecord, need: ReservationNeed | undefined): void {
  engine.register(order);
  engine.hold(order, need);
  transition(order, isConditionalType(order.type) ? 'suspended' : 'new', engine.time);
  engine.report(order, order.status === 'suspended' ? 'suspended' : 'new');
}

/** Accepts and works one validated order (POST /api/3/spot/order). */
export function placeSingle(engine: VenueEngine, account: AccountId, v: ValidatedOrder): OrderRecord {
  const order = createRecord(engine, account, v, resolveClientOrderId(engine, account, v.clientOrderId));
  assertFuturesOrder(engine, order);
  const need = initialNeed(engine, order);
  assertFunds(engine, order, need);
  admit(engine, order, need);
  engine.commit();
  start(engine, order);
  engine.commit();
  return order;
}
