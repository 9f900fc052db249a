import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../framework/model/decimal.js';
import { ValidationError } from '../../../framework/model/errors.js';
import {
  cancelOrderParams, newOrderListParams, newOrderParams, replaceOrderParams, type NewOrderParams,
} from '../../../framework/exchange/ws/order-params.js';

const base: NewOrderParams = { symbol: 'ETHBTC', side: 'sell', quantity: '0.063', price: '0.046016' };

describe('stream order params', () => {
  it('builds new-order params with the REST rules', () => {
    expect(JSON.parse(JSON.stringify(newOrderParams(base, 'spot')))).toEqual({ symbol: 'ETHBTC', side: 'sell', quantity: '0.063', price: '0.046016' });
    expect(() => newOrderParams({ ...base, price: undefined }, 'spot')).toThrow(/price: is required for type limit/);
    expect(() => newOrderParams({ ...base, quantity: 0.063 as unknown as string }, 'spot')).toThrow(ValidationError);
    expect(() => newOrderParams({ ...base, type: 'stopLimit' }, 'spot')).toThrow(/stop_price/);
    expect(() => newOrderParams({ ...base, time_in_force: 'GTD' }, 'spot')).toThrow(/expire_time/);
  });

  it('accepts reduce_only on margin and futures only', () => {
    expect(newOrderParams({ ...base, reduce_only: true }, 'futures').reduce_only).toBe(true);
    expect(newOrderParams({ ...base, reduce_only: false }, 'margin').reduce_only).toBe(false);
    expect(() => newOrderParams({ ...base, reduce_only: true }, 'spot')).toThrow(/reduce_only/);
  });

  it('refuses allOrNone lists on futures', () => {
    const aon: NewOrderParams[] = [
      { symbol: 'ETHBTC', side: 'buy', quantity: '1', price: '1', time_in_force: 'FOK' },
      { symbol: 'BTCUSDT', side: 'sell', quantity: '1', price: '1', time_in_force: 'FOK' },
    ];
    expect(newOrderListParams({ contingency_type: 'allOrNone', orders: aon }, 'spot')).toMatchObject({ contingency_type: 'allOrNone' });
    expect(() => newOrderListParams({ contingency_type: 'allOrNone', orders: aon }, 'futures')).toThrow(/contingency_type/);
  });

  it('puts the order id into a replace and requires the new id', () => {
    expect(JSON.parse(JSON.stringify(replaceOrderParams({ client_order_id: 'a', new_client_order_id: 'b', quantity: '2', price: '3.10' }))))
      .toEqual({ client_order_id: 'a', new_client_order_id: 'b', quantity: '2', price: '3.1' });
    expect(() => replaceOrderParams({ client_order_id: 'a', quantity: '2' } as never)).toThrow(/new_client_order_id/);
    expect(() => replaceOrderParams({ client_order_id: 'a', new_client_order_id: 'b c', quantity: '2' })).toThrow(/new_client_order_id/);
    expect(() => replaceOrderParams({ client_order_id: 'a b', new_client_order_id: 'b', quantity: '2' })).toThrow(/client_order_id/);
    expect(Object.keys(replaceOrderParams({ client_order_id: 'a', new_client_order_id: 'b', quantity: '2', price: '3' })))
      .toEqual(['client_order_id', 'new_client_order_id', 'quantity', 'price', 'strict_validate']);
    expect(() => cancelOrderParams('')).toThrow(/client_order_id/);
  });

  it('sends every valid quantity as exact plain text, whatever its size', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }), (units, scale) => {
      const quantity = new Decimal(units.toString()).div(new Decimal(10).pow(scale));
      const text = newOrderParams({ ...base, quantity }, 'spot').quantity as string;
      return typeof text === 'string' && !/e/i.test(text) && new Decimal(text).eq(quantity);
    }));
  });
});
