import { Decimal, ONE, ZERO } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { OrderType } from '../model/resources/order.js';
import type { SymbolInfo } from '../model/resources/symbol.js';
import type { Denial } from './denial.js';
import type { CheckedOrder } from './intent-orders.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskView } from './risk-state.js';
import { MAX_UNITS_SCALE, safeProduct, unitsOf } from '../model/decimal-units.js';
import { Funds } from '../model/funds.js';
import { tradesOnMargin } from './trades-on-margin.js';

/** Funds an order needs held until it is done. */
export interface FundsNeed {
  readonly currency: string;
  /** Funds for the whole quantity (zero for reduce-only futures orders). */
  readonly amount: Funds;
  readonly quantity: Decimal;
  /** True when the document 001 market-buy reserve applies (strictly greater balance required). */
  readonly marketBuy: boolean;
}

const PRICED_BY_MARKET: ReadonlySet<OrderType> = new Set(['market', 'stopMarket', 'takeProfitMarket']);

/** True for order types that carry no limit price (market and stop/take-profit market). */
export function isMarketType(type: OrderType): boolean {
  return PRICED_BY_MARKET.has(type);
}

/** Fee figures per symbol, computed once: every priced intent and report needs them. */
interface FeeFactors {
  readonly maxRate: Decimal;
  /** 1 + maxRate. */
  readonly buyFactor: Decimal;
  /** `buyFactor` in units of 10^-buyFactorScale (undefined when it has no safe-integer count). */
  readonly buyFactorUnits: number | undefined;
  readonly buyFactorScale: number;
  /**
   * Decimals of a spot limit buy's funds in integers (price, quantity and fee factor scales
   * added); undefined beyond 15, where the integer path is not taken.
   */
  readonly buyScale: number | undefined;
}

const feeFactors = new WeakMap<SymbolInfo, FeeFactors>();

function feeFactorsOf(instrument: Instrument): FeeFactors {
  let factors = feeFactors.get(instrument.info);
  if (factors === undefined) {
    const maxRate = Decimal.max(instrument.info.take_rate, instrument.info.make_rate, ZERO);
    const buyFactor = ONE.plus(maxRate);
    const buyFactorScale = buyFactor.decimalPlaces();
    const buyScale = instrument.priceScale + instrument.quantityScale + buyFactorScale;
    factors = { maxRate, buyFactor, buyFactorUnits: unitsOf(buyFactor, buyFactorScale), buyFactorScale, buyScale: buyScale > MAX_UNITS_SCALE ? undefined : buyScale };
    feeFactors.set(instrument.info, factors);
  }
  return factors;
}

/** The larger of the symbol's fee rates, never below zero: what a buy reserves for fees. */
export function maxFeeRate(instrument: Instrument): Decimal {
  return feeFactorsOf(instrument).maxRate;
}

/**
 * The price an order is valued at: its limit price, else its stop price, else the touch of the
 * book on the side it takes (best ask for a buy, best bid for a sell). Undefined when the book has
 * no such level.
 */
export function referencePrice(order: CheckedOrder, view: RiskView): Decimal | undefined {
  if (order.price !== undefined) return order.price;
  if (order.stopPrice !== undefined) return order.stopPrice;
  const level = order.side === 'buy' ? view.book(order.symbol)?.bestAsk() : view.book(order.symbol)?.bestBid();
  return level === undefined ? view.lastPrice(order.symbol) : new Decimal(level.price);
}

/**
 * Quote value a market buy is reserved on: the cost of walking the asks for its quantity
 * (`costToBuy`), which is best ask x quantity when the top level is deep enough and more when the
 * order would sweep deeper levels; the part the book cannot supply is priced at the worst level
 * touched. The walk (not the best ask alone) is used because a reserve must cover what the order
 * may actually pay. Stop and take-profit market buys are priced at their stop price. Without a
 * book (candles only, or a book being re-synced) the last traded price stands in for the walk.
 */
export function marketBuyNotional(order: CheckedOrder, view: RiskView): Decimal | undefined {
  if (order.type !== 'market') return order.stopPrice?.times(order.quantity);
  const walk = view.book(order.symbol)?.costToBuy(order.quantity);
  if (walk === undefined || walk.worstPrice === null) return view.lastPrice(order.symbol)?.times(order.quantity);
  return walk.notional.plus(order.quantity.minus(walk.filled).times(walk.worstPrice));
}

/**
 * Document 001 market-buy reserve: price x quantity x 1.1 + price x quantity x 1.1 x
 * max(take_rate, make_rate), with the slippage allowance from the config (0.1 by default).
 */
export function marketBuyReserve(notional: Decimal, instrument: Instrument, config: RiskConfig): Decimal {
  const withSlippage = notional.times(ONE.plus(config.marketBuySlippage));
  return withSlippage.plus(withSlippage.times(maxFeeRate(instrument)));
}

/**
 * Funds `order` needs on `instrument`, or a denial when it cannot be priced.
 * - spot limit-priced buy: price x quantity x (1 + max fee rate), quote currency;
 * - spot market buy: {@link marketBuyReserve}, quote currency;
 * - spot sell: the base quantity;
 * - futures, and pairs traded on a margin account ({@link tradesOnMargin}): margin notional /
 *   leverage + notional x max fee rate in the quote (margin) currency, leverage 1 when unknown;
 *   reduce-only orders need nothing.
 */
export function fundsFor(order: CheckedOrder, instrument: Instrument, view: RiskView, config: RiskConfig): FundsNeed | Denial {
  const quote = instrument.quoteCurrency;
  if (tradesOnMargin(instrument, view)) {
    if (order.reduceOnly === true) return { currency: quote, amount: Funds.ZERO, quantity: order.quantity, marketBuy: false };
    const price = referencePrice(order, view);
    if (price === undefined) return { check: 'balance', reason: `${order.symbol}: no ${order.side === 'buy' ? 'ask' : 'bid'} in the book to value the ${order.type} order` };
    const notional = price.times(order.quantity);
    const leverage = view.leverage(order.symbol) ?? ONE;
    const margin = notional.dividedBy(leverage).plus(notional.times(maxFeeRate(instrument)));
    return { currency: quote, amount: Funds.of(margin, order.symbol, 'margin'), quantity: order.quantity, marketBuy: false };
  }
  if (order.side === 'sell') {
    const base = instrument.baseCurrency ?? quote;
    return { currency: base, amount: Funds.of(order.quantity, order.symbol, 'quantity'), quantity: order.quantity, marketBuy: false };
  }
  if (isMarketType(order.type)) {
    const notional = marketBuyNotional(order, view);
    if (notional === undefined) return { check: 'market-buy-reserve', reason: `${order.symbol}: no ask in the book to price the market buy` };
    return { currency: quote, amount: Funds.of(marketBuyReserve(notional, instrument, config), order.symbol, 'market buy reserve'), quantity: order.quantity, marketBuy: true };
  }
  const price = order.price;
  if (price === undefined) return { check: 'grid', reason: `${order.symbol}: ${order.type} order without a price` };
  const factors = feeFactorsOf(instrument);
  const units = limitBuyUnits(price, order.quantity, instrument, factors);
  const amount = units === undefined
    ? Funds.of(price.times(order.quantity).times(factors.buyFactor), order.symbol, 'buy funds')
    : Funds.ofUnits(units, factors.buyScale as number, order.symbol, 'buy funds');
  return { currency: quote, amount, quantity: order.quantity, marketBuy: false };
}

/**
 * price x quantity x (1 + max fee rate) in units of 10^-buyScale: exact, or undefined when a
 * figure or the product has no safe-integer count (the caller then multiplies Decimals, exact
 * within their 50 digits, and holds the product as BigInt units).
 */
function limitBuyUnits(price: Decimal, quantity: Decimal, instrument: Instrument, factors: FeeFactors): number | undefined {
  const factor = factors.buyFactorUnits;
  if (factor === undefined || factors.buyScale === undefined) return undefined;
  const priceUnits = unitsOf(price, instrument.priceScale);
  const quantityUnits = unitsOf(quantity, instrument.quantityScale);
  if (priceUnits === undefined || quantityUnits === undefined) return undefined;
  const notional = safeProduct(priceUnits, quantityUnits);
  return notional === undefined ? undefined : safeProduct(notional, factor);
}


/** True when `value` is a denial rather than a funds need. */
export function isDenial(value: FundsNeed | Denial): value is Denial {
  return 'check' in value;
}

/**
 * {@link fundsFor}, less what the ledger already holds for the order a replace amends: a replace
 * only needs the increase (never less than zero).
 */
export function netFundsFor(order: CheckedOrder, instrument: Instrument, view: RiskView, config: RiskConfig): FundsNeed | Denial {
  const need = fundsFor(order, instrument, view, config);
  const replaced = order.replaces;
  if (isDenial(need) || replaced?.reservationKey === undefined) return need;
  const increase = need.amount.minus(view.reservedFor(replaced.reservationKey));
  return { currency: need.currency, amount: increase.isPositive() ? increase : Funds.ZERO, quantity: need.quantity, marketBuy: need.marketBuy };
}
