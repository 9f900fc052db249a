import { Decimal } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import { ordersOf } from './intent-orders.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskView } from './risk-state.js';

/**
 * Fat-finger guard: refuses a limit price further than `priceBand` x mid from the book's mid, on
 * either side (a buy far above mid would sweep the book; far below it is almost surely a typo).
 * Exactly at the band passes. A priced order on a symbol without a valid two-sided book is refused,
 * since nothing would catch the typo. Market orders carry no price: the market-buy reserve and
 * the notional limit bound them.
 */
export function priceBandCheck(intent: Intent, view: RiskView, config: RiskConfig): Denial | undefined {
  for (const order of ordersOf(intent, view)) {
    if (order.price === undefined) continue;
    const book = view.book(order.symbol);
    const midText = book?.valid === true ? book.mid() : undefined;
    if (midText === undefined) return { check: 'price-band', reason: `${order.symbol}: no valid book mid to check price ${order.price.toFixed()} against` };
    const { mid, allowed } = bandAt(midText, config.priceBand);
    const distance = order.price.minus(mid).abs();
    if (distance.greaterThan(allowed)) {
      return {
        check: 'price-band',
        reason: `${order.symbol}: price ${order.price.toFixed()} is ${distance.dividedBy(mid).times(100).toSignificantDigits(4).toFixed()} % from mid ${mid.toFixed()}, band ${config.priceBand.times(100).toFixed()} %`,
      };
    }
  }
  return undefined;
}

/** The mid and the distance allowed from it; the last one is kept, as intents come in bursts at one mid. */
let lastBand: { readonly midText: string; readonly band: Decimal; readonly mid: Decimal; readonly allowed: Decimal } | undefined;

function bandAt(midText: string, band: Decimal): { readonly mid: Decimal; readonly allowed: Decimal } {
  if (lastBand === undefined || lastBand.midText !== midText || lastBand.band !== band) {
    const mid = new Decimal(midText);
    lastBand = { midText, band, mid, allowed: mid.times(band) };
  }
  return lastBand;
}
