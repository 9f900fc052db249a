import { ZERO, type Decimal } from '../model/decimal.js';
import type { Side } from '../model/instrument.js';
import type { PositionView } from './strategy.js';

/**
 * A strategy's positions from its fills, on the average-cost method, in exact Decimal.
 *
 * Assumptions: a buy adds, a sell subtracts (spot: the base quantity the bot bought; a short is a
 * negative position). Adding to a position moves the average price to the quantity-weighted mean;
 * reducing it realizes `closed quantity * (fill price - average price)` (sign flipped for shorts)
 * and leaves the average unchanged; crossing zero opens the rest at the fill price. Fees are
 * assumed to be in the quote currency and are subtracted from realized PnL (a negative fee, a
 * rebate, adds to it). The average price is a division and carries the Decimal clone's 50
 * significant digits; every other figure is exact.
 */
export class PositionLedger {
  private readonly positions = new Map<string, PositionView>();

  /** The position in `symbol`; undefined before the first fill. */
  get(symbol: string): PositionView | undefined {
    return this.positions.get(symbol);
  }

  /** Every symbol's position. */
  all(): readonly PositionView[] {
    return [...this.positions.values()];
  }

  /** Applies one fill and returns the new position. */
  applyFill(symbol: string, side: Side, quantity: Decimal, price: Decimal, fee: Decimal = ZERO): PositionView {
    const current = this.positions.get(symbol) ?? { symbol, quantity: ZERO, realizedPnl: ZERO };
    const signed = side === 'buy' ? quantity : quantity.neg();
    const held = current.quantity;
    const average = current.averagePrice;
    let realized = current.realizedPnl.minus(fee);
    let nextQuantity = held.plus(signed);
    let nextAverage: Decimal | undefined;

    if (held.isZero() || average === undefined || held.isNegative() === signed.isNegative()) {
      const size = held.abs().plus(quantity);
      nextAverage = average === undefined || held.isZero() ? price : held.abs().times(average).plus(quantity.times(price)).div(size);
    } else {
      const closed = smaller(quantity, held.abs());
      const perUnit = held.isNegative() ? average.minus(price) : price.minus(average);
      realized = realized.plus(closed.times(perUnit));
      nextAverage = nextQuantity.isZero() ? undefined : nextQuantity.isNegative() === held.isNegative() ? average : price;
    }
    if (nextQuantity.isZero()) nextQuantity = ZERO;
    const next: PositionView = { symbol, quantity: nextQuantity, averagePrice: nextAverage, realizedPnl: realized };
    this.positions.set(symbol, next);
    return next;
  }
}

function smaller(a: Decimal, b: Decimal): Decimal {
  return a.lessThan(b) ? a : b;
}
