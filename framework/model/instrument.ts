import { Decimal, isDecimalString, Rounding, type DecimalString } from './decimal.js';
import { UnrepresentableValueError, ValidationError } from './errors.js';
import type { SymbolInfo } from './resources/symbol.js';
import { formatScaled, parseScaled } from './scaled.js';
import { formatScaledBig, MAX_EXACT, parseScaledBig } from './scaled-big.js';

/** Order side. */
export type Side = 'buy' | 'sell';

/**
 * A tradable symbol with its grid: tick size for prices, quantity increment for sizes, fee rates.
 *
 * Two representations of values are offered:
 * - {@link Decimal} helpers (validate, quantize) for order entry and accounting;
 * - integer helpers (ticks and lots) for the hot path: `priceToTicks("2684.05")` on a 0.01 tick is
 *   `268405`, computed from the text without decimal.js.
 *
 * Integer conversions are exact or throw {@link UnrepresentableValueError}: a count beyond 2^53 - 1
 * ticks or lots (or a grid whose step is not an exact integer of units) never becomes a rounded
 * number, NaN or a clamp. A text off the grid (or not a decimal) has no tick or lot count at all:
 * `priceToTicks`/`quantityToLots` answer NaN for it, and callers either reject it or round it
 * onto the grid first.
 */
export class Instrument {
  /** Decimals of the tick size ("0.01" -> 2). */
  readonly priceScale: number;
  /** Tick size in units of 10^-priceScale ("0.05" -> 5). */
  readonly tickUnits: number;
  /** Decimals of the quantity increment. */
  readonly quantityScale: number;
  /** Quantity increment in units of 10^-quantityScale. */
  readonly lotUnits: number;

  constructor(
    readonly symbol: string,
    readonly info: SymbolInfo,
  ) {
    this.priceScale = info.tick_size.decimalPlaces();
    this.tickUnits = stepUnits(symbol, 'tick_size', info.tick_size, this.priceScale);
    this.quantityScale = info.quantity_increment.decimalPlaces();
    this.lotUnits = stepUnits(symbol, 'quantity_increment', info.quantity_increment, this.quantityScale);
  }

  get tickSize(): Decimal {
    return this.info.tick_size;
  }

  get quantityIncrement(): Decimal {
    return this.info.quantity_increment;
  }

  /** Quote currency (price unit). */
  get quoteCurrency(): string {
    return this.info.quote_currency;
  }

  /** Base currency, or null for futures contracts. */
  get baseCurrency(): string | null {
    return this.info.base_currency;
  }

  /** True when the symbol accepts orders now. */
  get isWorking(): boolean {
    return this.info.status === 'working';
  }

  /** True when `price` is a positive multiple of the tick size. */
  isValidPrice(price: Decimal): boolean {
    return price.isPositive() && !price.isZero() && price.mod(this.info.tick_size).isZero();
  }

  /** True when `quantity` is a positive multiple of the quantity increment. */
  isValidQuantity(quantity: Decimal): boolean {
    return quantity.isPositive() && !quantity.isZero() && quantity.mod(this.info.quantity_increment).isZero();
  }

  /**
   * What the exchange does with an off-grid price when `strict_validate` is off: round half down to
   * the tick (document 001, Create order parameters).
   */
  quantizePriceHalfDown(price: Decimal): Decimal {
    return roundToStep(price, this.info.tick_size, Rounding.halfDown);
  }

  /** Server-side rounding of a quantity when `strict_validate` is off: half down to the increment. */
  quantizeQuantityHalfDown(quantity: Decimal): Decimal {
    return roundToStep(quantity, this.info.quantity_increment, Rounding.halfDown);
  }

  /**
   * Rounds a limit price to the grid on the passive side: a buy never pays more than asked (floor),
   * a sell never receives less (ceil).
   */
  roundPricePassive(side: Side, price: Decimal): Decimal {
    return roundToStep(price, this.info.tick_size, side === 'buy' ? Rounding.floor : Rounding.ceil);
  }

  /** Rounds a price to the grid on the aggressive side: a buy rounds up, a sell down (to cross). */
  roundPriceAggressive(side: Side, price: Decimal): Decimal {
    return roundToStep(price, this.info.tick_size, side === 'buy' ? Rounding.ceil : Rounding.floor);
  }

  /** Rounds a quantity down to the increment, so an order never exceeds what was intended. */
  roundQuantityDown(quantity: Decimal): Decimal {
    return roundToStep(quantity, this.info.quantity_increment, Rounding.floor);
  }

  /** Throws a ValidationError naming `field` unless the price is on the grid. */
  assertValidPrice(price: Decimal, field = 'price'): void {
    if (!this.isValidPrice(price)) {
      throw new ValidationError(field, `must be a positive multiple of tick_size ${this.info.tick_size.toFixed()} for ${this.symbol}`, price.toFixed());
    }
  }

  /** Throws a ValidationError naming `field` unless the quantity is on the grid. */
  assertValidQuantity(quantity: Decimal, field = 'quantity'): void {
    if (!this.isValidQuantity(quantity)) {
      throw new ValidationError(field, `must be a positive multiple of quantity_increment ${this.info.quantity_increment.toFixed()} for ${this.symbol}`, quantity.toFixed());
    }
  }

  /**
   * Integer ticks of a price text; NaN when the text is off the tick grid or not a decimal.
   * Throws {@link UnrepresentableValueError} when the price is on the grid but beyond 2^53 - 1 ticks.
   */
  priceToTicks(price: string): number {
    const scaled = parseScaled(price, this.priceScale);
    if (scaled !== scaled) return this.bigCount(price, this.priceScale, this.tickUnits, 'price', 'ticks of tick_size');
    if (this.tickUnits === 1) return scaled;
    return scaled % this.tickUnits === 0 ? scaled / this.tickUnits : Number.NaN;
  }

  /** Price text of an integer tick count, with the tick size's number of decimals (exact at any size). */
  ticksToPrice(ticks: number): DecimalString {
    return formatUnits(this.symbol, 'ticks', ticks, this.tickUnits, this.priceScale) as DecimalString;
  }

  /**
   * Integer lots of a quantity text; NaN when off the increment grid or not a decimal. Throws
   * {@link UnrepresentableValueError} when the quantity is on the grid but beyond 2^53 - 1 lots.
   */
  quantityToLots(quantity: string): number {
    const scaled = parseScaled(quantity, this.quantityScale);
    if (scaled !== scaled) return this.bigCount(quantity, this.quantityScale, this.lotUnits, 'quantity', 'lots of quantity_increment');
    if (this.lotUnits === 1) return scaled;
    return scaled % this.lotUnits === 0 ? scaled / this.lotUnits : Number.NaN;
  }

  /** Quantity text of an integer lot count (exact at any size). */
  lotsToQuantity(lots: number): DecimalString {
    return formatUnits(this.symbol, 'lots', lots, this.lotUnits, this.quantityScale) as DecimalString;
  }

  /**
   * Off the hot path: the count of a text the safe-integer parser could not read. Off the grid or
   * not a decimal: NaN. On the grid: the exact count, or a throw when that exceeds 2^53 - 1.
   */
  private bigCount(text: string, scale: number, units: number, field: string, unitName: string): number {
    if (!isDecimalString(text)) return Number.NaN;
    const negative = text.charCodeAt(0) === 45;
    const scaled = parseScaledBig(negative ? text.slice(1) : text, scale);
    const step = BigInt(units);
    if (scaled === undefined || scaled % step !== 0n) return Number.NaN;
    const count = scaled / step;
    if (count > MAX_EXACT) throw new UnrepresentableValueError(this.symbol, field, text, `is more than 2^53 - 1 ${unitName}`);
    return negative ? -Number(count) : Number(count);
  }

  /** Price of integer ticks as a Decimal. */
  ticksToDecimal(ticks: number): Decimal {
    return new Decimal(this.ticksToPrice(ticks));
  }

  /** Quantity of integer lots as a Decimal. */
  lotsToDecimal(lots: number): Decimal {
    return new Decimal(this.lotsToQuantity(lots));
  }
}

/** Rounds `value` to a multiple of `step` with the given rounding mode. */
export function roundToStep(value: Decimal, step: Decimal, rounding: Rounding): Decimal {
  return value.dividedBy(step).toDecimalPlaces(0, rounding).times(step);
}

/** A grid step in integer units of 10^-scale, which must be an exact safe integer. */
function stepUnits(symbol: string, field: string, step: Decimal, scale: number): number {
  const units = step.times(new Decimal(10).pow(scale));
  if (!units.isInteger() || units.lessThan(1) || units.greaterThan(Number.MAX_SAFE_INTEGER)) {
    throw new UnrepresentableValueError(symbol, field, step.toFixed(), 'must be a positive step of at most 2^53 - 1 units of its last decimal');
  }
  return units.toNumber();
}

/** Decimal text of `count` steps of `units` x 10^-scale; BigInt when the product leaves the safe range. */
function formatUnits(symbol: string, field: string, count: number, units: number, scale: number): string {
  if (!Number.isSafeInteger(count)) throw new UnrepresentableValueError(symbol, field, count, 'must be an integer of at most 2^53 - 1');
  const scaled = count * units;
  if (scaled <= Number.MAX_SAFE_INTEGER && scaled >= -Number.MAX_SAFE_INTEGER) return formatScaled(scaled, scale);
  return formatScaledBig(BigInt(count) * BigInt(units), scale);
}
