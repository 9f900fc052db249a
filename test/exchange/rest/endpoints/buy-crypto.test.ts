import { describe, expect, it } from 'vitest';
import { BuyCryptoEndpoints } from '../../../../framework/exchange/rest/endpoints/buy-crypto.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import type { BuyCryptoOrder, BuyCryptoProvider, BuyCryptoRate } from '../../../../framework/model/resources/buy-crypto.js';
import { RecordingExecutor, shapeOf, type RequestShape } from './recording-executor.js';
import * as wire from './wire-fixtures.js';

interface Row {
  readonly name: string;
  readonly call: (api: BuyCryptoEndpoints) => Promise<unknown>;
  readonly answer: unknown;
  readonly request: RequestShape;
  readonly check: (result: unknown) => void;
}

const get = (path: string, query?: Record<string, unknown>): RequestShape => ({
  method: 'GET', path, ...(query === undefined ? {} : { query }), scope: 'other', auth: true, idempotent: true,
});

const ROWS: readonly Row[] = [
  {
    name: 'getProviders', call: (api) => api.getProviders({ provider_id: 2, source: 'USD', target: 'BTC' }), answer: [wire.provider],
    request: get('/buy-crypto/provider', { provider_id: '2', source: 'USD', target: 'BTC' }),
    check: (r) => expect((r as BuyCryptoProvider[])[0]?.methods[0]?.transaction_limits[0]?.source_max.toString()).toBe('20000'),
  },
  {
    name: 'getRate', call: (api) => api.getRate(2, { source: 'USD', target: 'BTC', source_amount: '100', payment_method_id: 7 }),
    answer: wire.buyRate,
    request: get('/buy-crypto/provider/2/rate', { source: 'USD', target: 'BTC', source_amount: '100', payment_method_id: '7' }),
    check: (r) => expect((r as BuyCryptoRate).spot_price).toBeInstanceOf(Decimal),
  },
  {
    name: 'getOrders', call: (api) => api.getOrders('2', { from: 1_650_000_000_000, limit: 10, target_code: 'BTC' }), answer: [wire.buyOrder],
    request: get('/buy-crypto/provider/2/order', { from: '1650000000000', limit: 10, target_code: 'BTC' }),
    check: (r) => expect((r as BuyCryptoOrder[])[0]?.status).toBe('initial'),
  },
  {
    name: 'createOrder', call: (api) => api.createOrder(2, { target: 'BTC', source: 'USD', source_amount: new Decimal('100.00'), payment_method_id: '7' }),
    answer: wire.buyOrder,
    request: {
      method: 'POST', path: '/buy-crypto/provider/2/order', body: { target: 'BTC', source: 'USD', source_amount: '100', payment_method_id: 7 },
      scope: 'other', auth: true, idempotent: false,
    },
    check: (r) => expect((r as BuyCryptoOrder).created_at).toBe(wire.T1_MS),
  },
];

describe('BuyCryptoEndpoints', () => {
  it.each(ROWS)('$name', async ({ call, answer, request, check }) => {
    const executor = new RecordingExecutor().answer(answer);
    const result = await call(new BuyCryptoEndpoints(executor));
    expect(shapeOf(executor.last)).toEqual(request);
    check(result);
  });
});

describe('BuyCryptoEndpoints validation', () => {
  const api = new BuyCryptoEndpoints(new RecordingExecutor());
  const cases: readonly [string, string, () => Promise<unknown>][] = [
    ['a non-numeric provider id', 'provider_id', () => api.getRate('abc', { source: 'USD', target: 'BTC' })],
    ['a rate without target', 'target', () => api.getRate(2, { source: 'USD', target: '' })],
    ['a zero source amount', 'source_amount', () => api.createOrder(2, { target: 'BTC', source: 'USD', source_amount: '0', payment_method_id: 7 })],
    ['a missing payment method', 'payment_method_id', () => api.createOrder(2, { target: 'BTC', source: 'USD', source_amount: '1' } as never)],
    ['an orders limit', 'limit', () => api.getOrders(2, { limit: 0 })],
  ];

  it.each(cases)('rejects %s, naming %s', async (_name, field, call) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
