import { ZERO, type Decimal } from './decimal.js';
import type { Side } from './instrument.js';

/** A position in one symbol as strategies, risk and reports see it. */
export interface PositionView {
  readonly symbol: string;
  /** Signed: negative for short (spot: the base bought less the base sold). */
  readonly quantity: Decimal;
  /** Weighted average entry price of the open part; undefined when flat. */
  readonly averagePrice?: Decimal;
  /** Realized profit in the quote currency, before fees (fees leave the fee currency's balance). */
  readonly realizedPnl: Decimal;
  /** Margin and futures symbols: the position's account as the exchange last reported it. */
  readonly margin?: PositionMargin;
}

/**
 * A margin or futures position's terms as the exchange reports them (its isolated account): they
 * are the exchange's figures, read at reconciliation and at stop, not recomputed per tick.
 */
export interface PositionMargin {
  readonly leverage: Decimal;
  readonly marginCurrency: string;
  /** The account's margin balance in `marginCurrency`, as the exchange reports it. */
  readonly marginBalance: Decimal;
  /** Margin the exchange holds for the open position. */
  readonly positionMargin: Decimal;
  /** Margin the exchange holds for open orders. */
  readonly ordersMargin: Decimal;
  /** The exchange's view of the open position (signed); zero when it has none. */
  readonly exchangeQuantity: Decimal;
  readonly entryPrice?: Decimal;
  readonly unrealizedPnl?: Decimal;
  /** Mark price of the forced close. */
  readonly liquidationPrice?: Decimal;
  /** Mark price of the margin call. */
  readonly marginCallPrice?: Decimal;
  /** When the exchange last changed the account (ms). */
  readonly updatedAt: number;
}

/**
 * The one position rule of the framework, on the average-cost method, in exact Decimal. A buy
 * adds, a sell subtracts. Adding to a position moves the average to the quantity-weighted mean
 * (a division: exact to the Decimal clone's precision); reducing it realizes
 * `closed quantity * (fill price - average)` (sign flipped for shorts) and keeps the average;
 * crossing zero opens the rest at the fill price. Fees are not part of realized PnL: they are
 * amounts of their own currency, which the account's balances (and the currency flows of each
 * strategy) carry.
 */
export class PositionAccumulator {
  quantity: Decimal = ZERO;
  averagePrice: Decimal | undefined = undefined;
  realizedPnl: Decimal = ZERO;

  constructor(readonly symbol: string) {}

  /** Applies one execution. */
  apply(side: Side, quantity: Decimal, price: Decimal): void {
    const signed = side === 'buy' ? quantity : quantity.negated();
    const before = this.quantity;
    const after = before.plus(signed);
    if (before.isZero() || before.isNegative() === signed.isNegative()) {
      const openValue = before.abs().times(this.averagePrice ?? ZERO).plus(quantity.times(price));
      this.averagePrice = after.isZero() ? undefined : openValue.dividedBy(after.abs());
      this.quantity = after;
      return;
    }
    const average = this.averagePrice ?? price;
    const closed = quantity.lessThan(before.abs()) ? quantity : before.abs();
    const perUnit = before.isNegative() ? average.minus(price) : price.minus(average);
    this.realizedPnl = this.realizedPnl.plus(perUnit.times(closed));
    this.quantity = after.isZero() ? ZERO : after;
    if (after.isZero()) this.averagePrice = undefined;
    else if (after.isNegative() !== before.isNegative()) this.averagePrice = price;
  }

  private lastView: PositionView | undefined;

  /** An immutable copy; the same object while the position has not changed (strategies ask on every book). */
  view(): PositionView {
    const last = this.lastView;
    if (last !== undefined && last.quantity === this.quantity && last.averagePrice === this.averagePrice && last.realizedPnl === this.realizedPnl) return last;
    return (this.lastView = { symbol: this.symbol, quantity: this.quantity, averagePrice: this.averagePrice, realizedPnl: this.realizedPnl });
  }
}
