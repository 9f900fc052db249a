import { dec } from '../../../framework/model/decimal.js';
import type {
  BacktestMeta, BacktestResult, EquityPoint, FillRecord, OrderRecord,
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
