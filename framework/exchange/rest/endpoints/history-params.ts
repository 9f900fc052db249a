import {
  limitParam, offsetParam, optionalClientOrderId, optionalCodeList, optionalDateTime, optionalEnum, optionalId,
  optionalNanos, optionalText, PAGE_FILTERS, SORT_DIRECTIONS, type CodeListInput, type DateTimeInput, type IdInput, type PageFilter,
  type SortDirection,
} from '../params.js';
import type { QueryValue } from '../rest-request.js';
import { rangeQuery, type RangeBound } from './market-data-params.js';

/** History query parameters of the trading sections (document 001), with the spec's wire names. */

/** Paging shared by every history endpoint: limit 1-1000 (default 100), offset 0-100000 (default 0). */
export interface PageParams {
  readonly limit?: number;
  readonly offset?: number;
}

/** `GET /spot/history/order`. */
export interface SpotOrderHistoryParams extends PageParams {
  /** When given, the exchange ignores every other parameter. */
  readonly client_order_id?: string;
  readonly symbol?: CodeListInput;
  /** Default DESC. */
  readonly sort?: SortDirection;
  /** Default id. */
  readonly by?: PageFilter;
  readonly from?: DateTimeInput;
  readonly till?: DateTimeInput;
}

/** `GET /futures/history/order`. */
export interface FuturesOrderHistoryParams extends PageParams {
  /** When given, the exchange ignores every other parameter. */
  readonly client_order_id?: string;
  readonly symbol?: CodeListInput;
  readonly from?: DateTimeInput;
  readonly till?: DateTimeInput;
}

/** `GET /{spot|futures}/history/trade`. */
export interface TradeHistoryParams extends PageParams {
  readonly order_id?: IdInput;
  readonly symbol?: CodeListInput;
  /** Default DESC. */
  readonly sort?: SortDirection;
  /** Default id: `from`/`till` are then trade ids, otherwise DateTimes. */
  readonly by?: PageFilter;
  readonly from?: RangeBound;
  readonly till?: RangeBound;
}

/** `GET /{margin|futures}/history/positions`; `from`/`till` are UNIX nanoseconds (at least 1). */
export interface PositionHistoryParams extends PageParams {
  /** Default DESC. */
  readonly sort?: SortDirection;
  readonly from?: bigint | string;
  readonly till?: bigint | string;
}

/** `GET /{margin|futures}/history/clearing`. */
export interface ClearingHistoryParams extends PositionHistoryParams {
  /** Quote currency code. */
  readonly currency?: string;
}

function page(params: PageParams | undefined): Record<string, QueryValue> {
  return { limit: limitParam(params?.limit), offset: offsetParam(params?.offset) };
}

/** Query of spot order history. */
export function spotOrderHistoryQuery(params: SpotOrderHistoryParams | undefined): Record<string, QueryValue> {
  return {
    client_order_id: optionalClientOrderId('client_order_id', params?.client_order_id),
    symbol: optionalCodeList('symbol', params?.symbol),
    sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
    by: optionalEnum('by', params?.by, PAGE_FILTERS),
    from: optionalDateTime('from', params?.from),
    till: optionalDateTime('till', params?.till),
    ...page(params),
  };
}

/** Query of futures order history. */
export function futuresOrderHistoryQuery(params: FuturesOrderHistoryParams | undefined): Record<string, QueryValue> {
  return {
    client_order_id: optionalClientOrderId('client_order_id', params?.client_order_id),
    symbol: optionalCodeList('symbol', params?.symbol),
    from: optionalDateTime('from', params?.from),
    till: optionalDateTime('till', params?.till),
    ...page(params),
  };
}

/** Query of trade history (spot and futures). */
export function tradeHistoryQuery(params: TradeHistoryParams | undefined): Record<string, QueryValue> {
  return {
    order_id: optionalId('order_id', params?.order_id),
    symbol: optionalCodeList('symbol', params?.symbol),
    sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
    ...rangeQuery(params, 'id'),
    ...page(params),
  };
}

/** Query of position history (margin and futures). */
export function positionHistoryQuery(params: PositionHistoryParams | undefined): Record<string, QueryValue> {
  return {
    sort: optionalEnum('sort', params?.sort, SORT_DIRECTIONS),
    from: optionalNanos('from', params?.from),
    till: optionalNanos('till', params?.till),
    ...page(params),
  };
}

/** Query of clearing history (margin and futures). */
export function clearingHistoryQuery(params: ClearingHistoryParams | undefined): Record<string, QueryValue> {
  return { currency: optionalText('currency', params?.currency), ...positionHistoryQuery(params) };
}
