import { Decimal, isDecimalString } from '../../model/decimal.js';
import { ValidationError } from '../../model/errors.js';
import type { BookLadder } from './book-ladder.js';
import { formatScaledBig, parseScaledBig } from '../../model/scaled-big.js';

/**
 * What taking `quantity` from one side of the book would cost (buy) or yield (sell), walking the
 * levels from the best one. All sums are exact (BigInt on scaled integers).
 *
 * Model assumptions: the book is a snapshot (no queue, no latency, no other takers), every level
 * is fully available, fees are not included.
 */
export interface BookWalk {
  /** Quantity the book could supply, at most the requested quantity. */
  readonly filled: Decimal;
  /** Sum of price x quantity over the levels taken; exact. */
  readonly notional: Decimal;
  /**
   * notional / filled, with the Decimal clone's 50 significant digits (a quotient need not
   * terminate); null when nothing was filled.
   */
  readonly averagePrice: Decimal | null;
  /** Price of the last (worst) level touched; null when nothing was filled. */
  readonly worstPrice: Decimal | null;
  /** True when the whole requested quantity was available. */
  readonly complete: boolean;
  /** Number of levels touched. */
  readonly levels: number;
}

/**
 * Walks `ladder` from its best level. `sign` turns keys back into prices (1 for bids, -1 for
 * asks); `wanted` is already validated as a non-negative Decimal.
 */
export function walkLadder(
  ladder: BookLadder,
  sign: 1n | -1n,
  priceScale: number,
  quantityScale: number,
  wanted: Decimal,
): BookWalk {
  // Work at the finer of the book's quantity scale and the request's, so nothing is rounded.
  const workScale = Math.max(quantityScale, wanted.decimalPlaces());
  const lift = 10n ** BigInt(workScale - quantityScale);
  // From the plain text, so no digit of the request is rounded (Decimal arithmetic would round
  // beyond the clone's precision).
  let remaining = parseScaledBig(wanted.toFixed(), workScale) as bigint;
  let filled = 0n;
  let notional = 0n;
  let worstPrice = 0n;
  let levels = 0;
  if (remaining > 0n) {
    for (const [key, quantity] of ladder.levelsFromBest()) {
      const available = quantity * lift;
      const take = available < remaining ? available : remaining;
      worstPrice = key * sign;
      notional += worstPrice * take;
      filled += take;
      remaining -= take;
      levels++;
      if (remaining === 0n) break;
    }
  }
  const filledDecimal = fromScaled(filled, workScale);
  const notionalDecimal = fromScaled(notional, priceScale + workScale);
  return {
    filled: filledDecimal,
    notional: notionalDecimal,
    averagePrice: filled === 0n ? null : notionalDecimal.dividedBy(filledDecimal),
    worstPrice: levels === 0 ? null : fromScaled(worstPrice, priceScale),
    complete: remaining === 0n,
    levels,
  };
}

/** Exact Decimal of a scaled BigInt, built from text so no digit is lost. */
export function fromScaled(value: bigint, scale: number): Decimal {
  return new Decimal(formatScaledBig(value, scale));
}

/** A walk's requested quantity, validated: a finite, non-negative decimal (text or Decimal). */
export function requestedQuantity(quantity: string | Decimal): Decimal {
  if (typeof quantity === 'string') {
    if (!isDecimalString(quantity)) throw new ValidationError('quantity', 'must be a decimal number', quantity);
    quantity = new Decimal(quantity);
  }
  if (!quantity.isFinite() || quantity.isNegative()) {
    throw new ValidationError('quantity', 'must be a finite, non-negative decimal', quantity.toString());
  }
  return quantity;
}
