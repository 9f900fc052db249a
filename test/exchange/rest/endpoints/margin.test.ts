import { describe, expect, it } from 'vitest';
import { MarginEndpoints } from '../../../../framework/exchange/rest/endpoints/margin.js';
import { ExchangeError } from '../../../../framework/exchange/errors.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import type { MarginAccount, Position } from '../../../../framework/model/resources/margin-account.js';
import type { Order } from '../../../../framework/model/resources/order.js';
import type { ClearingRecord } from '../../../../framework/model/resources/clearing.js';
import type { PositionHistoryRecord } from '../../../../framework/model/resources/position-history.js';
import { RecordingExecutor, shapeOf, type RequestShape } from './recording-executor.js';
import * as wire from './wire-fixtures.js';

interface Row {
  readonly name: string;
  readonly call: (api: MarginEndpoints) => Promise<unknown>;
  readonly answer: unknown;
  readonly request: RequestShape;
  readonly check: (result: unknown) => void;
}

const get = (path: string, query?: Record<string, unknown>): RequestShape => ({
  method: 'GET', path, ...(query === undefined ? {} : { query }), scope: 'other', auth: true, idempotent: true,
});

const ROWS: readonly Row[] = [
  {
    name: 'getAccounts', call: (api) => api.getAccounts(), answer: [wire.marginAccount], request: get('/margin/account'),
    check: (r) => expect((r as MarginAccount[])[0]?.leverage.toString()).toBe('10'),
  },
  {
    name: 'getAccount', call: (api) => api.getAccount('BTCUSDT'), answer: wire.marginAccount, request: get('/margin/account/isolated/BTCUSDT'),
    check: (r) => expect((r as MarginAccount).currencies[0]?.margin_balance).toBeInstanceOf(Decimal),
  },
  {
    name: 'updateAccount', call: (api) => api.updateAccount('BTCUSDT', { margin_balance: new Decimal('43.180'), strict_validate: false }),
    answer: wire.marginAccount,
    request: {
      method: 'PUT', path: '/margin/account/isolated/BTCUSDT', body: { margin_balance: '43.18', strict_validate: false },
      scope: 'other', auth: true, idempotent: true,
    },
    check: (r) => expect((r as MarginAccount).positions?.[0]?.quantity.toString()).toBe('-0.0102'),
  },
  {
    name: 'updateAccount with 0 closes', call: (api) => api.updateAccount('BTCUSDT', { margin_balance: '0' }),
    answer: { ...wire.marginAccount, positions: null },
    request: { method: 'PUT', path: '/margin/account/isolated/BTCUSDT', body: { margin_balance: '0' }, scope: 'other', auth: true, idempotent: true },
    check: (r) => expect((r as MarginAccount).positions).toBeNull(),
  },
  {
    name: 'closeAllPositions', call: (api) => api.closeAllPositions(), answer: [wire.position],
    request: { method: 'DELETE', path: '/margin/position', scope: 'other', auth: true, idempotent: false },
    check: (r) => expect((r as Position[])[0]?.id).toBe('485308'),
  },
  {
    name: 'closePosition', call: (api) => api.closePosition('BTCUSDT', { price: '42000.5', strict_validate: true }), answer: wire.position,
    request: {
      method: 'DELETE', path: '/margin/position/isolated/BTCUSDT', query: { price: '42000.5', strict_validate: true },
      scope: 'other', auth: true, idempotent: false,
    },
    check: (r) => expect((r as Position[])[0]?.price_entry.toString()).toBe('42155.8'),
  },
  {
    name: 'getActiveOrders', call: (api) => api.getActiveOrders(), answer: [wire.order], request: get('/margin/order'),
    check: (r) => expect((r as Order[])[0]?.quantity.toString()).toBe('0.002'),
  },
  {
    name: 'getActiveOrder', call: (api) => api.getActiveOrder('m1'), answer: wire.order, request: get('/margin/order/m1'),
    check: (r) => expect((r as Order).created_at).toBe(wire.T1_MS),
  },
  {
    name: 'createOrder',
    call: (api) => api.createOrder({
      client_order_id: 'm1', symbol: 'BTCUSDT', side: 'sell', type: 'limit', time_in_force: 'Day', quantity: '0.01',
      extra: { price: new Decimal('45000.10'), reduce_only: true },
    }),
    answer: wire.orderWith({ client_order_id: 'm1', reduce_only: true }),
    request: {
      method: 'POST', path: '/margin/order',
      body: {
        client_order_id: 'm1', symbol: 'BTCUSDT', side: 'sell', type: 'limit', time_in_force: 'Day', quantity: '0.01',
        price: '45000.1', reduce_only: true,
      },
      scope: 'trading', auth: true, idempotent: false,
    },
    check: (r) => expect((r as Order).reduce_only).toBe(true),
  },
  {
    name: 'getPositionHistory', call: (api) => api.getPositionHistory({ sort: 'ASC', from: 1n, till: '1647945922123456789', limit: 10, offset: 0 }),
    answer: [wire.positionHistory],
    request: get('/margin/history/positions', { sort: 'ASC', from: '1', till: '1647945922123456789', limit: 10, offset: 0 }),
    check: (r) => expect((r as PositionHistoryRecord[])[0]?.update_timestamp).toBe(1647945922123456789n),
  },
  {
    name: 'getClearingHistory', call: (api) => api.getClearingHistory({ currency: 'USDT', sort: 'DESC', limit: 1000 }),
    answer: [{ ...wire.clearing, type: 'interest' }],
    request: get('/margin/history/clearing', { currency: 'USDT', sort: 'DESC', limit: 1000 }),
    check: (r) => expect((r as ClearingRecord[])[0]?.amount.toString()).toBe('-0.0043'),
  },
];

describe('MarginEndpoints', () => {
  it.each(ROWS)('$name', async ({ call, answer, request, check }) => {
    const executor = new RecordingExecutor().answer(answer);
    const result = await call(new MarginEndpoints(executor));
    expect(shapeOf(executor.last)).toEqual(request);
    check(result);
  });

  it('looks a duplicate margin placement up among active orders only (no margin history in the spec)', async () => {
    const executor = new RecordingExecutor().answer(wire.order);
    await new MarginEndpoints(executor).createOrder({ client_order_id: 'm2', symbol: 'BTCUSDT', side: 'buy', type: 'market', quantity: '1' });
    const placement = executor.last;
    expect(placement.clientOrderId).toBe('m2');
    const missing = new ExchangeError(20002, 'Order not found', undefined, 400);
    executor.fail(missing);
    await expect(placement.lookupAfterDuplicate?.()).rejects.toBe(missing);
    expect(executor.requests.map((r) => r.path)).toEqual(['/margin/order', '/margin/order/m2']);
  });
});

describe('MarginEndpoints validation', () => {
  const api = new MarginEndpoints(new RecordingExecutor());
  const cases: readonly [string, string, () => Promise<unknown>][] = [
    ['negative margin balance', 'margin_balance', () => api.updateAccount('BTCUSDT', { margin_balance: '-1' })],
    ['float margin balance', 'margin_balance', () => api.updateAccount('BTCUSDT', { margin_balance: 10 as unknown as string })],
    ['zero close price', 'price', () => api.closePosition('BTCUSDT', { price: '0' })],
    ['order side', 'side', () => api.createOrder({ symbol: 'BTCUSDT', side: 'short' as 'buy', quantity: '1' })],
    ['order quantity', 'quantity', () => api.createOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '0' })],
    ['extra repeating a documented parameter', 'extra.quantity', () => api.createOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', extra: { quantity: '2' } })],
    ['zero nanosecond bound', 'from', () => api.getPositionHistory({ from: 0n })],
    ['non-digit nanosecond bound', 'till', () => api.getClearingHistory({ till: '2021-06-20' })],
    ['clearing limit', 'limit', () => api.getClearingHistory({ limit: 5000 })],
    ['empty account symbol', 'symbol', () => api.getAccount('')],
  ];

  it.each(cases)('rejects %s, naming %s', async (_name, field, call) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
