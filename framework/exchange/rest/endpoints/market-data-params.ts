import { ValidationError } from '../../../model/errors.js';
import { CANDLE_PERIODS, type CandlePeriod } from '../../../model/resources/candle.js';
import {
  idParam, optionalCodeList, optionalDateTime, optionalEnum, PAGE_FILTERS, SORT_DIRECTIONS,
  type CodeListInput, type DateTimeInput, type DecimalInput, type ExtraParams, type IdInput, type PageFilter,
  type SortDirection,
} from '../params.js';
import type { QueryValue } from '../rest-request.js';

/** Parameter objects of the public market-data endpoints (document 000), with the spec's wire names. */

/** `symbols` filter; omitted or empty means all. */
export interface SymbolsFilter {
  readonly symbols?: CodeListInput;
}

/** `currencies` filter; omitted or empty means all. */
export interface CurrenciesFilter {
  readonly currencies?: CodeListInput;
}

/** Header parameter of the symbol mapping endpoints. */
export interface BrokerParams {
  /** Sent as the `broker-id` request header. */
  readonly broker_id: string;
}

/** `GET /public/price/rate`. */
export interface PriceRateParams {
  /** Source currency code(s); the response is keyed by them. */
  readonly from: CodeListInput;
  /** Target currency code. */
  readonly to: string;
}

/** `GET /public/price/history`. */
export interface PriceHistoryParams {
  readonly from: CodeListInput;
  readonly to: string;
  readonly until?: DateTimeInput;
  readonly since?: DateTimeInput;
  /** 1-1000, default 1. */
  readonly limit?: number;
  /** Default M30. */
  readonly period?: CandlePeriod;
  /** Default DESC. */
  readonly sort?: SortDirection;
}

/** A time-or-id range bound: DateTime when `by` is timestamp, a trade id when `by` is id. */
export type RangeBound = DateTimeInput | IdInput;

/** `GET /public/trades` (several symbols). */
export interface TradesParams extends SymbolsFilter {
  /** Default timestamp. */
  readonly by?: PageFilter;
  /** Default DESC. */
  readonly sort?: SortDirection;
  readonly from?: RangeBound;
  readonly till?: RangeBound;
  /** 1-1000, default 10. */
  readonly limit?: number;
}

/** `GET /public/trades/{symbol}`. */
export interface SymbolTradesParams extends Omit<TradesParams, 'symbols'> {
  /** 1-1000, default 100. */
  readonly limit?: number;
  /** 0-100000, default 0. */
  readonly offset?: number;
}

/** `GET /public/orderbook` (several symbols). */
export interface OrderBooksParams extends SymbolsFilter {
  /** Levels per side, default 10; 0 is the full book. */
  readonly depth?: number;
}

/** `GET /public/orderbook/{symbol}`. */
export interface OrderBookParams {
  /** Levels per side, default 100; 0 is the full book. Ignored by the exchange when `volume` is given. */
  readonly depth?: number;
  /** Return the levels needed to fill this volume. */
  readonly volume?: DecimalInput;
}

/** `GET /public/candles` (several symbols). */
export interface CandlesParams extends SymbolsFilter {
  /** Default DESC. */
  readonly sort?: SortDirection;
  /** Default M30. */
  readonly period?: CandlePeriod;
  readonly from?: DateTimeInput;
  readonly till?: DateTimeInput;
  /** 1-1000, default 10. */
  readonly limit?: number;
}

/** `GET /public/candles/{symbol}`. */
export interface SymbolCandlesParams extends Omit<CandlesParams, 'symbols'> {
  /** 1-1000, default 100. */
  readonly limit?: number;
  /** 0-100000, default 0. */
  readonly offset?: number;
}

/** `GET /public/futures/history/funding`; parameters after `sort` and `from` are not shown in the spec. */
export interface FundingHistoryParams extends SymbolsFilter {
  /** Default DESC. */
  readonly sort?: SortDirection;
  readonly from?: DateTimeInput;
  readonly extra?: ExtraParams;
}

/** `GET /public/futures/candles/open_interest`: parameters are not shown in the spec. */
export interface OpenInterestParams {
  readonly extra?: ExtraParams;
}

/** The `symbols` query value. */
export function symbolsQuery(filter: SymbolsFilter | undefined): QueryValue {
  return optionalCodeList('symbols', filter?.symbols);
}

/** `sort` and `period` of candle-like endpoints. */
export function sortAndPeriod(params: { sort?: unknown; period?: unknown } | undefined): Record<string, QueryValue> {
  return {
    sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
    period: optionalEnum('period', params?.period, CANDLE_PERIODS),
  };
}

/**
 * `by`, `from` and `till` of a list pageable by id or by time: ids must be integers when
 * `by` is id, DateTimes otherwise (`defaultBy` is the endpoint's documented default).
 */
export function rangeQuery(
  params: { by?: unknown; from?: unknown; till?: unknown } | undefined,
  defaultBy: PageFilter,
): Record<string, QueryValue> {
  const by = optionalEnum('by', params?.by, PAGE_FILTERS);
  const bound = (field: 'from' | 'till'): QueryValue => {
    const value = params?.[field];
    if (value === undefined) return undefined;
    if ((by ?? defaultBy) === 'id') {
      if (value instanceof Date) throw new ValidationError(field, 'must be an id when by is id', value.toISOString());
      return idParam(field, value);
    }
    return optionalDateTime(field, value);
  };
  return { by, from: bound('from'), till: bound('till') };
}
