import { Decimal, isDecimalString } from '../../framework/model/decimal.js';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { UnrepresentableValueError } from '../../framework/model/errors.js';
import type { Instrument, Side } from '../../framework/model/instrument.js';
import { ORDER_TYPES, TIME_IN_FORCES, type OrderType, type TimeInForce } from '../../framework/model/resources/order.js';
import { effectiveRates, type FeeRates } from './fees.js';
import { hasLimitPrice, isConditionalType } from './triggers.js';
import { VenueRejection, type NewOrderRequest } from './venue-types.js';

/** A new-order request checked against its symbol, with values on the integer grid. */
export interface ValidatedOrder {
  readonly clientOrderId?: string;
  readonly instrument: Instrument;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly quantityLots: number;
  readonly priceTicks?: number;
  readonly stopTicks?: number;
  readonly expireTime?: number;
  readonly postOnly: boolean;
  readonly rates: FeeRates;
  /** Margin and futures only. */
  readonly reduceOnly: boolean;
  /** An order of the symbol's isolated margin account. */
  readonly margin: boolean;
}

/** What validation needs to know about the venue. */
export interface ValidationContext {
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** False while the whole exchange is closed (20010). */
  readonly exchangeOpen: boolean;
  readonly now: number;
}

const SIDE_VALUES: readonly string[] = ['buy', 'sell'];
const MAX_CLIENT_ORDER_ID = 64;

/**
 * Checks a `POST /api/3/spot/order` request the way the exchange does, in its order: exchange
 * open, symbol known and working, the fields each type and time in force requires (10001 naming
 * the field), then price and quantity against the grid: off-grid values are refused (2022 Bad
 * price, 2012 Bad quantity) under `strict_validate`, otherwise rounded half down to the grid, and a
 * quantity that rounds to zero is 2011 Quantity too low.
 */
export function validateNewOrder(request: NewOrderRequest, ctx: ValidationContext, margin = false): ValidatedOrder {
  if (!ctx.exchangeOpen) throw new VenueRejection(ErrorCode.ExchangeClosed, 'the exchange is closed');
  if (typeof request.symbol !== 'string' || request.symbol === '') throw invalid('symbol is required');
  const instrument = ctx.instruments.get(request.symbol);
  if (instrument === undefined) throw new VenueRejection(ErrorCode.SymbolNotFound, `symbol ${request.symbol} is not traded here`);
  if (!instrument.isWorking) throw new VenueRejection(ErrorCode.TradingNotAllowed, `symbol ${request.symbol} is ${instrument.info.status}`);
  if (!SIDE_VALUES.includes(request.side)) throw invalid('side must be buy or sell');
  const type = request.type ?? 'limit';
  if (!ORDER_TYPES.includes(type)) throw invalid(`type must be one of ${ORDER_TYPES.join(', ')}`);
  const timeInForce = request.time_in_force ?? 'GTC';
  if (!TIME_IN_FORCES.includes(timeInForce)) throw invalid(`time_in_force must be one of ${TIME_IN_FORCES.join(', ')}`);
  if (request.reduce_only !== undefined && typeof request.reduce_only !== 'boolean') throw invalid('reduce_only must be a boolean');
  if (request.reduce_only === true && instrument.info.type !== 'futures' && !margin) throw invalid('reduce_only is for margin and futures orders only');
  const clientOrderId = request.client_order_id;
  if (clientOrderId !== undefined && (typeof clientOrderId !== 'string' || clientOrderId === '' || clientOrderId.length > MAX_CLIENT_ORDER_ID)) {
    throw invalid(`client_order_id must be a non-empty string of at most ${MAX_CLIENT_ORDER_ID} characters`);
  }
  if (hasLimitPrice(type) && request.price === undefined) throw invalid(`price is required for type ${type}`);
  if (isConditionalType(type) && request.stop_price === undefined) throw invalid(`stop_price is required for type ${type}`);
  let expireTime: number | undefined;
  if (timeInForce === 'GTD') {
    if (request.expire_time === undefined) throw invalid('expire_time is required for time_in_force GTD');
    if (!Number.isFinite(request.expire_time)) throw invalid('expire_time must be a time');
    if (request.expire_time <= ctx.now) throw invalid('expire_time must be in the future');
    expireTime = request.expire_time;
  }
  const strict = request.strict_validate === true;
  const quantityLots = toLots(instrument, request.quantity, strict);
  const priceTicks = hasLimitPrice(type) ? toTicks(instrument, request.price, 'price', strict) : undefined;
  const stopTicks = isConditionalType(type) ? toTicks(instrument, request.stop_price, 'stop_price', strict) : undefined;
  const rates = effectiveRates(instrument.info, rate(request.take_rate, 'take_rate'), rate(request.make_rate, 'make_rate'));
  return {
    clientOrderId,
    instrument,
    side: request.side,
    type,
    timeInForce,
    quantityLots,
    priceTicks,
    stopTicks,
    expireTime,
    postOnly: request.post_only === true,
    rates,
    reduceOnly: request.reduce_only === true,
    margin,
  };
}

/** A 10001 Validation error with a description naming the field and the rule. */
export function invalid(description: string): VenueRejection {
  return new VenueRejection(ErrorCode.ValidationError, description);
}

/** Quantity text to lots of the instrument (strict: must be on the grid; else rounded half down). */
export function toLots(instrument: Instrument, text: string | undefined, strict: boolean): number {
  if (text === undefined) throw invalid('quantity is required');
  // The usual request is a plain positive text already on the grid: its lots are the answer (the
  // same the Decimal path below reaches), with no Decimal built.
  const onGrid = typeof text === 'string' && text.charCodeAt(0) !== 45 ? lotsInRange(instrument, text) : Number.NaN;
  if (onGrid > 0 && Number.isSafeInteger(onGrid)) return onGrid;
  if (typeof text !== 'string' || !isDecimalString(text)) throw new VenueRejection(ErrorCode.QuantityNotNumber, `quantity ${String(text)} is not a number`);
  let quantity = new Decimal(text);
  if (!quantity.isPositive() || quantity.isZero()) throw new VenueRejection(ErrorCode.QuantityTooLow, 'quantity must be greater than zero');
  if (!instrument.isValidQuantity(quantity)) {
    if (strict) {
      throw new VenueRejection(ErrorCode.BadQuantity, `quantity ${text} is not a multiple of quantity_increment ${instrument.quantityIncrement.toFixed()}`);
    }
    quantity = instrument.quantizeQuantityHalfDown(quantity);
    if (quantity.isZero()) throw new VenueRejection(ErrorCode.QuantityTooLow, `quantity ${text} rounds to zero at quantity_increment ${instrument.quantityIncrement.toFixed()}`);
  }
  const lots = lotsInRange(instrument, quantity.toFixed());
  if (!Number.isSafeInteger(lots)) throw new VenueRejection(ErrorCode.BadQuantity, `quantity ${text} is out of range`);
  return lots;
}

/** Price text to ticks of the instrument, with the same strict/rounding rules as quantities. */
export function toTicks(instrument: Instrument, text: string | undefined, field: 'price' | 'stop_price', strict: boolean): number {
  if (text === undefined) throw invalid(`${field} is required`);
  // As in toLots: a plain positive text on the grid is its tick count.
  const onGrid = typeof text === 'string' && text.charCodeAt(0) !== 45 ? ticksInRange(instrument, text, field) : Number.NaN;
  if (onGrid > 0 && Number.isSafeInteger(onGrid)) return onGrid;
  if (typeof text !== 'string' || !isDecimalString(text)) throw new VenueRejection(ErrorCode.PriceNotNumber, `${field} ${String(text)} is not a number`);
  let price = new Decimal(text);
  if (!price.isPositive() || price.isZero()) throw new VenueRejection(ErrorCode.BadPrice, `${field} must be greater than zero`);
  if (!instrument.isValidPrice(price)) {
    if (strict) {
      throw new VenueRejection(ErrorCode.BadPrice, `${field} ${text} is not a multiple of tick_size ${instrument.tickSize.toFixed()}`);
    }
    price = instrument.quantizePriceHalfDown(price);
    if (price.isZero()) throw new VenueRejection(ErrorCode.BadPrice, `${field} ${text} rounds to zero at tick_size ${instrument.tickSize.toFixed()}`);
  }
  const ticks = ticksInRange(instrument, price.toFixed(), field);
  if (!Number.isSafeInteger(ticks)) throw new VenueRejection(ErrorCode.BadPrice, `${field} ${text} is out of range`);
  return ticks;
}

/**
 * Lots of a quantity text (NaN off the grid), or the exchange's bad-quantity rejection when the
 * quantity is beyond the 2^53 - 1 lots the venue keeps exactly: as an exchange refuses an
 * out-of-range quantity, never a rounded or clamped count.
 */
function lotsInRange(instrument: Instrument, text: string): number {
  try {
    return instrument.quantityToLots(text);
  } catch (error) {
    if (error instanceof UnrepresentableValueError) throw new VenueRejection(ErrorCode.BadQuantity, `quantity ${text} is out of range: ${error.rule}`);
    throw error;
  }
}

/** Ticks of a price text (NaN off the grid), or the bad-price rejection beyond 2^53 - 1 ticks (see {@link lotsInRange}). */
function ticksInRange(instrument: Instrument, text: string, field: string): number {
  try {
    return instrument.priceToTicks(text);
  } catch (error) {
    if (error instanceof UnrepresentableValueError) throw new VenueRejection(ErrorCode.BadPrice, `${field} ${text} is out of range: ${error.rule}`);
    throw error;
  }
}

function rate(text: string | undefined, field: string): Decimal | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== 'string' || !isDecimalString(text)) throw invalid(`${field} must be a decimal number`);
  return new Decimal(text);
}
