import { describe, expect, it } from 'vitest';
import { FuturesEndpoints } from '../../../../framework/exchange/rest/endpoints/futures.js';
import { ExchangeError } from '../../../../framework/exchange/errors.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import type { FuturesPositionConfig } from '../../../../framework/model/resources/futures-config.js';
import type { MarginAccount, Position } from '../../../../framework/model/resources/margin-account.js';
import type { Order } from '../../../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../../../framework/model/resources/trade-history.js';
import type { ClearingRecord } from '../../../../framework/model/resources/clearing.js';
import type { PositionHistoryRecord } from '../../../../framework/model/resources/position-history.js';
import { RecordingExecutor, shapeOf, type RequestShape } from './recording-executor.js';
import * as wire from './wire-fixtures.js';

interface Row {
  readonly name: string;
  readonly call: (api: FuturesEndpoints) => Promise<unknown>;
  readonly answer: unknown;
  readonly request: RequestShape;
  readonly check: (result: unknown) => void;
}

const get = (path: string, query?: Record<string, unknown>): RequestShape => ({
  method: 'GET', path, ...(query === undefined ? {} : { query }), scope: 'other', auth: true, idempotent: true,
});
const trading = (method: string, path: string, fields: Partial<RequestShape>, idempotent = false): RequestShape => ({
  method, path, ...fields, scope: 'trading', auth: true, idempotent,
});
const perpOrder = wire.orderWith({ symbol: 'BTCUSDT_PERP', reduce_only: false, position_id: 485308 });

const ROWS: readonly Row[] = [
  {
    name: 'getBalances', call: (api) => api.getBalances(), answer: [{ ...wire.tradingBalance, currency: 'USDT' }], request: get('/futures/balance'),
    check: (r) => expect((r as { reserved_margin: Decimal }[])[0]?.reserved_margin).toBeInstanceOf(Decimal),
  },
  {
    name: 'getBalance', call: (api) => api.getBalance('USDT'), answer: { available: '5', reserved: '1' }, request: get('/futures/balance/USDT'),
    check: (r) => expect((r as { reserved: Decimal }).reserved.toString()).toBe('1'),
  },
  {
    name: 'getAccounts', call: (api) => api.getAccounts(), answer: [wire.marginAccount], request: get('/futures/account'),
    check: (r) => expect((r as MarginAccount[])[0]?.symbol).toBe('BTCUSDT_PERP'),
  },
  {
    name: 'getAccount', call: (api) => api.getAccount('BTCUSDT_PERP'), answer: wire.marginAccount, request: get('/futures/account/isolated/BTCUSDT_PERP'),
    check: (r) => expect((r as MarginAccount).updated_at).toBe(wire.T1_MS),
  },
  {
    name: 'updateAccount', call: (api) => api.updateAccount('BTCUSDT_PERP', { margin_balance: '43.18', leverage: '10', strict_validate: true }),
    answer: wire.marginAccount,
    request: {
      method: 'PUT', path: '/futures/account/isolated/BTCUSDT_PERP', body: { margin_balance: '43.18', leverage: '10', strict_validate: true },
      scope: 'other', auth: true, idempotent: true,
    },
    check: (r) => expect((r as MarginAccount).leverage.toString()).toBe('10'),
  },
  {
    name: 'closeAllPositions', call: (api) => api.closeAllPositions(), answer: [wire.position],
    request: { method: 'DELETE', path: '/futures/position', scope: 'other', auth: true, idempotent: false },
    check: (r) => expect((r as Position[])[0]?.pnl?.toString()).toBe('-2.26'),
  },
  {
    name: 'closePosition', call: (api) => api.closePosition('BTCUSDT_PERP'), answer: [wire.position],
    request: { method: 'DELETE', path: '/futures/position/isolated/BTCUSDT_PERP', scope: 'other', auth: true, idempotent: false },
    check: (r) => expect((r as Position[])).toHaveLength(1),
  },
  {
    name: 'getActiveOrders', call: (api) => api.getActiveOrders({ symbol: 'BTCUSDT_PERP' }), answer: [perpOrder],
    request: get('/futures/order', { symbol: 'BTCUSDT_PERP' }), check: (r) => expect((r as Order[])[0]?.reduce_only).toBe(false),
  },
  {
    name: 'getActiveOrder', call: (api) => api.getActiveOrder('f1'), answer: perpOrder, request: get('/futures/order/f1'),
    check: (r) => expect((r as Order).position_id).toBe('485308'),
  },
  {
    name: 'createOrder',
    call: (api) => api.createOrder({ symbol: 'BTCUSDT_PERP', side: 'sell', type: 'stopMarket', stop_price: '40000', quantity: '0.01', reduce_only: true }),
    answer: wire.orderWith({ symbol: 'BTCUSDT_PERP', status: 'suspended', type: 'stopMarket', stop_price: '40000', reduce_only: true }),
    request: trading('POST', '/futures/order', {
      body: { symbol: 'BTCUSDT_PERP', side: 'sell', type: 'stopMarket', stop_price: '40000', quantity: '0.01', reduce_only: true },
    }),
    check: (r) => expect((r as Order).stop_price?.toString()).toBe('40000'),
  },
  {
    name: 'createOrderList',
    call: (api) => api.createOrderList({
      contingency_type: 'oneTriggerOneCancelOther',
      orders: [
        { symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '0.01' },
        { symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '0.01', price: '45000', reduce_only: true },
        { symbol: 'BTCUSDT_PERP', side: 'sell', type: 'stopMarket', quantity: '0.01', stop_price: '40000', reduce_only: true },
      ],
    }),
    answer: [wire.orderWith({ contingency_type: 'oneTriggerOneCancelOther', order_list_id: 'l' }), wire.orderWith({ inactive: true })],
    request: trading('POST', '/futures/order/list', {
      body: {
        contingency_type: 'oneTriggerOneCancelOther',
        orders: [
          { symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '0.01' },
          { symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '0.01', price: '45000', reduce_only: true },
          { symbol: 'BTCUSDT_PERP', side: 'sell', type: 'stopMarket', quantity: '0.01', stop_price: '40000', reduce_only: true },
        ],
      },
    }),
    check: (r) => expect((r as Order[])[1]?.inactive).toBe(true),
  },
  {
    name: 'replaceOrder', call: (api) => api.replaceOrder('f1', { quantity: '0.02', price: '44000', extra: { new_client_order_id: 'f2' } }),
    answer: perpOrder, request: trading('PATCH', '/futures/order/f1', { body: { quantity: '0.02', price: '44000', new_client_order_id: 'f2' } }),
    check: (r) => expect((r as Order).symbol).toBe('BTCUSDT_PERP'),
  },
  {
    name: 'cancelOrders', call: (api) => api.cancelOrders(), answer: [], request: trading('DELETE', '/futures/order', {}),
    check: (r) => expect(r).toEqual([]),
  },
  {
    name: 'cancelOrder', call: (api) => api.cancelOrder('f1'), answer: wire.orderWith({ status: 'canceled' }),
    request: trading('DELETE', '/futures/order/f1', {}, true), check: (r) => expect((r as Order).status).toBe('canceled'),
  },
  {
    name: 'getConfig', call: (api) => api.getConfig(), answer: wire.futuresConfig, request: get('/futures/config'),
    check: (r) => expect((r as FuturesPositionConfig[])[0]?.limit_power?.toString()).toBe('1.25'),
  },
  {
    name: 'getFees', call: (api) => api.getFees(), answer: [wire.fee], request: get('/futures/fee'),
    check: (r) => expect(r).toHaveLength(1),
  },
  {
    name: 'getFee', call: (api) => api.getFee('BTCUSDT_PERP'), answer: { ...wire.fee, symbol: 'BTCUSDT_PERP' }, request: get('/futures/fee/BTCUSDT_PERP'),
    check: (r) => expect((r as { symbol: string }).symbol).toBe('BTCUSDT_PERP'),
  },
  {
    name: 'getOrderHistory', call: (api) => api.getOrderHistory({ client_order_id: 'f1' }), answer: [perpOrder],
    request: get('/futures/history/order', { client_order_id: 'f1' }), check: (r) => expect((r as Order[])[0]?.client_order_id).toBe(wire.order.client_order_id),
  },
  {
    name: 'getTradeHistory', call: (api) => api.getTradeHistory({ symbol: 'BTCUSDT_PERP', sort: 'ASC', limit: 50 }),
    answer: [wire.futuresTradeHistory], request: get('/futures/history/trade', { symbol: ['BTCUSDT_PERP'], sort: 'ASC', limit: 50 }),
    check: (r) => expect((r as TradeHistoryRecord[])[0]?.pnl?.toString()).toBe('0.21'),
  },
  {
    name: 'getPositionHistory', call: (api) => api.getPositionHistory({ from: '1647945621000000000' }), answer: [wire.positionHistory],
    request: get('/futures/history/positions', { from: '1647945621000000000' }),
    check: (r) => expect((r as PositionHistoryRecord[])[0]?.state).toBe('closed'),
  },
  {
    name: 'getClearingHistory', call: (api) => api.getClearingHistory({ currency: 'USDT', offset: 100_000 }), answer: [wire.clearing],
    request: get('/futures/history/clearing', { currency: 'USDT', offset: 100_000 }),
    check: (r) => expect((r as ClearingRecord[])[0]?.timestamp).toBe(1647950400000000000n),
  },
];

describe('FuturesEndpoints', () => {
  it.each(ROWS)('$name', async ({ call, answer, request, check }) => {
    const executor = new RecordingExecutor().answer(answer);
    const result = await call(new FuturesEndpoints(executor));
    expect(shapeOf(executor.last)).toEqual(request);
    check(result);
  });

  it('looks a duplicate futures placement up in futures order history', async () => {
    const executor = new RecordingExecutor().answer(perpOrder);
    await new FuturesEndpoints(executor).createOrder({ client_order_id: 'f9', symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    const lookup = executor.last.lookupAfterDuplicate;
    executor.fail(new ExchangeError(800, 'Resource not found', undefined, 404)).answer([wire.orderWith({ client_order_id: 'f9', status: 'filled' })]);
    expect(((await lookup?.()) as Order).status).toBe('filled');
    expect(executor.requests.map((r) => r.path)).toEqual(['/futures/order', '/futures/order/f9', '/futures/history/order']);
  });
});

describe('FuturesEndpoints validation', () => {
  const api = new FuturesEndpoints(new RecordingExecutor());
  const list = (contingency_type: 'allOrNone') => api.createOrderList({
    contingency_type: contingency_type as never,
    orders: [
      { symbol: 'A', side: 'buy', time_in_force: 'FOK', quantity: '1', price: '1' },
      { symbol: 'B', side: 'buy', time_in_force: 'FOK', quantity: '1', price: '1' },
    ],
  });
  const cases: readonly [string, string, () => Promise<unknown>][] = [
    ['allOrNone lists', 'contingency_type', () => list('allOrNone')],
    ['zero leverage', 'leverage', () => api.updateAccount('BTCUSDT_PERP', { margin_balance: '1', leverage: '0' })],
    ['replace quantity', 'quantity', () => api.replaceOrder('f1', { quantity: '-1' })],
    ['replace extra repeating price', 'extra.price', () => api.replaceOrder('f1', { quantity: '1', extra: { price: '2' } })],
    ['stop price for stopLimit', 'stop_price', () => api.createOrder({ symbol: 'X', side: 'buy', type: 'stopLimit', quantity: '1', price: '1' })],
    ['history offset', 'offset', () => api.getOrderHistory({ offset: -1 })],
    ['position history bound', 'till', () => api.getPositionHistory({ till: 5 as unknown as bigint })],
  ];

  it.each(cases)('rejects %s, naming %s', async (_name, field, call) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
