import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../framework/model/decimal.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { newOrderListToWire } from '../../../framework/exchange/ws/order-list-params.js';
import { decimalToWire, newOrderToWire, replaceOrderToWire, type NewOrderParams } from '../../../framework/exchange/ws/order-params.js';

const base: NewOrderParams = { symbol: 'ETHBTC', side: 'sell', quantity: '0.063', price: '0.046016' };

describe('newOrderToWire', () => {
  it('keeps decimal text exact and leaves out what was not given', () => {
    expect(newOrderToWire(base, 'spot')).toEqual({ symbol: 'ETHBTC', side: 'sell', quantity: '0.063', price: '0.046016' });
    const wire = newOrderToWire({ ...base, quantity: new Decimal('1e-8'), take_rate: '0.001', post_only: true }, 'spot');
    expect(wire).toMatchObject({ quantity: '0.00000001', take_rate: '0.001', post_only: true });
  });

  it('formats GTD expire_time as ISO 8601 and requires it only for GTD', () => {
    expect(newOrderToWire({ ...base, time_in_force: 'GTD', expire_time: 1_700_000_000_000 }, 'spot').expire_time).toBe('2023-11-14T22:13:20.000Z');
    expect(() => newOrderToWire({ ...base, time_in_force: 'GTD' }, 'spot')).toThrow(/expire_time: is required for time_in_force GTD/);
    expect(() => newOrderToWire({ ...base, expire_time: 1 }, 'spot')).toThrow(/only applies to time_in_force GTD/);
  });

  it('names the field and rule of every bad parameter', () => {
    const cases: Array<[Partial<Record<keyof NewOrderParams, unknown>>, RegExp]> = [
      [{ symbol: '' }, /params.symbol: is required/],
      [{ side: 'long' }, /params.side: must be one of buy, sell/],
      [{ quantity: '0' }, /params.quantity: must be positive/],
      [{ quantity: 1 }, /params.quantity: must be a decimal string or Decimal/],
      [{ price: '1e5' }, /params.price: must be a plain decimal string/],
      [{ type: 'stopLimit' }, /params.stop_price: is required for type stopLimit/],
      [{ type: 'limit', stop_price: '1' }, /stop_price: only applies/],
      [{ time_in_force: 'GTX' }, /params.time_in_force/],
      [{ client_order_id: 'has space' }, /params.client_order_id/],
      [{ make_rate: '-0.001' }, /params.make_rate: must be non-negative/],
      [{ strict_validate: 'yes' }, /strict_validate: must be a boolean/],
    ];
    for (const [patch, message] of cases) {
      const attempt = (): unknown => newOrderToWire({ ...base, ...patch } as NewOrderParams, 'spot');
      expect(attempt).toThrow(ValidationError);
      expect(attempt).toThrow(message);
    }
  });

  it('accepts market orders without price and reduce_only on futures only', () => {
    expect(newOrderToWire({ symbol: 'X', side: 'buy', quantity: '1', type: 'market' }, 'spot')).not.toHaveProperty('price');
    expect(newOrderToWire({ ...base, reduce_only: true }, 'futures').reduce_only).toBe(true);
    expect(() => newOrderToWire({ ...base, reduce_only: true }, 'spot')).toThrow(/reduce_only/);
  });

  it('round-trips any positive decimal exactly as plain text', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }), (units, scale) => {
      const value = new Decimal(units.toString()).div(new Decimal(10).pow(scale));
      const text = decimalToWire(value, 'q', 'positive');
      return !/e/i.test(text) && new Decimal(text).eq(value);
    }));
  });
});

describe('replaceOrderToWire', () => {
  it('requires a different new id and exact decimals', () => {
    expect(replaceOrderToWire({ client_order_id: 'a', new_client_order_id: 'b', quantity: '2', price: '3.10' }))
      .toEqual({ client_order_id: 'a', new_client_order_id: 'b', quantity: '2', price: '3.10' });
    expect(() => replaceOrderToWire({ client_order_id: 'a', new_client_order_id: 'a', quantity: '2' })).toThrow(/must differ/);
  });
});

describe('newOrderListToWire', () => {
  const oco: NewOrderParams[] = [
    { symbol: 'ETHBTC', side: 'sell', quantity: '1', price: '0.05', client_order_id: 'l1' },
    { symbol: 'ETHBTC', side: 'sell', quantity: '1', type: 'stopMarket', stop_price: '0.04' },
  ];

  it('builds a valid oneCancelOther list', () => {
    const wire = newOrderListToWire({ order_list_id: 'l1', contingency_type: 'oneCancelOther', orders: oco }, 'spot');
    expect(wire).toMatchObject({ order_list_id: 'l1', contingency_type: 'oneCancelOther' });
    expect((wire.orders as unknown[]).length).toBe(2);
  });

  it('enforces counts, per-type rules and futures limits', () => {
    expect(() => newOrderListToWire({ contingency_type: 'oneCancelOther', orders: oco.slice(0, 1) }, 'spot')).toThrow(/2 to 3 orders/);
    expect(() => newOrderListToWire({ contingency_type: 'oneTriggerOneCancelOther', orders: oco }, 'spot')).toThrow(/3 to 4 orders/);
    expect(() => newOrderListToWire({ contingency_type: 'allOrNone', orders: oco }, 'futures')).toThrow(/not available for futures/);
    expect(() => newOrderListToWire({ contingency_type: 'allOrNone', orders: oco }, 'spot')).toThrow(/must be limit or market|must be FOK/);
    expect(() => newOrderListToWire({ order_list_id: 'zz', contingency_type: 'oneCancelOther', orders: oco }, 'spot')).toThrow(/first order/);
    const aon: NewOrderParams[] = [
      { symbol: 'ETHBTC', side: 'buy', quantity: '1', price: '1', time_in_force: 'FOK' },
      { symbol: 'ETHBTC', side: 'sell', quantity: '1', price: '1', time_in_force: 'FOK' },
    ];
    expect(() => newOrderListToWire({ contingency_type: 'allOrNone', orders: aon }, 'spot')).toThrow(/different symbol/);
  });
});
