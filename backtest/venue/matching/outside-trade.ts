import type { Side } from '../../../framework/model/instrument.js';

/**
 * One public trade of the outside market in integers, as {@link SymbolMarket.applyTrades} takes it.
 * `side` is the aggressor's side: a `sell` trade hit the bids.
 */
export interface OutsideTrade {
  readonly priceTicks: number;
  readonly lots: number;
  readonly side: Side;
  /**
   * When the exchange matched it (ms, the trade's own timestamp); NaN when unknown. A trade that
   * printed before one of our orders reached the book cannot fill that order, however late the
   * feed delivered it.
   */
  readonly time: number;
}
