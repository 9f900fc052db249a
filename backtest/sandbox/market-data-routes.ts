import { ErrorCode } from '../../framework/exchange/errors.js';
import { Decimal, toWire } from '../../framework/model/decimal.js';
import { isCandlePeriod } from '../../framework/model/resources/candle.js';
import { symbolInfoToWire, type SymbolInfo } from '../../framework/model/resources/symbol.js';
import { msToIso } from '../../framework/model/resources/wire-values.js';
import { VenueRejection } from '../venue/venue-types.js';
import type { MarketState } from './market-state.js';
import { invalid, optInt, optText, optTime, type Params } from './request-params.js';
import type { Route } from './rest-route.js';
import { buildCandles, type WireTrade } from './trade-aggregates.js';

const SEG = '([^/]+)';

/**
 * Public market-data endpoints (document 000) over the replayed market: symbols from the market
 * source, a currency table derived from them, tickers, last prices, trades, order books and
 * candles built from the replayed trades.
 */
export function marketDataRoutes(market: MarketState): Route[] {
  const get = (pattern: RegExp, handle: Route['handle']): Route => ({ method: 'GET', pattern, scope: 'public', handle });
  const symbolsOf = (q: Params) => selection(q, 'symbols', market.symbolCodes);
  const known = (symbol: string) => {
    if (!market.symbolCodes.includes(symbol)) throw new VenueRejection(ErrorCode.SymbolNotFound, symbol);
    return symbol;
  };
  return [
    get(/^\/public\/symbol$/, ({ query }) => keyed(symbolsOf(query).filter((s) => market.symbols[s]), (s) => symbolWire(market.symbols[s]))),
    get(new RegExp(`^/public/symbol/${SEG}$`), ({ params }) => {
      const info = market.symbols[params[0] ?? ''];
      if (!info) throw new VenueRejection(ErrorCode.SymbolNotFound, params[0] ?? '');
      return symbolWire(info);
    }),
    get(/^\/public\/currency$/, ({ query }) => {
      const table = currencyTable(market.symbols);
      return keyed(selection(query, 'currencies', Object.keys(table)).filter((c) => table[c]), (c) => table[c]);
    }),
    get(new RegExp(`^/public/currency/${SEG}$`), ({ params }) => {
      const currency = currencyTable(market.symbols)[params[0] ?? ''];
      if (!currency) throw new VenueRejection(ErrorCode.CurrencyNotFound, params[0] ?? '');
      return currency;
    }),
    get(/^\/public\/ticker$/, ({ query }) => keyed(symbolsOf(query), (s) => market.restTicker(s))),
    get(new RegExp(`^/public/ticker/${SEG}$`), ({ params }) => market.restTicker(known(params[0] ?? ''))),
    get(/^\/public\/price\/ticker$/, ({ query }) => keyed(symbolsOf(query), (s) => lastPrice(market, s))),
    get(new RegExp(`^/public/price/ticker/${SEG}$`), ({ params }) => lastPrice(market, known(params[0] ?? ''))),
    get(/^\/public\/trades$/, ({ query }) => keyed(symbolsOf(query), (s) => tradesWire(market.tradesOf(s), query, 10))),
    get(new RegExp(`^/public/trades/${SEG}$`), ({ params, query }) => tradesWire(market.tradesOf(known(params[0] ?? '')), query, 100)),
    get(/^\/public\/orderbook$/, ({ query }) => {
      const depth = optInt(query, 'depth', 1_000_000) ?? 10;
      return keyed(symbolsOf(query), (s) => market.restBook(s, depth));
    }),
    get(new RegExp(`^/public/orderbook/${SEG}$`), ({ params, query }) => {
      const volume = optText(query, 'volume');
      if (volume !== undefined && !/^\d+(\.\d+)?$/.test(volume)) throw invalid('volume', 'must be a non-negative decimal');
      return market.restBook(known(params[0] ?? ''), optInt(query, 'depth', 1_000_000) ?? 100, volume);
    }),
    get(/^\/public\/candles$/, ({ query }) => keyed(symbolsOf(query), (s) => candlesWire(market.tradesOf(s), query, 10))),
    get(new RegExp(`^/public/candles/${SEG}$`), ({ params, query }) => candlesWire(market.tradesOf(known(params[0] ?? '')), query, 100)),
  ];
}

function symbolWire(info: SymbolInfo | undefined): Record<string, unknown> {
  return info === undefined ? {} : symbolInfoToWire(info);
}

function selection(query: Params, field: string, all: readonly string[]): string[] {
  const text = optText(query, field);
  return text === undefined ? [...all] : text.split(',').filter((s) => s !== '');
}

function keyed(keys: readonly string[], value: (key: string) => unknown): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, value(k)]));
}

/** One Currency per code of the symbols: transfers on, no deposits or withdrawals (no chain here). */
export function currencyTable(symbols: Readonly<Record<string, SymbolInfo>>): Record<string, Record<string, unknown>> {
  const table: Record<string, Record<string, unknown>> = {};
  for (const info of Object.values(symbols)) {
    for (const code of [info.base_currency, info.quote_currency, info.fee_currency]) {
      if (code === null || table[code]) continue;
      table[code] = {
        full_name: code, crypto: true, payin_enabled: false, payout_enabled: false, transfer_enabled: true,
        precision_transfer: '0.00000001', networks: [],
      };
    }
  }
  return table;
}

function lastPrice(market: MarketState, symbol: string): Record<string, unknown> {
  const trades = market.tradesOf(symbol);
  const last = trades[trades.length - 1];
  return { price: last?.p ?? null, timestamp: msToIso(last?.t ?? market.nowOr(Date.now())) };
}

function page<T extends { readonly t: number }>(items: readonly T[], query: Params, defaultLimit: number): T[] {
  const sort = optText(query, 'sort') ?? 'DESC';
  if (sort !== 'ASC' && sort !== 'DESC') throw invalid('sort', 'must be ASC or DESC');
  const limit = optInt(query, 'limit', 1000) ?? defaultLimit;
  const offset = optInt(query, 'offset', 100_000) ?? 0;
  const from = optTime(query, 'from');
  const till = optTime(query, 'till');
  let list = items.filter((i) => (from === undefined || i.t >= from) && (till === undefined || i.t <= till));
  if (sort === 'DESC') list = list.reverse();
  return list.slice(offset, offset + Math.max(limit, 1));
}


function tradesWire(trades: readonly WireTrade[], query: Params, defaultLimit: number): Record<string, unknown>[] {
  return page(trades, query, defaultLimit).map((t) => ({ id: t.i, price: t.p, qty: t.q, side: t.s, timestamp: msToIso(t.t) }));
}

function candlesWire(trades: readonly WireTrade[], query: Params, defaultLimit: number): Record<string, unknown>[] {
  const period = optText(query, 'period') ?? 'M30';
  if (!isCandlePeriod(period)) throw invalid('period', 'must be one of M1, M3, M5, M15, M30, H1, H4, D1, D7, 1M');
  const candles = buildCandles(trades, period);
  return page(candles, query, defaultLimit).map((c) => ({
    timestamp: msToIso(c.t), open: c.o, close: c.c, min: c.l, max: c.h, volume: c.v, volume_quote: toWire(new Decimal(c.q)),
  }));
}
