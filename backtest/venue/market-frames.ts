import { Decimal, type DecimalString } from '../../framework/model/decimal.js';
import { ORDER_BOOK_CHANNEL, parseOrderBookFrames, type BookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { Instrument } from '../../framework/model/instrument.js';
import { objectList } from '../../framework/model/object-list.js';
import { parseMarketNotification, type MarketEvent } from '../../framework/model/stream/market-events.js';
import type { TradeTick } from '../../framework/model/stream/market-records.js';
import type { OutsideTrade } from './matching/outside-trade.js';
import { checkTriggers, settleAll } from './order-activation.js';
import type { VenueEngine } from './venue-engine.js';

/**
 * Feeds one public-stream frame to the symbol markets: `orderbook/full` moves the outside book
 * (fills of resting orders it causes are settled), `trades` may fill resting orders and then fires
 * the stop/take-profit triggers of its symbol. Other channels and symbols the venue does not
 * trade are ignored. Each symbol's effects carry the frame as their cause.
 */
export function applyMarketFrame(engine: VenueEngine, frame: unknown, receivedAt: number): void {
  if (frame === null || typeof frame !== 'object') return;
  const channel = (frame as { ch?: unknown }).ch;
  if (channel === ORDER_BOOK_CHANNEL) {
    applyBookFrames(engine, parseOrderBookFrames(frame, receivedAt));
    return;
  }
  if (typeof channel !== 'string' || !channel.startsWith('trades')) return;
  applyMarketEvents(engine, parseMarketNotification(frame, receivedAt));
}

/** {@link applyMarketFrame} for `orderbook/full` frames parsed already (a replay parses each frame once). */
export function applyBookFrames(engine: VenueEngine, books: readonly BookFrame[]): void {
  // Indexed loops: a replay's lists are of two kinds (a frame's own, or a shared frozen empty
  // one), and for-of over both would allocate an iterator per frame.
  for (let i = 0; i < books.length; i++) {
    const book = books[i] as BookFrame;
    const market = engine.markets.get(book.symbol);
    if (market === undefined) continue;
    engine.cause = { kind: 'market', frameTime: book.exchangeTime, channel: ORDER_BOOK_CHANNEL, symbol: book.symbol, sequence: book.sequence };
    settleAll(engine, market.applyBookFrame(book));
    engine.commit();
  }
}

/** {@link applyMarketFrame} for market events parsed already; only trades move the venue. */
export function applyMarketEvents(engine: VenueEngine, events: readonly MarketEvent[]): void {
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as MarketEvent;
    if (event.kind !== 'trades') continue;
    const market = engine.markets.get(event.symbol);
    const instrument = engine.instruments.get(event.symbol);
    if (market === undefined || instrument === undefined) continue;
    engine.cause = { kind: 'market', frameTime: event.exchangeTime, channel: event.channel, symbol: event.symbol };
    settleAll(engine, market.applyTrades(outsideTrades(instrument, event.trades)));
    checkTriggers(engine, event.symbol);
    engine.commit();
  }
}

/**
 * The trades a market is handed, reused from one event to the next: a market reads them during
 * {@link SymbolMarket.applyTrades} and keeps none, and a replay sees a trades event every few
 * frames. `eventTrades` is cut to each event's count but never emptied (an empty array gives its
 * storage back, and the next event would allocate it again); `tradePool` keeps the trade objects.
 */
const tradePool = objectList<MutableTrade>();
const eventTrades = objectList<MutableTrade>();
const NO_TRADES: readonly OutsideTrade[] = Object.freeze(objectList<OutsideTrade>());

type MutableTrade = { -readonly [K in keyof OutsideTrade]: OutsideTrade[K] };

/** The public trades of an event in ticks and lots, in the shared list (valid until the next call). */
function outsideTrades(instrument: Instrument, ticks: readonly TradeTick[]): readonly OutsideTrade[] {
  if (ticks.length === 0) return NO_TRADES;
  for (let j = 0; j < ticks.length; j++) {
    const t = ticks[j] as TradeTick;
    let trade = tradePool[j];
    if (trade === undefined) {
      trade = { priceTicks: 0, lots: 0, side: 'buy', time: 0 };
      tradePool.push(trade);
    }
    trade.priceTicks = ticksOf(instrument, t.price);
    trade.lots = lotsOf(instrument, t.quantity);
    trade.side = t.side;
    trade.time = t.timestamp;
    eventTrades[j] = trade;
  }
  // Most events hold one trade: the length (a costly store) changes rarely.
  if (eventTrades.length !== ticks.length) eventTrades.length = ticks.length;
  return eventTrades;
}

/** Ticks of a public trade price; an off-grid print is rounded half down to the grid. */
function ticksOf(instrument: Instrument, price: DecimalString): number {
  const ticks = instrument.priceToTicks(price);
  if (!Number.isNaN(ticks)) return ticks;
  return instrument.priceToTicks(instrument.quantizePriceHalfDown(new Decimal(price)).toFixed());
}

/** Lots of a public trade quantity; an off-grid size is rounded down to whole lots. */
function lotsOf(instrument: Instrument, quantity: DecimalString): number {
  const lots = instrument.quantityToLots(quantity);
  if (!Number.isNaN(lots)) return lots;
  return instrument.quantityToLots(instrument.roundQuantityDown(new Decimal(quantity)).toFixed());
}
