import { Decimal, Rounding, type DecimalString } from './decimal.js';
import { ValidationError } from './errors.js';
import type { SymbolInfo } from './resources/symbol.js';
import { formatScaled, parseScaled } from './scaled.js';

/** Order side. */
export type Side = 'buy' | 'sell';

/**
 * A tradable symbol with its grid: tick size for prices, quantity increment for sizes, fee rates.
 *
 * Two representations of values are offered:
 * - {@link Decimal} helpers (validate, quantize) for order entry and accounting;
 * - integer helpers (ticks and lots) for the hot path: `priceToTicks("2684.05")` on a 0.01 tick is
 *   `268405`, computed from the text without decimal.js.
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
    this.tickUnits = info.tick_size.times(new Decimal(10).pow(this.priceScale)).toNumber();
    this.quantityScale = info.quantity_increment.decimalPlaces();
    this.lotUnits = info.quantity_increment.times(new Decimal(10).pow(this.quantityScale)).toNumber();
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

  /** Integer ticks of a price text; NaN when the text is off the tick grid or not a decimal. */
  priceToTicks(price: string): number {
    const scaled = parseScaled(price, this.priceScale);
    if (this.tickUnits === 1) return scaled;
    const ticks = scaled / this.tickUnits;
    return Number.isInteger(ticks) ? ticks : Number.NaN;
  }

  /** Price text of an integer tick count, with the tick size's number of decimals. */
  ticksToPrice(ticks: number): DecimalString {
    return formatScaled(ticks * this.tickUnits, this.priceScale) as DecimalString;
  }

  /** Integer lots of a quantity text; NaN when off the increment grid or not a decimal. */
  quantityToLots(quantity: string): number {
    const scaled = parseScaled(quantity, this.quantityScale);
    if (this.lotUnits === 1) return scaled;
    const lots = scaled / this.lotUnits;
    return Number.isInteger(lots) ? lots : Number.NaN;
  }

  /** Quantity text of an integer lot count. */
  lotsToQuantity(lots: number): DecimalString {
    return formatScaled(lots * this.lotUnits, this.quantityScale) as DecimalString;
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
