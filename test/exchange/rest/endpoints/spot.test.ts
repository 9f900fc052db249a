import { describe, expect, it } from 'vitest';
import { SpotEndpoints } from '../../../../framework/exchange/rest/endpoints/spot.js';
import { ExchangeError } from '../../../../framework/exchange/errors.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import type { Order } from '../../../../framework/model/resources/order.js';
import { RecordingExecutor, shapeOf, type RequestShape } from './recording-executor.js';
import * as wire from './wire-fixtures.js';

interface Row {
  readonly name: string;
  readonly call: (api: SpotEndpoints) => Promise<unknown>;
  readonly answer: unknown;
  readonly request: RequestShape;
  readonly check: (result: unknown) => void;
}

const get = (path: string, query?: Record<string, unknown>): RequestShape => ({
  method: 'GET', path, ...(query === undefined ? {} : { query }), scope: 'other', auth: true, idempotent: true,
});
const firstOrder = (r: unknown): Order => (r as Order[])[0] as Order;

const ROWS: readonly Row[] = [
  {
    name: 'getBalances', call: (api) => api.getBalances(), answer: [wire.tradingBalance], request: get('/spot/balance'),
    check: (r) => expect((r as { available: Decimal }[])[0]?.available.toString()).toBe('10'),
  },
  {
    name: 'getBalance', call: (api) => api.getBalance('ETH'), answer: { available: '1.5', reserved: '0' }, request: get('/spot/balance/ETH'),
    check: (r) => expect((r as { available: Decimal }).available).toBeInstanceOf(Decimal),
  },
  {
    name: 'getActiveOrders', call: (api) => api.getActiveOrders({ symbol: 'ETHBTC' }), answer: [wire.order],
    request: get('/spot/order', { symbol: 'ETHBTC' }), check: (r) => expect(firstOrder(r).id).toBe('840450210'),
  },
  {
    name: 'getActiveOrder', call: (api) => api.getActiveOrder('abc/1?2'), answer: wire.order,
    request: get('/spot/order/abc%2F1%3F2'), check: (r) => expect((r as Order).price?.toString()).toBe('0.046001'),
  },
  {
    name: 'createOrder',
    call: (api) => api.createOrder({ symbol: 'ETHBTC', side: 'buy', quantity: new Decimal('0.0020'), price: '0.046001', post_only: true }),
    answer: wire.order,
    request: {
      method: 'POST', path: '/spot/order', body: { symbol: 'ETHBTC', side: 'buy', quantity: '0.002', price: '0.046001', post_only: true },
      scope: 'trading', auth: true, idempotent: false,
    },
    check: (r) => expect((r as Order).status).toBe('new'),
  },
  {
    name: 'createOrderList',
    call: (api) => api.createOrderList({
      contingency_type: 'oneCancelOther',
      orders: [
        { symbol: 'ETHBTC', side: 'sell', quantity: '1', price: '0.07' },
        { symbol: 'ETHBTC', side: 'sell', type: 'stopMarket', quantity: '1', stop_price: '0.04' },
      ],
    }),
    answer: [wire.orderWith({ contingency_type: 'oneCancelOther', order_list_id: 'l1' })],
    request: {
      method: 'POST', path: '/spot/order/list',
      body: {
        contingency_type: 'oneCancelOther',
        orders: [
          { symbol: 'ETHBTC', side: 'sell', quantity: '1', price: '0.07' },
          { symbol: 'ETHBTC', side: 'sell', type: 'stopMarket', quantity: '1', stop_price: '0.04' },
        ],
      },
      scope: 'trading', auth: true, idempotent: false,
    },
    check: (r) => expect(firstOrder(r).contingency_type).toBe('oneCancelOther'),
  },
  {
    name: 'replaceOrder',
    call: (api) => api.replaceOrder('c1', { new_client_order_id: 'c2', quantity: '0.004', price: '0.047', strict_validate: true }),
    answer: wire.orderWith({ client_order_id: 'c2', original_client_order_id: 'c1' }),
    request: {
      method: 'PATCH', path: '/spot/order/c1', body: { new_client_order_id: 'c2', quantity: '0.004', price: '0.047', strict_validate: true },
      scope: 'trading', auth: true, idempotent: false,
    },
    check: (r) => expect((r as Order).original_client_order_id).toBe('c1'),
  },
  {
    name: 'cancelOrders', call: (api) => api.cancelOrders({ symbol: 'ETHBTC' }), answer: [wire.orderWith({ status: 'canceled' })],
    request: { method: 'DELETE', path: '/spot/order', query: { symbol: 'ETHBTC' }, scope: 'trading', auth: true, idempotent: false },
    check: (r) => expect(firstOrder(r).status).toBe('canceled'),
  },
  {
    name: 'cancelOrder', call: (api) => api.cancelOrder('c1'), answer: wire.orderWith({ status: 'canceled' }),
    request: { method: 'DELETE', path: '/spot/order/c1', scope: 'trading', auth: true, idempotent: true },
    check: (r) => expect((r as Order).status).toBe('canceled'),
  },
  {
    name: 'getFees', call: (api) => api.getFees(), answer: [wire.fee], request: get('/spot/fee'),
    check: (r) => expect((r as { make_rate: Decimal }[])[0]?.make_rate.toString()).toBe('-0.0001'),
  },
  {
    name: 'getFee', call: (api) => api.getFee('ETHBTC'), answer: wire.fee, request: get('/spot/fee/ETHBTC'),
    check: (r) => expect((r as { take_rate: Decimal }).take_rate).toBeInstanceOf(Decimal),
  },
  {
    name: 'getOrderHistory',
    call: (api) => api.getOrderHistory({ symbol: ['ETHBTC', 'BTCUSDT'], sort: 'ASC', by: 'timestamp', from: wire.T1, limit: 1000, offset: 5 }),
    answer: [wire.orderWith({ status: 'filled', price_average: '0.046' })],
    request: get('/spot/history/order', { symbol: ['ETHBTC', 'BTCUSDT'], sort: 'ASC', by: 'timestamp', from: wire.T1, limit: 1000, offset: 5 }),
    check: (r) => expect(firstOrder(r).price_average?.toString()).toBe('0.046'),
  },
  {
    name: 'getTradeHistory', call: (api) => api.getTradeHistory({ order_id: 816088377, symbol: 'ETHBTC', from: '9535000', till: 9535999 }),
    answer: [wire.tradeHistory],
    request: get('/spot/history/trade', { order_id: '816088377', symbol: ['ETHBTC'], from: '9535000', till: '9535999' }),
    check: (r) => expect((r as { fee: Decimal }[])[0]?.fee.toString()).toBe('0.000002775'),
  },
];

describe('SpotEndpoints', () => {
  it.each(ROWS)('$name', async ({ call, answer, request, check }) => {
    const executor = new RecordingExecutor().answer(answer);
    const result = await call(new SpotEndpoints(executor));
    expect(shapeOf(executor.last)).toEqual(request);
    check(result);
  });

  it('trade history by timestamp takes DateTimes', async () => {
    const executor = new RecordingExecutor().answer([]);
    await new SpotEndpoints(executor).getTradeHistory({ by: 'timestamp', from: wire.T1, till: 1_700_000_000_000 });
    expect(executor.last.query).toEqual({ by: 'timestamp', from: wire.T1, till: 1_700_000_000_000 });
  });
});

describe('SpotEndpoints order placement retries', () => {
  const duplicateId = (): ExchangeError => new ExchangeError(20008, 'Duplicate clientOrderId', undefined, 400);
  const notFound = (): ExchangeError => new ExchangeError(20002, 'Order not found', undefined, 400);

  it('marks a placement with a caller client_order_id and looks the order up among active orders', async () => {
    const executor = new RecordingExecutor().answer(wire.orderWith({ client_order_id: 'mine-1' }));
    const api = new SpotEndpoints(executor);
    await api.createOrder({ client_order_id: 'mine-1', symbol: 'ETHBTC', side: 'buy', quantity: '1', price: '0.05' });
    const placement = executor.last;
    expect(placement.clientOrderId).toBe('mine-1');
    expect(placement.idempotent).toBe(false);

    executor.answer(wire.orderWith({ client_order_id: 'mine-1' }));
    const found = (await placement.lookupAfterDuplicate?.()) as Order;
    expect(found.client_order_id).toBe('mine-1');
    expect(shapeOf(executor.last)).toEqual(get('/spot/order/mine-1'));
  });

  it('falls back to order history for an order that is no longer active', async () => {
    const executor = new RecordingExecutor().answer(wire.order);
    await new SpotEndpoints(executor).createOrder({ client_order_id: 'mine-2', symbol: 'ETHBTC', side: 'buy', type: 'market', quantity: '1' });
    const lookup = executor.last.lookupAfterDuplicate;
    executor.fail(notFound()).answer([wire.orderWith({ client_order_id: 'mine-2', status: 'filled' })]);
    const found = (await lookup?.()) as Order;
    expect(found.status).toBe('filled');
    expect(shapeOf(executor.last)).toEqual(get('/spot/history/order', { client_order_id: 'mine-2' }));
  });

  it('rethrows the not-found error when history does not have the order either', async () => {
    const executor = new RecordingExecutor().answer(wire.order);
    await new SpotEndpoints(executor).createOrder({ client_order_id: 'mine-3', symbol: 'ETHBTC', side: 'buy', type: 'market', quantity: '1' });
    const lookup = executor.last.lookupAfterDuplicate;
    const missing = notFound();
    executor.fail(missing).answer([]);
    await expect(lookup?.()).rejects.toBe(missing);
  });

  it('does not fall back to history on other errors', async () => {
    const executor = new RecordingExecutor().answer(wire.order);
    await new SpotEndpoints(executor).createOrder({ client_order_id: 'mine-4', symbol: 'ETHBTC', side: 'buy', type: 'market', quantity: '1' });
    const lookup = executor.last.lookupAfterDuplicate;
    const other = duplicateId();
    executor.fail(other);
    await expect(lookup?.()).rejects.toBe(other);
    expect(executor.requests).toHaveLength(2);
  });

  it('leaves a placement without client_order_id unmarked', async () => {
    const executor = new RecordingExecutor().answer(wire.order);
    await new SpotEndpoints(executor).createOrder({ symbol: 'ETHBTC', side: 'buy', type: 'market', quantity: '1' });
    expect(executor.last.clientOrderId).toBeUndefined();
    expect(executor.last.lookupAfterDuplicate).toBeUndefined();
  });

  it('marks an order list whose orders all carry client ids, and looks every order up', async () => {
    const executor = new RecordingExecutor().answer([wire.order]);
    await new SpotEndpoints(executor).createOrderList({
      order_list_id: 'a1', contingency_type: 'allOrNone',
      orders: [
        { client_order_id: 'a1', symbol: 'ETHBTC', side: 'buy', time_in_force: 'FOK', quantity: '1', price: '0.05' },
        { client_order_id: 'a2', symbol: 'BTCUSDT', side: 'sell', type: 'market', time_in_force: 'FOK', quantity: '0.05' },
      ],
    });
    const placement = executor.last;
    expect(placement.clientOrderId).toBe('a1');
    executor.answer(wire.orderWith({ client_order_id: 'a1' }), wire.orderWith({ client_order_id: 'a2' }));
    const found = (await placement.lookupAfterDuplicate?.()) as Order[];
    expect(found.map((o) => o.client_order_id)).toEqual(['a1', 'a2']);
    expect(executor.requests.slice(1).map((r) => r.path)).toEqual(['/spot/order/a1', '/spot/order/a2']);
  });

  it('leaves an order list unmarked when an order has no client id', async () => {
    const executor = new RecordingExecutor().answer([wire.order]);
    await new SpotEndpoints(executor).createOrderList({
      contingency_type: 'oneCancelOther',
      orders: [
        { client_order_id: 'o1', symbol: 'ETHBTC', side: 'sell', quantity: '1', price: '0.07' },
        { symbol: 'ETHBTC', side: 'sell', type: 'stopLimit', quantity: '1', price: '0.039', stop_price: '0.04' },
      ],
    });
    expect(executor.last.clientOrderId).toBeUndefined();
  });
});

describe('SpotEndpoints validation', () => {
  const api = new SpotEndpoints(new RecordingExecutor());
  const cases: readonly [string, string, () => Promise<unknown>][] = [
    ['replace without quantity', 'quantity', () => api.replaceOrder('c1', { quantity: undefined as unknown as string })],
    ['replace with zero price', 'price', () => api.replaceOrder('c1', { quantity: '1', price: '0' })],
    ['replace with a blank new client id', 'new_client_order_id', () => api.replaceOrder('c1', { quantity: '1', new_client_order_id: '' })],
    ['empty client id in the path', 'client_order_id', () => api.cancelOrder('')],
    ['overlong client id in the path', 'client_order_id', () => api.getActiveOrder('x'.repeat(65))],
    ['history limit', 'limit', () => api.getOrderHistory({ limit: 1001 })],
    ['history offset', 'offset', () => api.getTradeHistory({ offset: 100_001 })],
    ['trade history DateTime with default by id', 'from', () => api.getTradeHistory({ from: wire.T1 })],
    ['non-numeric order id', 'order_id', () => api.getTradeHistory({ order_id: 'abc' })],
    ['reduce_only on spot', 'reduce_only', () => api.createOrder({ symbol: 'ETHBTC', side: 'buy', type: 'market', quantity: '1', reduce_only: true } as never)],
    ['fee symbol', 'symbol', () => api.getFee('')],
  ];

  it.each(cases)('rejects %s, naming %s', async (_name, field, call) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
