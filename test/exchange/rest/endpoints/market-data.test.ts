import { describe, expect, it } from 'vitest';
import { MarketDataEndpoints } from '../../../../framework/exchange/rest/endpoints/market-data.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ParseError, ValidationError } from '../../../../framework/model/errors.js';
import { RecordingExecutor, shapeOf, type RequestShape } from './recording-executor.js';
import * as wire from './wire-fixtures.js';

interface Row {
  readonly name: string;
  readonly call: (api: MarketDataEndpoints) => Promise<unknown>;
  readonly answer: unknown;
  readonly request: Omit<RequestShape, 'method' | 'scope' | 'auth' | 'idempotent'>;
  readonly check: (result: unknown) => void;
}

const ROWS: readonly Row[] = [
  {
    name: 'getCurrencies', call: (api) => api.getCurrencies({ currencies: ['ETH', 'BTC'] }), answer: { ETH: wire.currency },
    request: { path: '/public/currency', query: { currencies: ['ETH', 'BTC'] } },
    check: (r) => expect((r as Record<string, { precision_transfer: Decimal }>)['ETH']?.precision_transfer).toBeInstanceOf(Decimal),
  },
  {
    name: 'getCurrency', call: (api) => api.getCurrency('ETH'), answer: wire.currency, request: { path: '/public/currency/ETH' },
    check: (r) => expect((r as { networks: { payin_confirmations: number }[] }).networks[0]?.payin_confirmations).toBe(20),
  },
  {
    name: 'getSymbols', call: (api) => api.getSymbols({ symbols: 'ETHBTC' }), answer: { ETHBTC: wire.symbol },
    request: { path: '/public/symbol', query: { symbols: ['ETHBTC'] } },
    check: (r) => expect((r as Record<string, { tick_size: Decimal }>)['ETHBTC']?.tick_size.toString()).toBe('0.000001'),
  },
  {
    name: 'getSymbol', call: (api) => api.getSymbol('ETHBTC'), answer: wire.symbol, request: { path: '/public/symbol/ETHBTC' },
    check: (r) => expect((r as { make_rate: Decimal }).make_rate.isNeg()).toBe(true),
  },
  {
    name: 'getSymbolMappings', call: (api) => api.getSymbolMappings({ broker_id: 'b-17', symbols: ['ETHBTC'] }),
    answer: { ETHBTC: wire.mapping },
    request: { path: '/public/mapping/symbol', query: { symbols: ['ETHBTC'] }, headers: { 'broker-id': 'b-17' } },
    check: (r) => expect((r as Record<string, { core_symbol_id: number }>)['ETHBTC']?.core_symbol_id).toBe(9),
  },
  {
    name: 'getSymbolMapping', call: (api) => api.getSymbolMapping('ETHBTC', { broker_id: 'b-17' }), answer: wire.mapping,
    request: { path: '/public/mapping/symbol/ETHBTC', headers: { 'broker-id': 'b-17' } },
    check: (r) => expect((r as { tick_size: Decimal }).tick_size).toBeInstanceOf(Decimal),
  },
  {
    name: 'getTickers', call: (api) => api.getTickers(), answer: { ETHBTC: wire.ticker }, request: { path: '/public/ticker' },
    check: (r) => expect((r as Record<string, { timestamp: number }>)['ETHBTC']?.timestamp).toBe(wire.T1_MS),
  },
  {
    name: 'getTicker', call: (api) => api.getTicker('ETHBTC'), answer: wire.ticker, request: { path: '/public/ticker/ETHBTC' },
    check: (r) => expect((r as { ask: string }).ask).toBe('0.050043'),
  },
  {
    name: 'getPriceRates', call: (api) => api.getPriceRates({ from: ['ETH', 'XRP'], to: 'BTC' }), answer: { ETH: wire.priceRate },
    request: { path: '/public/price/rate', query: { from: ['ETH', 'XRP'], to: 'BTC' } },
    check: (r) => expect((r as Record<string, { price: string }>)['ETH']?.price).toBe('0.050042'),
  },
  {
    name: 'getPriceHistory',
    call: (api) => api.getPriceHistory({ from: 'ETH', to: 'BTC', since: wire.T1, until: 1_700_000_000_000, limit: 5, period: 'H1', sort: 'ASC' }),
    answer: { ETH: wire.priceHistory },
    request: {
      path: '/public/price/history',
      query: { from: ['ETH'], to: 'BTC', since: wire.T1, until: 1_700_000_000_000, limit: 5, period: 'H1', sort: 'ASC' },
    },
    check: (r) => expect((r as Record<string, { history: { close: string }[] }>)['ETH']?.history[0]?.close).toBe('0.0500'),
  },
  {
    name: 'getLastPrices', call: (api) => api.getLastPrices({ symbols: ['ETHBTC'] }), answer: { ETHBTC: wire.lastPrice },
    request: { path: '/public/price/ticker', query: { symbols: ['ETHBTC'] } },
    check: (r) => expect((r as Record<string, { price: string }>)['ETHBTC']?.price).toBe('0.050042'),
  },
  {
    name: 'getLastPrice', call: (api) => api.getLastPrice('ETHBTC'), answer: wire.lastPrice, request: { path: '/public/price/ticker/ETHBTC' },
    check: (r) => expect((r as { timestamp: number }).timestamp).toBe(wire.T1_MS),
  },
  {
    name: 'getTrades', call: (api) => api.getTrades({ symbols: ['ETHBTC'], by: 'id', from: 100, till: '200', sort: 'ASC', limit: 1000 }),
    answer: { ETHBTC: [wire.publicTrade] },
    request: { path: '/public/trades', query: { symbols: ['ETHBTC'], by: 'id', from: '100', till: '200', sort: 'ASC', limit: 1000 } },
    check: (r) => expect((r as Record<string, { id: string }[]>)['ETHBTC']?.[0]?.id).toBe('1175851866285'),
  },
  {
    name: 'getSymbolTrades', call: (api) => api.getSymbolTrades('ETHBTC', { from: new Date(wire.T1_MS), limit: 1, offset: 100_000 }),
    answer: [wire.publicTrade],
    request: { path: '/public/trades/ETHBTC', query: { from: wire.T1, limit: 1, offset: 100_000 } },
    check: (r) => expect((r as { qty: string }[])[0]?.qty).toBe('0.125'),
  },
  {
    name: 'getOrderBooks', call: (api) => api.getOrderBooks({ symbols: ['ETHBTC'], depth: 0 }), answer: { ETHBTC: wire.orderBook },
    request: { path: '/public/orderbook', query: { symbols: ['ETHBTC'], depth: 0 } },
    check: (r) => expect((r as Record<string, { ask: string[][] }>)['ETHBTC']?.ask[0]).toEqual(['0.046002', '0.0723']),
  },
  {
    name: 'getOrderBook', call: (api) => api.getOrderBook('ETHBTC', { depth: 5, volume: new Decimal('1.5') }), answer: wire.orderBook,
    request: { path: '/public/orderbook/ETHBTC', query: { depth: 5, volume: '1.5' } },
    check: (r) => expect((r as { bid: string[][] }).bid[1]).toEqual(['0.046000', '2.5']),
  },
  {
    name: 'getCandles', call: (api) => api.getCandles({ symbols: ['ETHBTC'], period: '1M', from: wire.T1, limit: 10 }),
    answer: { ETHBTC: [wire.candle] },
    request: { path: '/public/candles', query: { symbols: ['ETHBTC'], period: '1M', from: wire.T1, limit: 10 } },
    check: (r) => expect((r as Record<string, { volume_quote: string }[]>)['ETHBTC']?.[0]?.volume_quote).toBe('1782.625000'),
  },
  {
    name: 'getSymbolCandles', call: (api) => api.getSymbolCandles('ETHBTC', { sort: 'DESC', period: 'M1', till: '2021-06-21', offset: 0 }),
    answer: [wire.candle],
    request: { path: '/public/candles/ETHBTC', query: { sort: 'DESC', period: 'M1', till: '2021-06-21', offset: 0 } },
    check: (r) => expect((r as { timestamp: number }[])[0]?.timestamp).toBe(wire.T1_MS),
  },
  {
    name: 'getFuturesInfos', call: (api) => api.getFuturesInfos({ symbols: ['BTCUSDT_PERP'] }), answer: { BTCUSDT_PERP: wire.futuresInfo },
    request: { path: '/public/futures/info', query: { symbols: ['BTCUSDT_PERP'] } },
    check: (r) => expect((r as Record<string, { contract_type: string }>)['BTCUSDT_PERP']?.contract_type).toBe('perpetual'),
  },
  {
    name: 'getFuturesInfo', call: (api) => api.getFuturesInfo('BTCUSDT_PERP'), answer: { BTCUSDT_PERP: wire.futuresInfo },
    request: { path: '/public/futures/info/BTCUSDT_PERP' },
    check: (r) => expect((r as { mark_price: string }).mark_price).toBe('42307.43'),
  },
  {
    name: 'getFundingHistory',
    call: (api) => api.getFundingHistory({ symbols: ['BTCUSDT_PERP'], sort: 'ASC', from: wire.T1, extra: { limit: 50, till: wire.T1 } }),
    answer: { BTCUSDT_PERP: [wire.funding] },
    request: {
      path: '/public/futures/history/funding',
      query: { symbols: ['BTCUSDT_PERP'], sort: 'ASC', from: wire.T1, limit: 50, till: wire.T1 },
    },
    check: (r) => expect((r as Record<string, { funding_rate: string }[]>)['BTCUSDT_PERP']?.[0]?.funding_rate).toBe('0.0001'),
  },
  {
    name: 'getOpenInterestCandles', call: (api) => api.getOpenInterestCandles({ extra: { symbols: 'BTCUSDT_PERP', period: 'H1' } }),
    answer: { BTCUSDT_PERP: [wire.openInterest] },
    request: { path: '/public/futures/candles/open_interest', query: { symbols: 'BTCUSDT_PERP', period: 'H1' } },
    check: (r) => expect((r as Record<string, { values: Record<string, string> }[]>)['BTCUSDT_PERP']?.[0]?.values['open_interest']).toBe('30.9826'),
  },
];

describe('MarketDataEndpoints', () => {
  it.each(ROWS)('$name: public GET, typed result', async ({ call, answer, request, check }) => {
    const executor = new RecordingExecutor().answer(answer);
    const result = await call(new MarketDataEndpoints(executor));
    expect(shapeOf(executor.last)).toEqual({ method: 'GET', scope: 'public', auth: false, idempotent: true, ...request });
    check(result);
  });

  it('sends no query when no filter is given', async () => {
    const executor = new RecordingExecutor().answer({});
    await new MarketDataEndpoints(executor).getSymbols();
    expect(executor.last.query).toBeUndefined();
  });

  it('URI-encodes path parameters', async () => {
    const executor = new RecordingExecutor().answer(wire.symbol);
    await new MarketDataEndpoints(executor).getSymbol('ETH/BTC?x');
    expect(executor.last.path).toBe('/public/symbol/ETH%2FBTC%3Fx');
  });

  it('accepts open interest candles as a plain array too', async () => {
    const executor = new RecordingExecutor().answer([wire.openInterest]);
    const result = await new MarketDataEndpoints(executor).getOpenInterestCandles();
    expect(result).toEqual([{ timestamp: wire.T1_MS, values: { open_interest: '30.9826', value: '1310786.12' } }]);
  });

  it('reports a futures info answer keyed by another contract as a ParseError', async () => {
    const executor = new RecordingExecutor().answer({ ETHUSDT_PERP: wire.futuresInfo });
    await expect(new MarketDataEndpoints(executor).getFuturesInfo('BTCUSDT_PERP')).rejects.toThrow(ParseError);
  });
});

describe('MarketDataEndpoints validation', () => {
  const api = new MarketDataEndpoints(new RecordingExecutor());
  const cases: readonly [string, string, () => Promise<unknown>][] = [
    ['limit above 1000', 'limit', () => api.getTrades({ limit: 1001 })],
    ['limit below 1', 'limit', () => api.getSymbolCandles('ETHBTC', { limit: 0 })],
    ['fractional limit', 'limit', () => api.getCandles({ limit: 2.5 })],
    ['offset above 100000', 'offset', () => api.getSymbolTrades('ETHBTC', { offset: 100_001 })],
    ['negative offset', 'offset', () => api.getSymbolCandles('ETHBTC', { offset: -1 })],
    ['negative depth', 'depth', () => api.getOrderBook('ETHBTC', { depth: -1 })],
    ['negative depth (several symbols)', 'depth', () => api.getOrderBooks({ depth: -5 })],
    ['zero volume', 'volume', () => api.getOrderBook('ETHBTC', { volume: '0' })],
    ['float volume', 'volume', () => api.getOrderBook('ETHBTC', { volume: 1.5 as unknown as string })],
    ['unknown period', 'period', () => api.getCandles({ period: 'M2' as 'M1' })],
    ['unknown sort', 'sort', () => api.getTrades({ sort: 'UP' as 'ASC' })],
    ['unknown by', 'by', () => api.getTrades({ by: 'time' as 'id' })],
    ['DateTime bound when by is id', 'from', () => api.getTrades({ by: 'id', from: wire.T1 })],
    ['malformed DateTime', 'till', () => api.getSymbolCandles('ETHBTC', { till: 'yesterday' })],
    ['empty path symbol', 'symbol', () => api.getTicker('')],
    ['empty code in list', 'symbols[1]', () => api.getTickers({ symbols: ['ETHBTC', ''] })],
    ['comma inside a code', 'symbols[0]', () => api.getTickers({ symbols: ['ETHBTC,BTCUSDT'] })],
    ['missing price rate target', 'to', () => api.getPriceRates({ from: 'ETH', to: '' })],
    ['empty price rate source list', 'from', () => api.getPriceRates({ from: [], to: 'BTC' })],
    ['price history limit', 'limit', () => api.getPriceHistory({ from: 'ETH', to: 'BTC', limit: 1001 })],
    ['missing broker id', 'broker_id', () => api.getSymbolMapping('ETHBTC', { broker_id: '' })],
    ['broker id with a line break', 'broker_id', () => api.getSymbolMappings({ broker_id: 'a\r\nx: y' })],
    ['extra overriding a documented parameter', 'extra.sort', () => api.getFundingHistory({ sort: 'ASC', extra: { sort: 'DESC' } })],
    ['float in extra', 'extra.step', () => api.getOpenInterestCandles({ extra: { step: 0.5 } })],
  ];

  it.each(cases)('rejects %s before sending, naming %s', async (_name, field, call) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
