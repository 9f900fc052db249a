import { Decimal } from '../../framework/model/decimal.js';
import { isCandlePeriod, type CandlePeriod } from '../../framework/model/resources/candle.js';
import { msToIso } from '../../framework/model/resources/wire-values.js';
import { candleStart } from './trade-aggregates.js';
import type { FuturesMarketData, OpenInterestSample } from './futures-market-data.js';
import type { FuturesScope } from './futures-scope.js';
import { invalid, optInt, optText, optTime, type Params } from './request-params.js';
import type { Route } from './rest-route.js';

const SEG = '([^/]+)';

/**
 * The public futures endpoints of document 000 over {@link FuturesMarketData}:
 * - `GET /public/futures/info` (`symbols` optional) and `/public/futures/info/{symbol}`: objects
 *   keyed by contract code;
 * - `GET /public/futures/history/funding`: `symbols`, `sort` (default DESC), `from` (DateTime) as
 *   the spec lists them, and (not shown in the spec, taken as the other histories take them)
 *   `till` and `limit` (default 100, at most 1000); keyed by perpetual contract code (a
 *   cash-settled contract has no funding and is left out);
 * - `GET /public/futures/candles/open_interest`, whose parameters and record the spec does not
 *   show: taken as `/public/candles` takes them (`symbols`, `period` default M30, `sort` default
 *   DESC, `from`, `till`, `limit` default 10, at most 1000), keyed by contract code, each candle
 *   `{timestamp, open, close, min, max}` of the open interest over the period (open: the level the
 *   period started with; periods without a change are left out).
 * A symbol that is not a futures contract is 2001, as everywhere in the futures section.
 */
export function futuresMarketDataRoutes(data: FuturesMarketData, scope: FuturesScope): Route[] {
  const get = (pattern: RegExp, handle: Route['handle']): Route => ({ method: 'GET', pattern, scope: 'public', handle });
  const contracts = (query: Params): string[] => {
    const text = optText(query, 'symbols');
    const list = text === undefined ? scope.symbols : text.split(',').filter((s) => s !== '');
    return list.map((s) => scope.require(s));
  };
  return [
    get(/^\/public\/futures\/info$/, ({ query }) => {
      const out: Record<string, unknown> = {};
      for (const symbol of contracts(query)) {
        const info = data.info(symbol);
        if (info !== undefined) out[symbol] = info;
      }
      return out;
    }),
    get(new RegExp(`^/public/futures/info/${SEG}$`), ({ params }) => {
      const symbol = params[0] ?? '';
      return { [symbol]: data.requireInfo(symbol) };
    }),
    get(/^\/public\/futures\/history\/funding$/, ({ query }) => {
      const window = timeWindow(query, 100);
      const out: Record<string, unknown> = {};
      for (const symbol of contracts(query)) {
        if (scope.isPerpetual(symbol)) out[symbol] = window(data.fundingHistory(symbol)).map((f) => f.record);
      }
      return out;
    }),
    get(/^\/public\/futures\/candles\/open_interest$/, ({ query }) => {
      const period = optText(query, 'period') ?? 'M30';
      if (!isCandlePeriod(period)) throw invalid('period', 'must be one of M1, M3, M5, M15, M30, H1, H4, D1, D7, 1M');
      const window = timeWindow(query, 10);
      const out: Record<string, unknown> = {};
      for (const symbol of contracts(query)) out[symbol] = window(openInterestCandles(data.openInterest(symbol), period)).map(candleWire);
      return out;
    }),
  ];
}

/** An open interest candle; `t` its start (UNIX ms). */
export interface OpenInterestCandleValue {
  readonly t: number;
  readonly open: string;
  readonly close: string;
  readonly min: string;
  readonly max: string;
}

/**
 * Folds open interest readings (oldest first) into candles of `period`: a period's open is the
 * level before its first reading (the previous reading, else its first), close its last reading,
 * min and max over both. Exact: readings compare as decimals.
 */
export function openInterestCandles(samples: readonly OpenInterestSample[], period: CandlePeriod): OpenInterestCandleValue[] {
  const out: OpenInterestCandleValue[] = [];
  let previous: string | undefined;
  let current: { t: number; open: string; close: string; min: Decimal; max: Decimal } | undefined;
  for (const sample of samples) {
    const start = candleStart(sample.t, period);
    const value = new Decimal(sample.value);
    if (current === undefined || current.t !== start) {
      if (current !== undefined) out.push(finish(current));
      const open = previous ?? sample.value;
      const openValue = new Decimal(open);
      current = { t: start, open, close: sample.value, min: Decimal.min(openValue, value), max: Decimal.max(openValue, value) };
    } else {
      current.close = sample.value;
      if (value.lessThan(current.min)) current.min = value;
      if (value.greaterThan(current.max)) current.max = value;
    }
    previous = sample.value;
  }
  if (current !== undefined) out.push(finish(current));
  return out;
}

function finish(c: { t: number; open: string; close: string; min: Decimal; max: Decimal }): OpenInterestCandleValue {
  return { t: c.t, open: c.open, close: c.close, min: c.min.toFixed(), max: c.max.toFixed() };
}

function candleWire(c: OpenInterestCandleValue): Record<string, unknown> {
  return { timestamp: msToIso(c.t), open: c.open, close: c.close, min: c.min, max: c.max };
}

/** `sort`, `from`, `till` (DateTime, inclusive) and `limit` over items kept oldest first. */
function timeWindow(query: Params, defaultLimit: number): <T extends { readonly t: number }>(items: readonly T[]) => T[] {
  const sort = optText(query, 'sort') ?? 'DESC';
  if (sort !== 'ASC' && sort !== 'DESC') throw invalid('sort', 'must be ASC or DESC');
  const from = optTime(query, 'from');
  const till = optTime(query, 'till');
  const limit = optInt(query, 'limit', 1000) ?? defaultLimit;
  if (limit < 1) throw invalid('limit', 'must be from 1 to 1000');
  return (items) => {
    const kept = items.filter((i) => (from === undefined || i.t >= from) && (till === undefined || i.t <= till));
    const ordered = sort === 'DESC' ? kept.reverse() : kept;
    return ordered.slice(0, limit);
  };
}

