import { Decimal, type Instrument, parseScaled, Rounding, scaleOf, type Side } from 'tradeloop';

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
  return quotePricesAt(instrument, inputs.mid, quoteFactors(inputs));
}

/** The parts of {@link quotePrices} that do not depend on the mid (so a caller can keep them). */
export interface QuoteFactors {
  /** 1 - skewBps x clamp(inventory / maxInventory, -1, 1) / 10000. */
  readonly skew: Decimal;
  /** 1 - halfSpreadBps / 10000. */
  readonly below: Decimal;
  /** 1 + halfSpreadBps / 10000. */
  readonly above: Decimal;
}

/** The mid-independent factors of {@link quotePrices} (the same operations, in the same order). */
export function quoteFactors(inputs: Omit<QuoteInputs, 'mid'>): QuoteFactors {
  const ratio = clamp(inputs.inventory.div(inputs.maxInventory), ONE.neg(), ONE);
  const half = inputs.halfSpreadBps.div(BPS);
  return { skew: ONE.minus(inputs.skewBps.times(ratio).div(BPS)), below: ONE.minus(half), above: ONE.plus(half) };
}

/** {@link quotePrices} from a mid and factors computed before. */
export function quotePricesAt(instrument: Instrument, mid: Decimal, factors: QuoteFactors): QuotePrices {
  const center = mid.times(factors.skew);
  const bid = passivePrice(instrument, 'buy', center.times(factors.below));
  let ask = passivePrice(instrument, 'sell', center.times(factors.above));
  if (!ask.greaterThan(bid)) ask = bid.plus(instrument.tickSize);
  return { center, bid, ask };
}

/**
 * `instrument.roundPricePassive(side, price)`. With a tick of one unit in its last decimal (0.01)
 * rounding to the tick is rounding to that many decimals, so no Decimal division and product.
 */
export function passivePrice(instrument: Instrument, side: Side, price: Decimal): Decimal {
  if (instrument.tickUnits !== 1) return instrument.roundPricePassive(side, price);
  return price.toDecimalPlaces(instrument.priceScale, side === 'buy' ? Rounding.floor : Rounding.ceil);
}

/**
 * The prices a quote at `price` may be asked to move to without being moved: those strictly
 * between `low` and `high` (`price` -/+ `bps` basis points of it). Computed once per quote price,
 * so the per-book-update test is two comparisons; same verdict as {@link movedBy}.
 */
export interface RequoteBand {
  readonly price: Decimal;
  readonly bps: Decimal;
  readonly low: Decimal;
  readonly high: Decimal;
}

/** The band of a quote at `price` for a minimum move of `bps` (exact: a division by 10,000). */
export function requoteBand(price: Decimal, bps: Decimal): RequoteBand {
  const step = price.times(bps).dividedBy(BPS);
  return { price, bps, low: price.minus(step), high: price.plus(step) };
}

/** True when `next` is a move out of the band ({@link movedBy} of the band's price). */
export function leavesBand(band: RequoteBand, next: Decimal): boolean {
  if (next === band.price || next.equals(band.price)) return false;
  return next.lessThanOrEqualTo(band.low) || next.greaterThanOrEqualTo(band.high);
}

/**
 * The band of a quote at `price` on an instrument's tick grid, for targets already on it: the tick
 * counts a target must reach to leave it, so the per-book-update test compares integers. With the
 * price at P ticks, the band's half-width is x = P x bps / 10000 ticks, and a target of t ticks is
 * at or below `low` exactly when t <= P - ceil(x), at or above `high` exactly when t >= P + ceil(x).
 */
export interface TickBand {
  readonly price: Decimal;
  readonly bps: Decimal;
  /** Ticks of `price`; NaN when the integer form does not apply (the Decimal band is used then). */
  readonly priceTicks: number;
  /** Largest tick count at or below `low`. */
  readonly lowTicks: number;
  /** Smallest tick count at or above `high`. */
  readonly highTicks: number;
}

/** `bps` as an integer over a power of ten, for the last `bps` seen (one per market maker). */
let lastBps: { readonly bps: Decimal; readonly units: number; readonly divisor: number } | undefined;

/** {@link requoteBand} in ticks of `instrument` (exact integer arithmetic, or NaN ticks when out of its range). */
export function tickBand(instrument: Instrument, price: Decimal, bps: Decimal): TickBand {
  if (lastBps?.bps !== bps) {
    const text = bps.toFixed();
    const scale = scaleOf(text);
    lastBps = { bps, units: parseScaled(text, scale), divisor: 10 ** (4 + scale) };
  }
  const { units, divisor } = lastBps;
  const ticks = instrument.priceToTicks(price.toFixed());
  const numerator = ticks * units;
  if (!(units >= 0) || !Number.isSafeInteger(numerator) || !Number.isSafeInteger(divisor)) {
    return { price, bps, priceTicks: Number.NaN, lowTicks: Number.NaN, highTicks: Number.NaN };
  }
  const rest = numerator % divisor;
  const half = (numerator - rest) / divisor + (rest > 0 ? 1 : 0);
  return { price, bps, priceTicks: ticks, lowTicks: ticks - half, highTicks: ticks + half };
}

/** {@link leavesBand} for a target of `targetTicks` ticks (NaN when the target is off the grid). */
export function leavesTickBand(band: TickBand, target: Decimal, targetTicks: number): boolean {
  if (Number.isNaN(band.priceTicks) || Number.isNaN(targetTicks)) return leavesBand(requoteBand(band.price, band.bps), target);
  if (targetTicks === band.priceTicks) return false;
  return targetTicks <= band.lowTicks || targetTicks >= band.highTicks;
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
