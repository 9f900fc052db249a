import type { Decimal } from '../../framework/model/decimal.js';
import type { MatchFill, SymbolMarket } from './matching/market-port.js';
import { afterClose, afterExecution } from './list-effects.js';
import { isActive, remainingLots, transition, type OrderRecord } from './order-state.js';
import { hasLimitPrice, isConditionalType, isTriggered } from './triggers.js';
import type { VenueEngine } from './venue-engine.js';

/**
 * Puts an active (new, or just triggered) order to work in its symbol's market, by the rules of
 * document 001:
 * - post_only: expires instead of taking when it would take liquidity;
 * - FOK: expires unless the whole remaining quantity is available within its limit now;
 * - limit GTC/Day/GTD: takes what crosses, rests the remainder behind the outside queue;
 * - IOC, FOK and market: take what they can; an unfilled remainder expires;
 * - market buy: fills only as far as its reserve (best ask x quantity x 1.1 plus fees) pays for;
 *   without any ask it expires unfilled.
 */
export function activate(engine: VenueEngine, order: OrderRecord): void {
  const market = engine.market(order);
  const limit = hasLimitPrice(order.type) ? order.priceTicks : undefined;
  const lots = remainingLots(order);
  if (order.postOnly && market.wouldTake(order.side, limit)) {
    engine.close(order, 'expired', 'expired');
    afterClose(engine, order);
    return;
  }
  if (order.timeInForce === 'FOK' && market.availableToTake(order.side, limit, lots) < lots) {
    engine.close(order, 'expired', 'expired');
    afterClose(engine, order);
    return;
  }
  const takeLots = order.marketBudget === undefined ? lots : affordableLots(order, market, lots, order.marketBudget);
  if (takeLots > 0 && (limit === undefined || market.wouldTake(order.side, limit))) {
    settleAll(engine, market.take(order.key, order.side, limit, takeLots).fills);
  }
  if (!isActive(order)) return;
  if (limit === undefined || order.timeInForce === 'IOC' || order.timeInForce === 'FOK') {
    engine.close(order, 'expired', 'expired');
    afterClose(engine, order);
    return;
  }
  market.rest(order.key, order.side, limit, remainingLots(order), engine.time);
  order.resting = true;
}

/** Settles fills in order, applying list effects after each; fills of orders closed meanwhile are dropped. */
export function settleAll(engine: VenueEngine, fills: readonly MatchFill[]): void {
  // Indexed: called per market frame, mostly with the shared empty list; for-of would allocate an iterator each time.
  for (let i = 0; i < fills.length; i++) {
    const fill = fills[i] as MatchFill;
    const order = engine.orders.get(fill.orderKey);
    if (order === undefined || !engine.settle(fill)) continue;
    afterExecution(engine, order);
  }
}

/**
 * Largest lot count (up to `lots`) whose cost at the current asks, plus the taker fee when it is
 * charged in the quote, fits the market buy's budget.
 */
export function affordableLots(order: OrderRecord, market: SymbolMarket, lots: number, budget: Decimal): number {
  if (order.side === 'sell') return lots;
  const inst = order.instrument;
  const unit = inst.tickSize.times(inst.quantityIncrement);
  const feeFactor = inst.info.fee_currency === inst.quoteCurrency ? order.rates.take.plus(1) : null;
  const fits = (n: number): boolean => {
    const cost = market.costToTake('buy', n);
    if (cost === undefined) return false;
    const notional = unit.times(typeof cost === 'number' ? cost : cost.toString());
    return !(feeFactor === null ? notional : notional.times(feeFactor)).greaterThan(budget);
  };
  let lo = 0;
  let hi = market.availableToTake('buy', undefined, lots);
  if (hi <= 0 || fits(hi)) return Math.max(0, hi);
  while (lo < hi) {
    // Halfway without adding the two: near 2^53 lots, lo + hi is no longer exact, rounds down to
    // 2 lo, and the search stops moving.
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Releases a suspended order whose trigger fired: it reports `new` and goes to work as a limit or
 * market order. A spot market buy's budget is what it held while suspended (stop price x quantity x
 * 1.1 plus fees).
 */
export function trigger(engine: VenueEngine, order: OrderRecord): void {
  engine.suspended.get(order.instrument.symbol)?.delete(order.key);
  order.triggered = true;
  transition(order, 'new', engine.time);
  // A futures order holds margin, not a spend budget: it fills like any market order.
  if (!hasLimitPrice(order.type) && order.side === 'buy' && order.instrument.info.type !== 'futures') order.marketBudget = engine.reservations.held(order.key);
  engine.report(order, 'new');
  activate(engine, order);
}

/** Fires the triggers of every suspended order of the symbol that the last trade price reached. */
export function checkTriggers(engine: VenueEngine, symbol: string): void {
  const keys = engine.suspended.get(symbol);
  const market = engine.markets.get(symbol);
  if (keys === undefined || keys.size === 0 || market === undefined) return;
  for (const key of [...keys].sort((a, b) => a - b)) {
    const order = engine.orders.get(key);
    if (order === undefined || !isActive(order) || order.inactive || order.status !== 'suspended') continue;
    if (isTriggered(order.type, order.side, order.stopTicks as number, market.lastTradeTicks)) trigger(engine, order);
  }
}

/** Starts an accepted, activated order: parks a conditional one (triggering it at once if due), works the rest. */
export function start(engine: VenueEngine, order: OrderRecord): void {
  if (isConditionalType(order.type) && !order.triggered) {
    engine.park(order);
    const market = engine.market(order);
    if (isTriggered(order.type, order.side, order.stopTicks as number, market.lastTradeTicks)) trigger(engine, order);
    return;
  }
  activate(engine, order);
}
