import type { Decimal } from './decimal.js';

/**
 * A strategy's position in one symbol (spot: base balance held by the bot; futures: the position).
 * Part of the Strategy API, and the view the execution side's position book hands out: it lives in
 * the model so that neither needs the other's folder for it.
 */
export interface PositionView {
  readonly symbol: string;
  /** Signed: negative for short. */
  readonly quantity: Decimal;
  /** Weighted average entry price; undefined when flat. */
  readonly averagePrice?: Decimal;
  readonly realizedPnl: Decimal;
}
