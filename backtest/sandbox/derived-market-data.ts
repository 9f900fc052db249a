import type { ChannelInfo } from '../../framework/model/stream/channel.js';
import type { MarketState } from './market-state.js';
import { tradeStats } from './trade-aggregates.js';

/**
 * What a partial-book (`orderbook/D5/...`, the snapshot entry `{t, s, a, b}`) or top-of-book
 * (`{t, a, A, b, B}`) notification carries for `symbol`, from the live book; undefined while the
 * book is not valid.
 */
export function bookData(market: MarketState, symbol: string, info: ChannelInfo): Record<string, unknown> | undefined {
  const depth = info.kind === 'partialBook' ? Number(info.depth?.slice(1) ?? 5) : 1;
  const snapshot = market.bookSnapshot(symbol, depth);
  if (snapshot === undefined) return undefined;
  if (info.kind === 'partialBook') return snapshot;
  const [ask, askQty] = snapshot.a[0] ?? [];
  const [bid, bidQty] = snapshot.b[0] ?? [];
  return { t: snapshot.t, a: ask ?? null, A: askQty ?? null, b: bid ?? null, B: bidQty ?? null };
}

/** A `ticker/{speed}` record of `symbol` at market time `at`: trade statistics and the top of the book. */
export function tickerData(market: MarketState, symbol: string, at: number): Record<string, unknown> {
  const base = tickerPriceData(market, symbol, at);
  const top = bookData(market, symbol, { kind: 'topOfBook', batch: false });
  const stats = tradeStats(market.tradesOf(symbol), at);
  return { ...base, a: top?.a ?? null, A: top?.A ?? null, b: top?.b ?? null, B: top?.B ?? null, p: null, P: null, L: stats.lastTradeId ?? 0 };
}

/** A `ticker/price/{speed}` record of `symbol` at market time `at`, from the recent trades. */
export function tickerPriceData(market: MarketState, symbol: string, at: number): Record<string, unknown> {
  const s = tradeStats(market.tradesOf(symbol), at);
  return { t: Math.floor(at), o: s.open ?? null, c: s.last ?? null, h: s.high, l: s.low, v: s.volume, q: s.volumeQuote };
}
