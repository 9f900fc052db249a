import { Decimal, ZERO } from '../../../framework/model/decimal.js';
import type { Instrument } from '../../../framework/model/instrument.js';
import type { FuturesPositionConfig } from '../../../framework/model/resources/futures-config.js';

/** Futures settings of a venue (`SimulatedVenue` options). */
export interface FuturesVenueOptions {
  /** Position configurations per contract (as `GET /api/3/futures/config` returns them). */
  readonly configs?: readonly FuturesPositionConfig[];
  /** Leverage of a symbol until the account sets one (default 1, capped at the symbol's maximum). */
  readonly defaultLeverage?: string;
  /** Funding period of perpetuals in ms, counted from UNIX epoch (default 8 h: 00:00, 08:00, 16:00 UTC). */
  readonly fundingIntervalMs?: number;
  /** Funding rate used when no recorded rate is known for a perpetual (default 0: no funding). */
  readonly defaultFundingRate?: string;
}

/**
 * The trading terms of one futures contract at the venue, resolved from its position configuration
 * (when given) and its Symbol. Assumptions, where the spec leaves values out:
 * - the margin currency is the symbol's quote currency (futures have no base currency), and fees are
 *   charged in it (the venue refuses a futures symbol whose fee_currency differs);
 * - the maximum leverage is the config's `max_initial_leverage`, else the Symbol's, else 1;
 * - `liquidation_leverage_mul` defaults to 2 and `margin_call_leverage_mul` to 1.5 (so at leverage L
 *   the maintenance margin is the position's mark value / (2 L));
 * - `force_close_fee` defaults to 0; there is no risk limit unless the config has `limit_base` and
 *   `limit_power`.
 */
export interface FuturesTerms {
  readonly symbol: string;
  readonly marginCurrency: string;
  /**
   * The balance a position is margined from (its `FuturesAccounts` pocket): the margin currency on a
   * futures account (one balance per currency over every contract), the symbol itself on an
   * isolated margin account (`margin-terms.ts`: one balance per symbol).
   */
  readonly pocket: string;
  readonly perpetual: boolean;
  readonly maxLeverage: Decimal;
  readonly defaultLeverage: Decimal;
  readonly liquidationLeverageMul: Decimal;
  readonly marginCallLeverageMul: Decimal;
  readonly forceCloseFee: Decimal;
  readonly limitBase?: Decimal;
  readonly limitPower?: Decimal;
  readonly unlimitedThreshold?: Decimal;
  /** One notional unit: tick_size x quantity_increment (margins are rounded up to it). */
  readonly unit: Decimal;
}

const ONE = new Decimal(1);

/**
 * A contract's position configuration as the exchange reports it, from the venue's terms. The
 * venue margins every contract the same way, so margin_mode is `isolated` (the only documented
 * value), and each contract is `enabled` and `active` (its terms are in force); the risk-limit
 * fields only when it has one.
 */
export function positionConfigOf(terms: FuturesTerms): FuturesPositionConfig {
  return {
    symbol: terms.symbol,
    margin_call_leverage_mul: terms.marginCallLeverageMul,
    liquidation_leverage_mul: terms.liquidationLeverageMul,
    max_initial_leverage: terms.maxLeverage,
    margin_mode: 'isolated',
    force_close_fee: terms.forceCloseFee,
    enabled: true,
    active: true,
    limit_base: terms.limitBase,
    limit_power: terms.limitPower,
    unlimited_threshold: terms.unlimitedThreshold,
  };
}

/** Resolves the terms of a futures instrument (see {@link FuturesTerms} for the defaults). */
export function futuresTerms(instrument: Instrument, config: FuturesPositionConfig | undefined, options: FuturesVenueOptions = {}): FuturesTerms {
  const info = instrument.info;
  if (info.type !== 'futures') throw new Error(`${instrument.symbol} is not a futures symbol`);
  if (info.fee_currency !== info.quote_currency) {
    throw new Error(`${instrument.symbol}: futures fee_currency ${info.fee_currency} must be the margin (quote) currency ${info.quote_currency}`);
  }
  const maxLeverage = config?.max_initial_leverage ?? info.max_initial_leverage ?? ONE;
  if (maxLeverage.lessThan(ONE)) throw new Error(`${instrument.symbol}: max_initial_leverage ${maxLeverage.toFixed()} is below 1`);
  const wanted = new Decimal(options.defaultLeverage ?? '1');
  if (wanted.lessThan(ONE)) throw new Error(`futures defaultLeverage ${wanted.toFixed()} is below 1`);
  return {
    symbol: instrument.symbol,
    marginCurrency: info.quote_currency,
    pocket: info.quote_currency,
    perpetual: info.contract_type !== 'cash_settled' && info.expiry === null,
    maxLeverage,
    defaultLeverage: Decimal.min(wanted, maxLeverage),
    liquidationLeverageMul: positiveOr(config?.liquidation_leverage_mul, '2'),
    marginCallLeverageMul: positiveOr(config?.margin_call_leverage_mul, '1.5'),
    forceCloseFee: config?.force_close_fee ?? ZERO,
    limitBase: config?.limit_base,
    limitPower: config?.limit_power,
    unlimitedThreshold: config?.unlimited_threshold,
    unit: instrument.tickSize.times(instrument.quantityIncrement),
  };
}

function positiveOr(value: Decimal | undefined, fallback: string): Decimal {
  return value !== undefined && value.greaterThan(0) ? value : new Decimal(fallback);
}

/** `value / divisor` rounded up to a whole number of `unit` (margins: never under-provisioned). */
export function ceilToUnit(value: Decimal, divisor: Decimal, unit: Decimal): Decimal {
  return value.dividedBy(divisor.times(unit)).ceil().times(unit);
}
