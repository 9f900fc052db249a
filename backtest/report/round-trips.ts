import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import type { FillRecord } from './backtest-result.js';

/**
 * One closed position lot: an opening fill matched (FIFO, per symbol) against the later fills of
 * the opposite side that closed it.
 */
export interface RoundTrip {
  readonly symbol: string;
  /** `long` when the lot was opened by a buy, `short` when by a sell. */
  readonly direction: 'long' | 'short';
  readonly openTime: number;
  /** Time of the fill that closed the last part of the lot. */
  readonly closeTime: number;
  readonly quantity: Decimal;
  readonly entryPrice: Decimal;
  /** Gross PnL minus the lot's opening fee and its share of the closing fills' fees, in the symbol's quote. */
  readonly pnl: Decimal;
}

/** A fill's fee in its symbol's quote currency, or undefined when it cannot be valued. */
export type FeeInQuote = (fill: FillRecord) => Decimal | undefined;

interface OpenLot {
  readonly fill: FillRecord;
  remaining: Decimal;
  pnl: Decimal;
  lastTime: number;
}

/**
 * Matches fills into round trips, FIFO per symbol.
 *
 * A fill first closes the oldest open lots of the opposite side; what is left of it opens a new lot
 * of its own side. A lot becomes a round trip when its whole quantity is closed; its PnL is
 * `sum(matched * (exit - entry))` for a long (`entry - exit` for a short), minus the lot's own
 * opening fee, minus each closing fill's fee pro rata to the quantity it closed of this lot
 * (`fee * matched / fill.quantity`, the fill's last piece taking the remainder so no fee is lost to
 * rounding). Fees `feeInQuote` cannot value count as zero.
 * Lots still open at the end are not round trips. Round trips are returned in close order.
 */
export function matchRoundTrips(fills: readonly FillRecord[], feeInQuote: FeeInQuote): RoundTrip[] {
  const open = new Map<string, OpenLot[]>();
  const trips: RoundTrip[] = [];
  for (const fill of fills) {
    const lots = open.get(fill.symbol) ?? [];
    open.set(fill.symbol, lots);
    const fee = feeInQuote(fill) ?? ZERO;
    // The last piece of a fill takes what is left of its fee, so the pieces add up to the fee exactly.
    let feeLeft = fee;
    let left = fill.quantity;
    while (left.greaterThan(ZERO) && lots.length > 0 && lots[0]!.fill.side !== fill.side) {
      const lot = lots[0]!;
      const matched = minOf(left, lot.remaining);
      const move = fill.price.minus(lot.fill.price).times(matched);
      const gross = lot.fill.side === 'buy' ? move : move.negated();
      const last = matched.equals(left);
      const feeShare = last ? feeLeft : fee.times(matched).dividedBy(fill.quantity);
      feeLeft = feeLeft.minus(feeShare);
      lot.pnl = lot.pnl.plus(gross).minus(feeShare);
      lot.remaining = lot.remaining.minus(matched);
      lot.lastTime = fill.time;
      left = left.minus(matched);
      if (lot.remaining.isZero()) {
        lots.shift();
        trips.push({
          symbol: fill.symbol,
          direction: lot.fill.side === 'buy' ? 'long' : 'short',
          openTime: lot.fill.time,
          closeTime: lot.lastTime,
          quantity: lot.fill.quantity,
          entryPrice: lot.fill.price,
          pnl: lot.pnl,
        });
      }
    }
    if (left.greaterThan(ZERO)) {
      // The opened part carries the rest of the fee, charged to its round trip when it closes.
      lots.push({ fill: { ...fill, quantity: left }, remaining: left, pnl: feeLeft.negated(), lastTime: fill.time });
    }
  }
  return trips;
}

function minOf(a: Decimal, b: Decimal): Decimal {
  return a.lessThan(b) ? a : b;
}
