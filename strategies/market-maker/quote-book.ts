import type { OrderHandle } from 'tradeloop';

/** Which quote of a symbol. */
export type QuoteSide = 'bid' | 'ask';

/** One quote: its order (the handle follows replaces) and its pacing. */
export interface Quote {
  /** The quote's order; undefined when the side has none. */
  order?: OrderHandle;
  /** No new intent for this side before this time (back-off after a refusal). */
  retryAt: number;
  /** When the quote was last placed or moved. */
  movedAt: number;
}

/** The market maker's two quotes per symbol. */
export class QuoteBook {
  private readonly quotes = new Map<string, Record<QuoteSide, Quote>>();

  /** The state of one quote (created empty on first use). */
  get(symbol: string, side: QuoteSide): Quote {
    let sides = this.quotes.get(symbol);
    if (sides === undefined) {
      sides = { bid: emptyQuote(), ask: emptyQuote() };
      this.quotes.set(symbol, sides);
    }
    return sides[side];
  }

  /** The quote whose order is `order`; undefined for any other order. */
  find(order: OrderHandle): { readonly symbol: string; readonly quote: Quote } | undefined {
    const sides = this.quotes.get(order.symbol);
    if (sides === undefined) return undefined;
    if (sides.bid.order === order) return { symbol: order.symbol, quote: sides.bid };
    if (sides.ask.order === order) return { symbol: order.symbol, quote: sides.ask };
    return undefined;
  }
}

function emptyQuote(): Quote {
  return { retryAt: Number.NEGATIVE_INFINITY, movedAt: Number.NEGATIVE_INFINITY };
}
