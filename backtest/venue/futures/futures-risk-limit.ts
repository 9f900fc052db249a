import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import { ErrorCode } from '../../../framework/exchange/errors.js';
import { lotsDecimal } from '../grid-decimals.js';
import { isActive, type OrderRecord } from '../order-state.js';
import type { VenueEngine } from '../venue-engine.js';
import { VenueRejection } from '../venue-types.js';
import { futuresOrderNotional } from './futures-margin-need.js';

/**
 * The exchange's futures risk limit, enforced at the venue (document 001, limits): at the account's
 * leverage L on the symbol, the limit is `limit_base / L ^ limit_power`; it is compared against the
 * unfilled value of the account's open orders on the symbol + the position's market value + the new
 * order's value, and not applied when L is below `unlimited_threshold` (nor on a symbol whose
 * configuration has no `limit_base`/`limit_power`). Exactly at the limit passes.
 *
 * Valuation (assumed where the spec is silent): an order at its limit price, a suspended stop or
 * take-profit market order at its stop price, a market order at the best opposite outside price (0
 * when that side is empty: such an order cannot fill); the position at the mark price (0 without a
 * mark). Every open order counts, reduce-only ones too (the spec makes no exception); a reduce-only
 * new order is not checked (it cannot add risk). The comparison is `value x L^p > base`, so no
 * division rounds; a fractional `limit_power` makes `L^p` a 50-digit approximation.
 *
 * A breach is refused with 20003 Limit exceeded (assumed code: the spec names none for this limit)
 * and a description giving the value, the limit and the leverage. `replacing` is the key of the
 * order a replacement takes over from (its old value does not count).
 */
export function assertRiskLimit(engine: VenueEngine, order: OrderRecord, replacing?: number): void {
  if (order.reduceOnly) return;
  const symbol = order.instrument.symbol;
  const terms = engine.futures.termsOf(symbol);
  const { limitBase: base, limitPower: power, unlimitedThreshold: threshold } = terms;
  if (base === undefined || power === undefined) return;
  const leverage = engine.futures.leverage(order.account, symbol);
  if (threshold !== undefined && leverage.lessThan(threshold)) return;
  let value = orderValue(engine, order);
  for (const open of engine.byClientId.get(order.account)?.values() ?? []) {
    if (open.key === replacing || open.key === order.key || open.instrument.symbol !== symbol || !isActive(open)) continue;
    value = value.plus(orderValue(engine, open));
  }
  const position = engine.futures.position(order.account, symbol)?.grid;
  const mark = engine.marks.markOf(symbol);
  if (position !== undefined && mark !== undefined) value = value.plus(mark.times(lotsDecimal(order.instrument, Math.abs(position.lots))));
  if (value.times(leverage.pow(power)).greaterThan(base)) {
    const limit = base.dividedBy(leverage.pow(power));
    throw new VenueRejection(
      ErrorCode.LimitExceeded,
      `${symbol} risk limit: open orders + position + order value ${value.toFixed()} exceeds ${limit.toFixed()} at leverage ${leverage.toFixed()}`,
    );
  }
}

/** Unfilled value of an order (0 when it has no price: it cannot fill). */
function orderValue(engine: VenueEngine, order: OrderRecord): Decimal {
  return futuresOrderNotional(engine, order) ?? ZERO;
}
