import { dec } from '../../../framework/model/decimal.js';
import type {
  BacktestMeta, BacktestResult, EquityPoint, FillRecord, OrderRecord, PriceBar,
} from '../../../backtest/report/backtest-result.js';

/** A small meta block; override what a test cares about. */
export function meta(overrides: Partial<BacktestMeta> = {}): BacktestMeta {
  return {
    strategy: 'grid',
    params: { levels: 3, spacing: '0.5' },
    symbols: ['BTCUSDT'],
    recordings: ['rec/btc.jsonl.gz'],
    seed: 7,
    quoteCurrency: 'USDT',
    startTime: 0,
    endTime: 300_000,
    events: 1234,
    wallMs: 42,
    bookResyncs: [],
    mode: 'book',
    ...overrides,
  };
}

/** A fill on BTCUSDT with a quote-currency fee. */
export function fill(
  time: number,
  side: 'buy' | 'sell',
  price: string,
  quantity: string,
  fee = '0',
  overrides: Partial<FillRecord> = {},
): FillRecord {
  return {
    time, symbol: 'BTCUSDT', side, price: dec(price), quantity: dec(quantity), fee: dec(fee),
    feeCurrency: 'USDT', liquidity: 'taker', clientOrderId: `o${time}`, tradeId: `t${time}`, ...overrides,
  };
}

/** An order record. */
export function order(id: string, overrides: Partial<OrderRecord> = {}): OrderRecord {
  return {
    clientOrderId: id, symbol: 'BTCUSDT', side: 'buy', type: 'limit', price: dec('100'), quantity: dec('1'),
    filledQuantity: dec('1'), status: 'filled', createdAt: 0, updatedAt: 1000, ...overrides,
  };
}

/** An equity sample holding `position` BTC. */
export function point(time: number, equity: string, position = '0'): EquityPoint {
  return { time, equity: dec(equity), positions: { BTCUSDT: dec(position) } };
}

/** A whole result; empty lists unless given. */
export function result(overrides: Partial<BacktestResult> = {}): BacktestResult {
  return {
    meta: meta(),
    initialBalances: { USDT: dec('1000') },
    finalBalances: { USDT: dec('1000') },
    fills: [],
    orders: [],
    equity: [],
    prices: {},
    ...overrides,
  };
}

/** A one-minute bar whose prices are all `close` except a 1-unit range. */
export function bar(time: number, close: string): PriceBar {
  const c = dec(close);
  return { time, open: c, high: c.plus(1), low: c.minus(1), close: c };
}

/** A five-minute run on BTCUSDT: bars every minute, a buy and a sell, equity at each minute. */
export function sampleResult(overrides: Partial<BacktestResult> = {}): BacktestResult {
  return result({
    initialBalances: { USDT: dec('1000'), BTC: dec('0') },
    finalBalances: { USDT: dec('1009.8'), BTC: dec('0') },
    fills: [
      fill(65_500, 'buy', '100', '1', '0.1', { liquidity: 'maker', intentId: 'i1' }),
      fill(190_000, 'sell', '110', '1', '0.1', { clientOrderId: 'o,"quoted"\nline' }),
    ],
    orders: [order('o65500'), order('o,"quoted"\nline', { side: 'sell', price: undefined, type: 'market' })],
    equity: [
      point(0, '1000'), point(60_000, '1000'), point(65_500, '999.9', '1'), point(120_000, '995', '1'),
      point(180_000, '1005', '1'), point(190_000, '1009.8'), point(240_000, '1009.8'), point(300_000, '1009.8'),
    ],
    prices: { BTCUSDT: [0, 60_000, 120_000, 180_000, 240_000].map((t, i) => bar(t, String(100 + i * 3))) },
    ...overrides,
  });
}
