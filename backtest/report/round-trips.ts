import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import type { FillRecord } from './backtest-result.js';

/**
 * One round trip of a symbol's position: from flat to flat again (or to the fill that reverses it).
 */
export interface RoundTrip {
  readonly symbol: string;
  /** `long` when opened by a buy, `short` when by a sell. */
  readonly direction: 'long' | 'short';
  /** Time of the fill that opened the position. */
  readonly openTime: number;
  /** Time of the fill that brought it back to zero (or through zero). */
  readonly closeTime: number;
  /** Largest absolute position held during the trip. */
  readonly quantity: Decimal;
  /** Fills that took part (a reversing fill counts in both trips it touches). */
  readonly fills: number;
  /** Sells' value minus buys' value minus the fees, in the symbol's quote. */
  readonly pnl: Decimal;
}

/** A fill's fee in its symbol's quote currency, or undefined when it cannot be valued. */
export type FeeInQuote = (fill: FillRecord) => Decimal | undefined;

interface OpenTrip {
  readonly direction: 'long' | 'short';
  readonly openTime: number;
  /** Signed: positive long, negative short. */
  position: Decimal;
  peak: Decimal;
  fills: number;
  pnl: Decimal;
}

/**
 * Round trips of each symbol's position, the way a trader counts trades: a trip opens when the
 * position leaves zero and closes when it is back at zero, however many fills (partial fills,
 * adds, partial exits) it took. One buy and one sell of the same quantity are one round trip, even
 * when either filled in pieces. A fill that takes the position through zero closes the trip with
 * the part that reaches zero and opens the next one with the rest; its fee is split pro rata to
 * quantity (the opening part takes the remainder, so no fee is lost to rounding).
 *
 * PnL of a trip: `sum(sell price x quantity) - sum(buy price x quantity) - fees`, exact except
 * for the pro-rata fee split of a reversing fill. Fees `feeInQuote` cannot value count as zero.
 * A position still open at the end is not a round trip. Trips are returned in close order.
 */
export function matchRoundTrips(fills: readonly FillRecord[], feeInQuote: FeeInQuote): RoundTrip[] {
  const matcher = new RoundTripMatcher(feeInQuote);
  const trips: RoundTrip[] = [];
  for (const fill of fills) {
    const done = matcher.add(fill);
    if (done !== undefined) trips.push(...done);
  }
  return trips;
}

/**
 * {@link matchRoundTrips} one fill at a time, in time order: memory holds one open trip per
 * symbol, whatever the number of fills, so a long run's trips are counted as its fills go by.
 */
export class RoundTripMatcher {
  private readonly open = new Map<string, OpenTrip>();

  constructor(private readonly feeInQuote: FeeInQuote) {}

  /** Books `fill`; the trips it closes (none, one, or one when it goes through zero), else undefined. */
  add(fill: FillRecord): RoundTrip[] | undefined {
    if (fill.quantity.isZero()) return undefined;
    const fee = this.feeInQuote(fill) ?? ZERO;
    const signed = fill.side === 'buy' ? fill.quantity : fill.quantity.negated();
    let trip = this.open.get(fill.symbol);
    if (trip !== undefined && trip.position.isPositive() !== signed.isPositive() && fill.quantity.greaterThan(trip.position.abs())) {
      // Through zero: the part that flattens closes this trip, the rest opens the next.
      const closing = trip.position.abs();
      const closingFee = fee.times(closing).dividedBy(fill.quantity);
      apply(trip, fill, trip.position.negated(), closingFee);
      const done = closed(fill.symbol, trip, fill.time);
      trip = startTrip(fill);
      apply(trip, fill, signed.plus(closing.times(signed.isPositive() ? -1 : 1)), fee.minus(closingFee));
      this.open.set(fill.symbol, trip);
      return [done];
    }
    if (trip === undefined) {
      trip = startTrip(fill);
      this.open.set(fill.symbol, trip);
    }
    apply(trip, fill, signed, fee);
    if (!trip.position.isZero()) return undefined;
    this.open.delete(fill.symbol);
    return [closed(fill.symbol, trip, fill.time)];
  }
}

function startTrip(fill: FillRecord): OpenTrip {
  return { direction: fill.side === 'buy' ? 'long' : 'short', openTime: fill.time, position: ZERO, peak: ZERO, fills: 0, pnl: ZERO };
}

/** Books `signed` base units of `fill` (buys positive) and `fee` into the trip. */
function apply(trip: OpenTrip, fill: FillRecord, signed: Decimal, fee: Decimal): void {
  trip.position = trip.position.plus(signed);
  if (trip.position.abs().greaterThan(trip.peak)) trip.peak = trip.position.abs();
  trip.pnl = trip.pnl.minus(fill.price.times(signed)).minus(fee);
  trip.fills++;
}

function closed(symbol: string, trip: OpenTrip, closeTime: number): RoundTrip {
  return { symbol, direction: trip.direction, openTime: trip.openTime, closeTime, quantity: trip.peak, fills: trip.fills, pnl: trip.pnl };
}
