import type { BookLevelText, OrderBookFrame, ScaledOrderBookFrame } from '../../../../framework/exchange/book/order-book-frame.js';
import { Instrument } from '../../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../../framework/model/resources/symbol.js';
import { ReplayedSymbolMarket } from '../../../../backtest/venue/matching/replayed-symbol-market.js';
import type { QueueModel } from '../../../../backtest/venue/matching/queue-model.js';

/** An instrument of symbol TEST; by default a unit grid, so "100" is 100 ticks and "5" is 5 lots. */
export function instrument(tick = '1', lot = '1'): Instrument {
  return new Instrument('TEST', parseSymbolInfo({
    type: 'spot', base_currency: 'TST', quote_currency: 'USD', tick_size: tick, quantity_increment: lot,
    take_rate: '0.002', make_rate: '0.001', fee_currency: 'USD',
  }));
}

/** Levels as [ticks, lots] on the unit grid. */
export type Levels = readonly (readonly [number, number])[];

function text(levels: Levels): BookLevelText[] {
  return levels.map(([price, lots]) => [String(price), String(lots)] as const);
}

let sequence = 0;

/** A book frame of TEST on the unit grid. */
export function bookFrame(snapshot: boolean, bids: Levels, asks: Levels): OrderBookFrame {
  sequence++;
  return { symbol: 'TEST', sequence, exchangeTime: sequence, receivedAt: sequence, snapshot, bids: text(bids), asks: text(asks) };
}

/** {@link bookFrame} as a replay's line decoder gives it: levels already scaled (scale 0: the unit grid's ticks and lots). */
export function scaledBookFrame(snapshot: boolean, bids: Levels, asks: Levels): ScaledOrderBookFrame {
  sequence++;
  return {
    symbol: 'TEST', sequence, exchangeTime: sequence, receivedAt: sequence, snapshot, priceScale: 0, quantityScale: 0,
    askLevels: asks.flat(), bidLevels: bids.flat(),
  };
}

/** A market on the unit grid holding the snapshot `bids` / `asks`. */
export function marketWith(bids: Levels, asks: Levels, queueModel?: QueueModel): ReplayedSymbolMarket {
  const market = new ReplayedSymbolMarket(instrument(), queueModel === undefined ? {} : { queueModel });
  market.applyBookFrame(bookFrame(true, bids, asks));
  return market;
}

/** A sell-aggressor trade (it hits bids) / a buy-aggressor trade (it lifts asks). */
export const sellTrade = (priceTicks: number, lots: number, time = Number.NaN) => ({ priceTicks, lots, side: 'sell' as const, time });
export const buyTrade = (priceTicks: number, lots: number, time = Number.NaN) => ({ priceTicks, lots, side: 'buy' as const, time });
