import { Decimal } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

/**
 * Fat-finger guard: refuses a limit price further than `priceBand` x mid from the book's mid, on
 * either side (a buy far above mid would sweep the book; far below it is almost surely a typo).
 * Exactly at the band passes. A priced order on a symbol without a valid two-sided book is refused,
 * since nothing would catch the typo. Market orders carry no price: the market-buy reserve and
 * the notional limit bound them.
 */
export function priceBandCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (const order of orders) {
    if (order.price === undefined) continue;
    const book = view.book(order.symbol);
    const midText = book?.valid === true ? book.mid() : undefined;
    if (midText === undefined) return { check: 'price-band', reason: `${order.symbol}: no valid book mid to check price ${order.price.toFixed()} against` };
    const band = bandAt(midText, config.priceBand);
    // |price - mid| > allowed, by comparing with the band's ends: no Decimal is built per intent.
    if (order.price.greaterThan(band.high) || order.price.lessThan(band.low)) {
      const { mid } = band;
      const distance = order.price.minus(mid).abs();
      return {
        check: 'price-band',
        reason: `${order.symbol}: price ${order.price.toFixed()} is ${distance.dividedBy(mid).times(100).toSignificantDigits(4).toFixed()} % from mid ${mid.toFixed()}, band ${config.priceBand.times(100).toFixed()} %`,
      };
    }
  }
  return undefined;
}

/** Mids kept per band before the memo starts over. */
const MAX_MIDS = 4096;

interface MidBand {
  readonly mid: Decimal;
  /** mid - mid x band and mid + mid x band: the lowest and highest prices that pass (exact sums). */
  readonly low: Decimal;
  readonly high: Decimal;
}

/** Parsed mids and their allowed distance per band: a book's mid comes back to the same few hundred values. */
const bands = new WeakMap<Decimal, Map<string, MidBand>>();

function bandAt(midText: string, band: Decimal): MidBand {
  let byMid = bands.get(band);
  if (byMid === undefined) {
    byMid = new Map();
    bands.set(band, byMid);
  }
  let found = byMid.get(midText);
  if (found === undefined) {
    if (byMid.size >= MAX_MIDS) byMid.clear();
    const mid = new Decimal(midText);
    const allowed = mid.times(band);
    found = { mid, low: mid.minus(allowed), high: mid.plus(allowed) };
    byMid.set(midText, found);
  }
  return found;
}
