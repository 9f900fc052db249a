import type { Decimal, Intent, Order, StrategyContext, StrategyReport } from 'tradeloop';

/** Which quote of a symbol. */
export type QuoteSide = 'bid' | 'ask';

/** What the market maker knows about one of its quotes. */
export interface QuoteState {
  /** client_order_id of the live quote order; undefined when the side has none. */
  orderId?: string;
  /** Price of the live quote (as last requested). */
  price?: Decimal;
  /** intentId of the one intent in flight for this side. */
  pending?: string;
  /** Price the pending place/replace asks for. */
  pendingPrice?: Decimal;
  /** A cancel of the live quote was sent; the side waits for the order to end. */
  cancelling: boolean;
  /** No new intent for this side before this time (back-off after a refusal). */
  retryAt: number;
  /** When the quote was last placed or moved. */
  movedAt: number;
}

/** The outcome of a report for the quotes. */
export interface QuoteReportEffect {
  /** The symbol whose quotes the report concerned; undefined for foreign reports. */
  readonly symbol?: string;
  /** True when a quote traded (the position, and so the skew, changed). */
  readonly filled: boolean;
}

/**
 * Tracks the market maker's quotes, two per symbol, from its own intents and the reports about
 * them. The runtime's open-order view is the truth for whether an order still lives (it already
 * orders stale answers against newer updates); this class only remembers which order is which
 * quote, and which intent is in flight.
 */
export class QuoteTracker {
  private readonly quotes = new Map<string, Record<QuoteSide, QuoteState>>();

  /** The state of one quote (created empty on first use). */
  get(symbol: string, side: QuoteSide): QuoteState {
    let sides = this.quotes.get(symbol);
    if (sides === undefined) {
      sides = { bid: emptyQuote(), ask: emptyQuote() };
      this.quotes.set(symbol, sides);
    }
    return sides[side];
  }

  /**
   * Takes over open orders from before a restart (the runtime reconciled them with the exchange
   * before `onStart`): the first buy and sell of each symbol become its bid and ask quotes; any
   * further one is returned, to be canceled, so a restart never leaves two quotes on one side.
   */
  adopt(orders: readonly Order[], now: number): Order[] {
    const extra: Order[] = [];
    for (const order of orders) {
      const q = this.get(order.symbol, order.side === 'buy' ? 'bid' : 'ask');
      if (q.orderId !== undefined || q.pending !== undefined) {
        extra.push(order);
        continue;
      }
      q.orderId = order.client_order_id;
      q.price = order.price;
      q.movedAt = now;
    }
    return extra;
  }

  /** Records an intent sent for a quote (place, replace or cancel). */
  sent(symbol: string, side: QuoteSide, intent: Intent, price?: Decimal): void {
    const q = this.get(symbol, side);
    q.pending = intent.intentId;
    q.pendingPrice = price;
    if (intent.kind === 'cancel') q.cancelling = true;
  }

  /** Applies a report; `backoffMs` is how long a refused side waits. */
  apply(ctx: StrategyContext, report: StrategyReport, backoffMs: number): QuoteReportEffect {
    const found = this.find(report);
    if (found === undefined) return { filled: false };
    const { symbol, quote } = found;
    let filled = false;
    if (report.kind === 'order') {
      const r = report.report;
      if (report.intentId !== undefined && report.intentId === quote.pending) {
        // The order's own update can overtake the request's answer.
        quote.orderId = r.client_order_id;
        quote.price = quote.pendingPrice;
      } else if (r.original_client_order_id !== undefined && r.original_client_order_id === quote.orderId) {
        quote.orderId = r.client_order_id;
      }
      if (r.client_order_id === quote.orderId) {
        filled = r.report_type === 'trade';
        if (r.status === 'expired' || r.report_type === 'rejected') quote.retryAt = ctx.now() + backoffMs;
      }
    } else if (report.intent.intentId === quote.pending) {
      const kind = report.intent.kind;
      quote.pending = undefined;
      if (report.kind === 'accepted') {
        const order = report.orders[0];
        if ((kind === 'place' || kind === 'replace') && order !== undefined) {
          quote.orderId = order.client_order_id;
          quote.price = quote.pendingPrice;
          if (order.status === 'expired') quote.retryAt = ctx.now() + backoffMs;
        }
      } else {
        quote.retryAt = ctx.now() + backoffMs;
        if (kind === 'cancel') quote.cancelling = false;
      }
    }
    this.dropEnded(ctx, symbol);
    return { symbol, filled };
  }

  /** Frees every quote of `symbol` whose order is no longer open. */
  private dropEnded(ctx: StrategyContext, symbol: string): void {
    const open = ctx.openOrders(symbol);
    for (const side of SIDES) {
      const q = this.get(symbol, side);
      if (q.orderId !== undefined && !isOpen(open, q.orderId)) {
        q.orderId = undefined;
        q.price = undefined;
        q.cancelling = false;
      }
    }
  }

  private find(report: StrategyReport): { symbol: string; quote: QuoteState } | undefined {
    for (const [symbol, sides] of this.quotes) {
      if (matches(report, sides.bid)) return { symbol, quote: sides.bid };
      if (matches(report, sides.ask)) return { symbol, quote: sides.ask };
    }
    return undefined;
  }
}

const SIDES: readonly QuoteSide[] = ['bid', 'ask'];

/** True when an order of the list carries the id (a symbol has a couple of open orders: a scan, no Set). */
function isOpen(orders: readonly Order[], clientOrderId: string): boolean {
  for (const order of orders) if (order.client_order_id === clientOrderId) return true;
  return false;
}

function matches(report: StrategyReport, quote: QuoteState): boolean {
  if (report.kind !== 'order') return quote.pending !== undefined && report.intent.intentId === quote.pending;
  const r = report.report;
  if (quote.pending !== undefined && report.intentId === quote.pending) return true;
  if (quote.orderId === undefined) return false;
  return r.client_order_id === quote.orderId || r.original_client_order_id === quote.orderId;
}

function emptyQuote(): QuoteState {
  return { cancelling: false, retryAt: Number.NEGATIVE_INFINITY, movedAt: Number.NEGATIVE_INFINITY };
}
