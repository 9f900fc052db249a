import { ValidationError } from '../../../model/errors.js';
import { parseCandleList, parseCandleMap, type Candle } from '../../../model/resources/candle.js';
import { parseCurrency, parseCurrencyMap, type Currency } from '../../../model/resources/currency.js';
import {
  parseFundingHistoryMap, parseFuturesInfoMap, parseOpenInterestCandle, type FundingRecord, type FuturesInfo,
  type OpenInterestCandle,
} from '../../../model/resources/futures-info.js';
import { parseOrderBookMap, parseOrderBookSnapshot, type OrderBookSnapshot } from '../../../model/resources/order-book.js';
import { parsePublicTradeList, parsePublicTradeMap, type PublicTrade } from '../../../model/resources/public-trade.js';
import {
  parseSymbolInfo, parseSymbolMap, parseSymbolMapping, type SymbolInfo, type SymbolMapping,
} from '../../../model/resources/symbol.js';
import {
  parseLastPrice, parseLastPriceMap, parsePriceHistoryMap, parsePriceRateMap, parseTicker, parseTickerMap, type LastPrice,
  type PriceHistory, type PriceRate, type Ticker,
} from '../../../model/resources/ticker.js';
import { mapArray, mapKeyed } from '../../../model/wire.js';
import {
  codeList, limitParam, offsetParam, optionalCodeList, optionalDateTime, optionalDecimal, optionalEnum, optionalInt,
  pathSegment, requiredText, SORT_DIRECTIONS, withExtra,
} from '../params.js';
import type { QueryValue, RestExecutor } from '../rest-request.js';
import { pickKeyed, publicGet } from './endpoint-request.js';
import {
  rangeQuery, sortAndPeriod, symbolsQuery, type BrokerParams, type CandlesParams, type CurrenciesFilter,
  type FundingHistoryParams, type OpenInterestParams, type OrderBookParams, type OrderBooksParams, type PriceHistoryParams,
  type PriceRateParams, type SymbolCandlesParams, type SymbolsFilter, type SymbolTradesParams, type TradesParams,
} from './market-data-params.js';

/** Open interest candles: the spec does not show the shape, so both a plain array and a keyed object are accepted. */
export type OpenInterestCandles = readonly OpenInterestCandle[] | Readonly<Record<string, readonly OpenInterestCandle[]>>;

/**
 * Public market data (document 000): unauthenticated GETs on the `public` rate budget (30 per
 * second per IP). Path parameters are URI-encoded; list filters are sent comma-separated.
 */
export class MarketDataEndpoints {
  constructor(private readonly executor: RestExecutor) {}

  /** `GET /public/currency`: currencies keyed by code. */
  async getCurrencies(params?: CurrenciesFilter): Promise<Record<string, Currency>> {
    const currencies = optionalCodeList('currencies', params?.currencies);
    return this.executor.execute(publicGet('/public/currency', (b) => parseCurrencyMap(b), { currencies }));
  }

  /** `GET /public/currency/{currency}`. */
  async getCurrency(currency: string): Promise<Currency> {
    return this.executor.execute(publicGet(`/public/currency/${pathSegment('currency', currency)}`, (b) => parseCurrency(b)));
  }

  /** `GET /public/symbol`: symbols keyed by code. */
  async getSymbols(params?: SymbolsFilter): Promise<Record<string, SymbolInfo>> {
    return this.executor.execute(publicGet('/public/symbol', (b) => parseSymbolMap(b), { symbols: symbolsQuery(params) }));
  }

  /** `GET /public/symbol/{symbol}`. */
  async getSymbol(symbol: string): Promise<SymbolInfo> {
    return this.executor.execute(publicGet(`/public/symbol/${pathSegment('symbol', symbol)}`, (b) => parseSymbolInfo(b)));
  }

  /** `GET /public/mapping/symbol` with the `broker-id` header: matching-engine mappings keyed by symbol. */
  async getSymbolMappings(params: BrokerParams & SymbolsFilter): Promise<Record<string, SymbolMapping>> {
    const headers = brokerHeader(params);
    return this.executor.execute(publicGet(
      '/public/mapping/symbol',
      (b) => mapKeyed(b, 'mappings', (v, p) => parseSymbolMapping(v, p)),
      { symbols: symbolsQuery(params) },
      headers,
    ));
  }

  /** `GET /public/mapping/symbol/{symbol}` with the `broker-id` header. */
  async getSymbolMapping(symbol: string, params: BrokerParams): Promise<SymbolMapping> {
    const path = `/public/mapping/symbol/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(publicGet(path, (b) => parseSymbolMapping(b), undefined, brokerHeader(params)));
  }

  /** `GET /public/ticker`: tickers keyed by symbol. */
  async getTickers(params?: SymbolsFilter): Promise<Record<string, Ticker>> {
    return this.executor.execute(publicGet('/public/ticker', (b) => parseTickerMap(b), { symbols: symbolsQuery(params) }));
  }

  /** `GET /public/ticker/{symbol}`. */
  async getTicker(symbol: string): Promise<Ticker> {
    return this.executor.execute(publicGet(`/public/ticker/${pathSegment('symbol', symbol)}`, (b) => parseTicker(b)));
  }

  /** `GET /public/price/rate`: quotes keyed by source currency. */
  async getPriceRates(params: PriceRateParams): Promise<Record<string, PriceRate>> {
    const query = { from: codeList('from', params.from), to: requiredText('to', params.to) };
    return this.executor.execute(publicGet('/public/price/rate', (b) => parsePriceRateMap(b), query));
  }

  /** `GET /public/price/history`: histories keyed by source currency (limit 1-1000, default 1). */
  async getPriceHistory(params: PriceHistoryParams): Promise<Record<string, PriceHistory>> {
    const query = {
      from: codeList('from', params.from),
      to: requiredText('to', params.to),
      until: optionalDateTime('until', params.until),
      since: optionalDateTime('since', params.since),
      limit: limitParam(params.limit),
      ...sortAndPeriod(params),
    };
    return this.executor.execute(publicGet('/public/price/history', (b) => parsePriceHistoryMap(b), query));
  }

  /** `GET /public/price/ticker`: last prices keyed by symbol. */
  async getLastPrices(params?: SymbolsFilter): Promise<Record<string, LastPrice>> {
    return this.executor.execute(publicGet('/public/price/ticker', (b) => parseLastPriceMap(b), { symbols: symbolsQuery(params) }));
  }

  /** `GET /public/price/ticker/{symbol}`. */
  async getLastPrice(symbol: string): Promise<LastPrice> {
    return this.executor.execute(publicGet(`/public/price/ticker/${pathSegment('symbol', symbol)}`, (b) => parseLastPrice(b)));
  }

  /** `GET /public/trades`: trades keyed by symbol (limit 1-1000, default 10; by default timestamp). */
  async getTrades(params?: TradesParams): Promise<Record<string, PublicTrade[]>> {
    const query = {
      symbols: symbolsQuery(params),
      ...rangeQuery(params, 'timestamp'),
      sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
      limit: limitParam(params?.limit),
    };
    return this.executor.execute(publicGet('/public/trades', (b) => parsePublicTradeMap(b), query));
  }

  /** `GET /public/trades/{symbol}` (limit 1-1000, default 100; offset 0-100000). */
  async getSymbolTrades(symbol: string, params?: SymbolTradesParams): Promise<PublicTrade[]> {
    const query = {
      ...rangeQuery(params, 'timestamp'),
      sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
      limit: limitParam(params?.limit),
      offset: offsetParam(params?.offset),
    };
    const path = `/public/trades/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(publicGet(path, (b) => parsePublicTradeList(b), query));
  }

  /** `GET /public/orderbook`: books keyed by symbol (depth default 10, 0 = full book). */
  async getOrderBooks(params?: OrderBooksParams): Promise<Record<string, OrderBookSnapshot>> {
    const query = { symbols: symbolsQuery(params), depth: optionalInt('depth', params?.depth, 0) };
    return this.executor.execute(publicGet('/public/orderbook', (b) => parseOrderBookMap(b), query));
  }

  /** `GET /public/orderbook/{symbol}` (depth default 100, 0 = full book; `volume` overrides depth). */
  async getOrderBook(symbol: string, params?: OrderBookParams): Promise<OrderBookSnapshot> {
    const query = {
      depth: optionalInt('depth', params?.depth, 0),
      volume: optionalDecimal('volume', params?.volume, 'positive'),
    };
    const path = `/public/orderbook/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(publicGet(path, (b) => parseOrderBookSnapshot(b), query));
  }

  /** `GET /public/candles`: candles keyed by symbol (period default M30, limit 1-1000 default 10). */
  async getCandles(params?: CandlesParams): Promise<Record<string, Candle[]>> {
    const query = {
      symbols: symbolsQuery(params),
      ...sortAndPeriod(params),
      from: optionalDateTime('from', params?.from),
      till: optionalDateTime('till', params?.till),
      limit: limitParam(params?.limit),
    };
    return this.executor.execute(publicGet('/public/candles', (b) => parseCandleMap(b), query));
  }

  /** `GET /public/candles/{symbol}` (limit 1-1000, default 100; offset 0-100000). */
  async getSymbolCandles(symbol: string, params?: SymbolCandlesParams): Promise<Candle[]> {
    const query = {
      ...sortAndPeriod(params),
      from: optionalDateTime('from', params?.from),
      till: optionalDateTime('till', params?.till),
      limit: limitParam(params?.limit),
      offset: offsetParam(params?.offset),
    };
    const path = `/public/candles/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(publicGet(path, (b) => parseCandleList(b), query));
  }

  /** `GET /public/futures/info`: futures info keyed by contract code. */
  async getFuturesInfos(params?: SymbolsFilter): Promise<Record<string, FuturesInfo>> {
    return this.executor.execute(publicGet('/public/futures/info', (b) => parseFuturesInfoMap(b), { symbols: symbolsQuery(params) }));
  }

  /** `GET /public/futures/info/{symbol}`: the exchange keys the one record by the contract code. */
  async getFuturesInfo(symbol: string): Promise<FuturesInfo> {
    const path = `/public/futures/info/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(publicGet(path, (b) => pickKeyed(parseFuturesInfoMap(b), symbol, 'futures_info')));
  }

  /** `GET /public/futures/history/funding`: funding records keyed by perpetual contract code. */
  async getFundingHistory(params?: FundingHistoryParams): Promise<Record<string, FundingRecord[]>> {
    const query = withExtra({
      symbols: symbolsQuery(params),
      sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
      from: optionalDateTime('from', params?.from),
    }, params?.extra);
    return this.executor.execute(publicGet('/public/futures/history/funding', (b) => parseFundingHistoryMap(b), query));
  }

  /** `GET /public/futures/candles/open_interest`: parameters and response are not shown in the spec. */
  async getOpenInterestCandles(params?: OpenInterestParams): Promise<OpenInterestCandles> {
    const query = withExtra<QueryValue>({}, params?.extra);
    return this.executor.execute(publicGet('/public/futures/candles/open_interest', parseOpenInterestCandles, query));
  }
}

function brokerHeader(params: BrokerParams): Record<string, string> {
  if (params === undefined) throw new ValidationError('broker_id', 'is required');
  return { 'broker-id': requiredText('broker_id', params.broker_id) };
}

/** Open interest candles as an array, or keyed by contract code like the other futures endpoints. */
function parseOpenInterestCandles(body: unknown): OpenInterestCandles {
  if (Array.isArray(body)) return mapArray(body, 'open_interest', parseOpenInterestCandle);
  return mapKeyed(body, 'open_interest', (v, p) => mapArray(v, p, parseOpenInterestCandle));
}
