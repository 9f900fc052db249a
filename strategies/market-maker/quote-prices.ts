import { Decimal } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';

const BPS = new Decimal(10_000);
const ONE = new Decimal(1);

/** What the quote prices depend on. */
export interface QuoteInputs {
  /** Mid of the book (may carry one decimal more than the tick). */
  readonly mid: Decimal;
  /** Signed base position (long > 0). */
  readonly inventory: Decimal;
  readonly maxInventory: Decimal;
  readonly halfSpreadBps: Decimal;
  readonly skewBps: Decimal;
}

/** A bid and an ask on the tick grid around a skewed center. */
export interface QuotePrices {
  /** The mid shifted by the inventory skew (off the grid). */
  readonly center: Decimal;
  readonly bid: Decimal;
  readonly ask: Decimal;
}

/**
 * Quote prices of the market maker:
 *
 *   center = mid * (1 - skewBps * clamp(inventory / maxInventory, -1, 1) / 10000)
 *   bid    = floor_tick(center * (1 - halfSpreadBps / 10000))
 *   ask    = ceil_tick(center * (1 + halfSpreadBps / 10000))
 *
 * A long position moves both quotes down (the ask gets hit sooner, the bid later), a short one
 * up. The ratio is clamped so a position beyond the limit cannot push a quote to zero. Rounding
 * is side-aware (a bid never rounds up, an ask never down), so `bid <= center <= ask` always
 * holds; when both land on the same tick the ask moves one tick up, so `bid < ask`.
 */
export function quotePrices(instrument: Instrument, inputs: QuoteInputs): QuotePrices {
  const ratio = clamp(inputs.inventory.div(inputs.maxInventory), ONE.neg(), ONE);
  const center = inputs.mid.times(ONE.minus(inputs.skewBps.times(ratio).div(BPS)));
  const half = inputs.halfSpreadBps.div(BPS);
  const bid = instrument.roundPricePassive('buy', center.times(ONE.minus(half)));
  let ask = instrument.roundPricePassive('sell', center.times(ONE.plus(half)));
  if (!ask.greaterThan(bid)) ask = bid.plus(instrument.tickSize);
  return { center, bid, ask };
}

/** True when `next` differs from `current` by at least `bps` basis points of `current`. */
export function movedBy(current: Decimal, next: Decimal, bps: Decimal): boolean {
  if (current === next || current.equals(next)) return false;
  return next.minus(current).abs().times(BPS).greaterThanOrEqualTo(current.times(bps));
}

function clamp(value: Decimal, min: Decimal, max: Decimal): Decimal {
  if (value.lessThan(min)) return min;
  return value.greaterThan(max) ? max : value;
}
