import { type BookView, type Decimal, type Instrument, type OrderHandle, type Strategy, type StrategyContext, type StrategyPlugin, type StrategyReport, ZERO } from 'tradeloop';
import { parseMarketMakerParams, type MarketMakerParams } from './market-maker-params.js';
import { leavesBand, leavesTickBand, quoteFactors, requoteBand, quoteTicksAt, tickBand, type QuoteFactors, type TickBand } from './quote-prices.js';
import { QuoteBook, type Quote, type QuoteSide } from './quote-book.js';

type Ctx = StrategyContext<MarketMakerParams>;

/** Quote prices kept as Decimals before the memo starts over. */
const MAX_PRICES = 4096;

/** What a symbol's quotes depend on besides the mid: the position, the parameters, the grid. */
interface Sizing {
  readonly instrument: Instrument;
  readonly params: MarketMakerParams;
  readonly inventory: Decimal;
  readonly quantity: Decimal;
  readonly factors: QuoteFactors;
  /** A filled bid would keep |inventory| within the limit. */
  readonly bidAllowed: boolean;
  /** A filled ask would keep |inventory| within the limit. */
  readonly askAllowed: boolean;
}

/**
 * The last quote targets of a symbol, in ticks of its price grid, and what they were computed
 * from. A target is NaN where that side is not quoted. Most targets only meet the requote band
 * (an integer test): the Decimal price is made when an order is placed or moved.
 */
interface PricedQuote {
  readonly sizing: Sizing;
  readonly midText: string;
  readonly bidTicks: number;
  readonly askTicks: number;
}

/**
 * Two-sided quoting with inventory skew (see README.md). Quotes are limit, post-only, GTC orders,
 * one bid and one ask per symbol whose book it sees; a quote is moved with a replace (never
 * cancel + place), and only one intent per quote is in flight at a time: each quote is an order
 * handle, whose status says whether an answer is awaited.
 */
export function createMarketMaker(): Strategy<MarketMakerParams> {
  const quotes = new QuoteBook();
  const quoteOf = (symbol: string, side: QuoteSide): Quote => quotes.get(symbol, side);
  /** Requote band per quote, recomputed when the quote's price changes. */
  const bands = new WeakMap<Quote, TickBand>();
  // Most book updates leave the mid and the position as they were: the prices are then reused
  // instead of recomputed (pure function of these inputs, so the result is the same).
  const priced = new Map<string, PricedQuote>();
  /** Quote prices per symbol by tick count: quotes move among a few hundred ticks and come back to them. */
  const prices = new Map<string, Map<number, Decimal>>();

  function priceAt(instrument: Instrument, ticks: number): Decimal {
    let byTicks = prices.get(instrument.symbol);
    if (byTicks === undefined) prices.set(instrument.symbol, (byTicks = new Map()));
    let price = byTicks.get(ticks);
    if (price === undefined) {
      if (byTicks.size >= MAX_PRICES) byTicks.clear();
      price = instrument.ticksToDecimal(ticks);
      byTicks.set(ticks, price);
    }
    return price;
  }

  function sizingFor(last: Sizing | undefined, instrument: Instrument, p: MarketMakerParams, inventory: Decimal): Sizing {
    const same = last !== undefined && last.instrument === instrument && last.params === p;
    // The position keeps its Decimal until a fill changes it: identity settles most calls.
    if (same && (last.inventory === inventory || last.inventory.equals(inventory))) return last;
    const quantity = same ? last.quantity : instrument.roundQuantityDown(p.orderQuantity);
    return {
      instrument, params: p, inventory, quantity,
      factors: quoteFactors({ inventory, maxInventory: p.maxInventory, halfSpreadBps: p.halfSpreadBps, skewBps: p.skewBps }),
      // The side that would take |inventory| beyond the limit once filled is not quoted.
      bidAllowed: !inventory.plus(quantity).greaterThan(p.maxInventory),
      askAllowed: !inventory.minus(quantity).lessThan(p.maxInventory.neg()),
    };
  }

  function pricesFor(instrument: Instrument, p: MarketMakerParams, midText: string, inventory: Decimal): PricedQuote {
    const last = priced.get(instrument.symbol);
    const sizing = sizingFor(last?.sizing, instrument, p, inventory);
    if (last !== undefined && last.sizing === sizing && last.midText === midText) return last;
    // Nothing is quoted with a zero size (requote stops there): no prices to compute.
    if (sizing.quantity.isZero()) return { sizing, midText, bidTicks: Number.NaN, askTicks: Number.NaN };
    const { bidTicks, askTicks } = quoteTicksAt(instrument, midText, sizing.factors);
    const next: PricedQuote = {
      sizing, midText, bidTicks: sizing.bidAllowed && bidTicks > 0 ? bidTicks : Number.NaN, askTicks: sizing.askAllowed ? askTicks : Number.NaN,
    };
    priced.set(instrument.symbol, next);
    return next;
  }

  function requote(ctx: Ctx, symbol: string, book: BookView): OrderHandle[] {
    const instrument = ctx.instrument(symbol);
    const midText = book.valid ? book.mid() : undefined;
    if (instrument === undefined || midText === undefined) return [];
    const p = ctx.params;
    const inventory = ctx.position(symbol)?.quantity ?? ZERO;
    const { sizing, bidTicks, askTicks } = pricesFor(instrument, p, midText, inventory);
    const quantity = sizing.quantity;
    if (quantity.isZero()) return [];
    const out: OrderHandle[] = [];
    quoteSide(ctx, instrument, 'bid', bidTicks, quantity, out);
    quoteSide(ctx, instrument, 'ask', askTicks, quantity, out);
    return out;
  }

  /** Places, moves or cancels one side's quote for a target of `targetTicks` ticks (NaN: not quoted). */
  function quoteSide(ctx: Ctx, instrument: Instrument, side: QuoteSide, targetTicks: number, quantity: Decimal, out: OrderHandle[]): void {
    const q = quoteOf(instrument.symbol, side);
    const live = q.order;
    // One intent per quote at a time: a quote waiting for an answer is left alone.
    if (live !== undefined && live.status !== 'open') return;
    const tag = `${side}-quote`;
    if (Number.isNaN(targetTicks)) {
      if (live !== undefined) pushHandle(out, ctx.cancel(live, tag));
      return;
    }
    const now = ctx.now();
    if (now < q.retryAt) return;
    if (live === undefined) {
      q.order = ctx.place({
        symbol: instrument.symbol, side: side === 'bid' ? 'buy' : 'sell', type: 'limit', quantity, price: priceAt(instrument, targetTicks), timeInForce: 'GTC', postOnly: true,
      }, tag);
      q.movedAt = now;
      out.push(q.order);
      return;
    }
    const p = ctx.params;
    const price = live.price;
    if (price !== undefined) {
      let band = bands.get(q);
      if (band === undefined || band.bps !== p.requoteBps || band.price !== price) {
        // A report brings the same price as a new Decimal: the band is kept, under the new one.
        band = band !== undefined && band.bps === p.requoteBps && band.price.equals(price) ? { ...band, price } : tickBand(instrument, price, p.requoteBps);
        bands.set(q, band);
      }
      if (!(leavesTickBand(band, targetTicks) ?? leavesBand(requoteBand(band.price, band.bps), priceAt(instrument, targetTicks)))) return;
    }
    if (now - q.movedAt < p.minRequoteIntervalMs) return;
    q.movedAt = now;
    pushHandle(out, ctx.replace(live, quantity, priceAt(instrument, targetTicks), tag));
  }

  /**
   * A report about one of the quotes: an order that ended frees its side (after a back-off when
   * the exchange expired or refused it, or the gate denied it), a refused move backs off, and the
   * symbol is re-quoted at once after a fill or an end (the skew changed; a freed side is quoted
   * again). A refusal is not answered in the same turn: the next book re-quotes, so a request the
   * gate refuses at once is never sent again and again within one event.
   */
  function onQuoteReport(ctx: Ctx, report: StrategyReport): void {
    const order = reportedOrder(ctx, report);
    if (order === undefined) return;
    const found = quotes.find(order);
    if (found === undefined) return;
    const { symbol, quote } = found;
    const backoffUntil = ctx.now() + ctx.params.minRequoteIntervalMs;
    if (order.isClosed) {
      if (order.status !== 'filled' && order.status !== 'canceled') quote.retryAt = backoffUntil;
      quote.order = undefined;
    } else if (report.kind === 'denied' || report.kind === 'rejected') {
      quote.retryAt = backoffUntil;
    }
    if (report.kind === 'denied' || report.kind === 'rejected') return;
    const book = ctx.book(symbol);
    if (book !== undefined) requote(ctx, symbol, book);
  }

  return {
    onStart: (ctx) => {
      // Orders from before a restart: the first buy and sell of each symbol become its quotes, any further one is cancelled.
      for (const order of ctx.orders()) {
        const q = quoteOf(order.symbol, order.side === 'buy' ? 'bid' : 'ask');
        if (q.order === undefined) {
          q.order = order;
          q.movedAt = ctx.now();
        } else {
          ctx.cancel(order, 'extra-quote');
        }
      }
    },
    onBook: (ctx, symbol, book) => requote(ctx, symbol, book),
    onReport: (ctx, report) => onQuoteReport(ctx, report),
    onStop: (ctx) => ctx.cancelAll(undefined, 'stop'),
  };
}

/** The handle of the order a report is about: the order's own update, or the intent's answer. */
function reportedOrder(ctx: StrategyContext, report: StrategyReport): OrderHandle | undefined {
  if (report.kind === 'order') return ctx.order(report.report.client_order_id);
  const intent = report.intent;
  if (intent.kind === 'place' && intent.clientOrderId !== undefined) return ctx.order(intent.clientOrderId);
  if (intent.kind === 'replace' || intent.kind === 'cancel') return ctx.order(intent.clientOrderId);
  return undefined;
}

function pushHandle(out: OrderHandle[], handle: OrderHandle | undefined): void {
  if (handle !== undefined) out.push(handle);
}

/** The market-maker plugin (`strategy.name: market-maker`). */
const marketMaker: StrategyPlugin<MarketMakerParams> = {
  name: 'market-maker',
  // Acts only through its context: the order-path rehearsal may run it (see StrategyPlugin.rehearsable).
  rehearsable: true,
  description: 'Quotes a post-only bid and ask around the mid of each book, skewed by inventory, moved with replaces',
  parseParams: parseMarketMakerParams,
  create: () => createMarketMaker(),
};

export default marketMaker;
