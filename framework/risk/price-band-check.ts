import { Decimal } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import { safeProduct, unitsOf } from '../model/decimal-units.js';
import type { Denial } from './denial.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskBook, RiskView } from './risk-state.js';

/**
 * Fat-finger guard: refuses a limit price further than `priceBand` x mid from the book's mid, on
 * either side (a buy far above mid would sweep the book; far below it is almost surely a typo).
 * Exactly at the band passes. A priced order on a symbol without a valid two-sided book is refused,
 * since nothing would catch the typo. Market orders carry no price: the market-buy reserve and
 * the notional limit bound them.
 */
export function priceBandCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const e = evaluationOf(intent, view, config, evaluation);
  for (const order of e.orders) {
    if (order.price === undefined) continue;
    const book = view.book(order.symbol);
    if (book?.valid === true && inBandByUnits(order.price, book, e) === true) continue;
    const denial = bandDenial(order.symbol, order.price, book, config.priceBand);
    if (denial !== undefined) return denial;
  }
  return undefined;
}

/**
 * The band test in integers at the book's price scale, with the doubled mid (best bid + best ask)
 * so that no division is needed: |price - mid| <= mid x band is |2 x price - (bid + ask)| x 10^k
 * <= (bid + ask) x bandUnits for band = bandUnits / 10^k. Undefined when some figure has no exact
 * safe integer (more decimals than the book, a side empty or beyond 2^53, a product beyond 2^53):
 * the caller then decides with Decimals, exactly as before.
 */
function inBandByUnits(price: Decimal, book: RiskBook, e: RiskEvaluation): boolean | undefined {
  const scale = book.priceScale;
  const units = unitsOf(price, scale);
  if (units === undefined || units <= 0) return undefined;
  let bid: number;
  let ask: number;
  try {
    bid = book.bestBidPrice;
    ask = book.bestAskPrice;
  } catch {
    // A best level beyond 2^53 at the book's scale.
    return undefined;
  }
  const midTwice = bid + ask;
  const twice = safeProduct(units, 2);
  const { bandScale, bandUnits } = e.priceBandUnits();
  // NaN sides (empty) fail both comparisons.
  if (!(bid >= 0 && ask >= 0 && midTwice <= Number.MAX_SAFE_INTEGER) || twice === undefined || bandUnits === undefined) return undefined;
  const distance = safeProduct(Math.abs(twice - midTwice), 10 ** bandScale);
  const allowed = safeProduct(midTwice, bandUnits);
  if (distance === undefined || allowed === undefined) return undefined;
  return distance <= allowed;
}

/** The Decimal verdict (a price out of the band, or a book without a mid): its denial; undefined when in the band. */
function bandDenial(symbol: string, price: Decimal, book: RiskBook | undefined, priceBand: Decimal): Denial | undefined {
  const midText = book?.valid === true ? book.mid() : undefined;
  if (midText === undefined) return { check: 'price-band', reason: `${symbol}: no valid book mid to check price ${price.toFixed()} against` };
  const band = bandAt(midText, priceBand);
  // |price - mid| > allowed, by comparing with the band's ends: no Decimal is built per intent.
  if (!price.greaterThan(band.high) && !price.lessThan(band.low)) return undefined;
  const { mid } = band;
  const distance = price.minus(mid).abs();
  return {
    check: 'price-band',
    reason: `${symbol}: price ${price.toFixed()} is ${distance.dividedBy(mid).times(100).toSignificantDigits(4).toFixed()} % from mid ${mid.toFixed()}, band ${priceBand.times(100).toFixed()} %`,
  };
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
