import { Decimal, ZERO } from '../../../framework/model/decimal.js';
import type { Instrument } from '../../../framework/model/instrument.js';
import type { FuturesTerms } from '../futures/futures-terms.js';

/** Isolated margin settings of a venue (`SimulatedVenue` options). */
export interface MarginVenueOptions {
  /** Leverage of a symbol's isolated account until the account sets one (default 1, capped at the symbol's maximum). */
  readonly defaultLeverage?: string;
}

const ONE = new Decimal(1);

/**
 * The terms of the isolated margin account of a spot symbol with `margin_trading` (document 000).
 * An isolated margin account is margined, valued and liquidated by the futures rules (the spec
 * gives both the same account, position and position-history shapes), from a balance of its own:
 * its pocket is the symbol. Assumptions, where the spec leaves values out:
 * - the margin balance is in the quote currency, and so are fees: a margin order pays its fee rate
 *   on the notional in the quote currency from the margin balance, whatever the symbol's
 *   fee_currency;
 * - borrowing is implicit: a long of value V at leverage L holds V / L of margin and borrows the
 *   rest of the quote, a short borrows the base; the account shows no borrowed amounts (the spec's
 *   account has none), only the position, its margin and its unrealized PnL;
 * - no interest: the spec names a clearing type `interest` but no rate nor schedule, so nothing is
 *   charged and the clearing history stays empty;
 * - the maximum leverage is the Symbol's `max_initial_leverage` (1 when absent); liquidation and
 *   margin-call multipliers 2 and 1.5 as the futures defaults (the spec shows no margin
 *   configuration endpoint); no force-close fee, no risk limit;
 * - a symbol without `margin_trading: true` has no margin account.
 */
export function marginTerms(instrument: Instrument, options: MarginVenueOptions = {}): FuturesTerms | undefined {
  const info = instrument.info;
  if (info.type === 'futures' || info.margin_trading !== true) return undefined;
  const maxLeverage = info.max_initial_leverage ?? ONE;
  if (maxLeverage.lessThan(ONE)) throw new Error(`${instrument.symbol}: max_initial_leverage ${maxLeverage.toFixed()} is below 1`);
  const wanted = new Decimal(options.defaultLeverage ?? '1');
  if (wanted.lessThan(ONE)) throw new Error(`margin defaultLeverage ${wanted.toFixed()} is below 1`);
  return {
    symbol: instrument.symbol,
    marginCurrency: info.quote_currency,
    pocket: instrument.symbol,
    perpetual: false,
    maxLeverage,
    defaultLeverage: Decimal.min(wanted, maxLeverage),
    liquidationLeverageMul: new Decimal(2),
    marginCallLeverageMul: new Decimal('1.5'),
    forceCloseFee: ZERO,
    unit: instrument.tickSize.times(instrument.quantityIncrement),
  };
}
