import { Decimal, type Instrument, parseScaled, parseScaledBig, scaleOf, UnrepresentableValueError } from 'tradeloop';

const BPS = new Decimal(10_000);

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

/** A bid and an ask on the tick grid. */
export interface QuotePrices {
  readonly bid: Decimal;
  readonly ask: Decimal;
}

/** A bid and an ask in ticks of the instrument's tick size. */
export interface QuoteTicks {
  readonly bidTicks: number;
  readonly askTicks: number;
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
 * holds; when both land on the same tick the ask moves one tick up, so `bid < ask`. Computed
 * exactly (ratios of integers), whatever the decimals of the inputs.
 */
export function quotePrices(instrument: Instrument, inputs: QuoteInputs): QuotePrices {
  const { bidTicks, askTicks } = quoteTicksAt(instrument, inputs.mid.toFixed(), quoteFactors(inputs));
  return { bid: instrument.ticksToDecimal(bidTicks), ask: instrument.ticksToDecimal(askTicks) };
}

/** `n / d` exactly, `d > 0`. */
export interface Ratio {
  readonly n: bigint;
  readonly d: bigint;
}

/** The parts of {@link quotePrices} that do not depend on the mid (so a caller can keep them). */
export interface QuoteFactors {
  /** skew x (1 - halfSpreadBps / 10000): the bid is this much of the mid before rounding. */
  readonly bid: Ratio;
  /** skew x (1 + halfSpreadBps / 10000): the ask is this much of the mid before rounding. */
  readonly ask: Ratio;
}

const TEN_THOUSAND = 10_000n;

/** The mid-independent factors of {@link quotePrices}, as exact ratios. */
export function quoteFactors(inputs: Omit<QuoteInputs, 'mid'>): QuoteFactors {
  const inventory = ratioOf(inputs.inventory);
  const max = ratioOf(inputs.maxInventory);
  // inventory / maxInventory, clamped to [-1, 1] (maxInventory is positive: see the parameters).
  let ratioN = inventory.n * max.d;
  let ratioD = inventory.d * max.n;
  if (ratioD < 0n) [ratioN, ratioD] = [-ratioN, -ratioD];
  if (ratioN > ratioD) ratioN = ratioD;
  else if (ratioN < -ratioD) ratioN = -ratioD;
  const skewBps = ratioOf(inputs.skewBps);
  const half = ratioOf(inputs.halfSpreadBps);
  const skewD = TEN_THOUSAND * skewBps.d * ratioD;
  const skewN = skewD - skewBps.n * ratioN;
  const sideD = TEN_THOUSAND * half.d;
  return {
    bid: { n: skewN * (sideD - half.n), d: skewD * sideD },
    ask: { n: skewN * (sideD + half.n), d: skewD * sideD },
  };
}

/**
 * {@link quotePrices} in ticks, from the mid's text and factors computed before: integer
 * arithmetic only (a BigInt product and quotient per side). Throws
 * {@link UnrepresentableValueError} for a quote beyond 2^53 - 1 ticks.
 */
export function quoteTicksAt(instrument: Instrument, midText: string, factors: QuoteFactors): QuoteTicks {
  const scale = scaleOf(midText);
  const midUnits = parseScaledBig(midText, scale);
  if (midUnits === undefined) throw new UnrepresentableValueError(instrument.symbol, 'mid', midText, 'is not a plain decimal');
  // mid / tick = midUnits x 10^priceScale / (10^scale x tickUnits).
  const perTick = 10n ** BigInt(scale) * BigInt(instrument.tickUnits);
  const midShift = midUnits * 10n ** BigInt(instrument.priceScale);
  const bid = floorDiv(midShift * factors.bid.n, perTick * factors.bid.d);
  let ask = -floorDiv(-midShift * factors.ask.n, perTick * factors.ask.d);
  if (ask <= bid) ask = bid + 1n;
  return { bidTicks: safeTicks(instrument, 'bid', bid), askTicks: safeTicks(instrument, 'ask', ask) };
}

/** floor(a / b) for b > 0 (BigInt division truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

function safeTicks(instrument: Instrument, side: 'bid' | 'ask', ticks: bigint): number {
  if (ticks > MAX_TICKS || ticks < -MAX_TICKS) {
    throw new UnrepresentableValueError(instrument.symbol, `${side} quote`, ticks.toString(), 'is more than 2^53 - 1 ticks of tick_size');
  }
  return Number(ticks);
}

const MAX_TICKS = BigInt(Number.MAX_SAFE_INTEGER);

/** A Decimal as an exact ratio of integers (its plain text over a power of ten). */
function ratioOf(value: Decimal): Ratio {
  const text = value.toFixed();
  const negative = text.charCodeAt(0) === 45;
  const magnitude = negative ? text.slice(1) : text;
  const scale = scaleOf(magnitude);
  const units = parseScaledBig(magnitude, scale) as bigint;
  return { n: negative ? -units : units, d: 10n ** BigInt(scale) };
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

/**
 * {@link leavesBand} for a target of `targetTicks` ticks; undefined when the band has no integer
 * form (then {@link leavesBand} answers, with the target's price).
 */
export function leavesTickBand(band: TickBand, targetTicks: number): boolean | undefined {
  if (Number.isNaN(band.priceTicks)) return undefined;
  if (targetTicks === band.priceTicks) return false;
  return targetTicks <= band.lowTicks || targetTicks >= band.highTicks;
}

/** True when `next` differs from `current` by at least `bps` basis points of `current`. */
export function movedBy(current: Decimal, next: Decimal, bps: Decimal): boolean {
  if (current === next || current.equals(next)) return false;
  return next.minus(current).abs().times(BPS).greaterThanOrEqualTo(current.times(bps));
}
