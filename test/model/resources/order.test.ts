import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../framework/model/errors.js';
import {
  CONTINGENCY_TYPES, ORDER_STATUSES, ORDER_TYPES, SIDES, TIME_IN_FORCES, orderToWire, orderTradeToWire, parseOrder,
  parseOrderList, parseOrderTrade, type Order, type OrderTrade,
} from '../../../framework/model/resources/order.js';
import { compact, decimal, id, positiveDecimal, timeMs } from './arbitraries.js';

const sample = {
  id: 828680665,
  client_order_id: 'f4307c6e507e49019907c917b6d7a084',
  symbol: 'ETHBTC',
  side: 'sell',
  status: 'partiallyFilled',
  type: 'limit',
  time_in_force: 'GTC',
  quantity: '13.942',
  quantity_cumulative: '5.240',
  price: '0.500000',
  price_average: '0.500000',
  post_only: false,
  created_at: '2021-07-06T10:02:24.123Z',
  updated_at: '2021-07-06T10:03:21.567Z',
  trades: [
    { id: '1175851866285', quantity: '5.240', price: '0.500000', fee: '0.001310', taker: true, timestamp: '2021-07-06T10:03:21.567Z' },
  ],
  extra_field_from_a_newer_api: 1,
};

describe('parseOrder', () => {
  it('reads a real-shaped order with string numbers and a string trade id', () => {
    const o = parseOrder(sample);
    expect(o.id).toBe('828680665');
    expect(o.status).toBe('partiallyFilled');
    expect(o.quantity.toFixed()).toBe('13.942');
    expect(o.quantity_cumulative.toFixed()).toBe('5.24');
    expect(o.price?.toFixed()).toBe('0.5');
    expect(o.stop_price).toBeUndefined();
    expect(o.created_at).toBe(Date.UTC(2021, 6, 6, 10, 2, 24, 123));
    expect(o.trades?.[0]?.id).toBe('1175851866285');
    expect(o.trades?.[0]?.fee.toFixed()).toBe('0.00131');
    expect(o.trades?.[0]?.taker).toBe(true);
  });

  it('names the failing field', () => {
    expect(() => parseOrder({ ...sample, status: 'done' })).toThrow(/order\.status: must be one of/);
    expect(() => parseOrder({ ...sample, quantity: 'lots' })).toThrow(/order\.quantity: must be a decimal number/);
    const bad = { ...sample, trades: [{ ...sample.trades[0], price: null }] };
    const err = captureParseError(() => parseOrderList([sample, bad]));
    expect(err.path).toBe('orders[1].trades[0].price');
    expect(() => parseOrderTrade({ id: 1 })).toThrow(ParseError);
  });

  it('round-trips through its wire form', () => {
    fc.assert(
      fc.property(orderArb, (order) => {
        const wire = JSON.parse(JSON.stringify(orderToWire(order))) as unknown;
        expect(parseOrder(wire)).toEqual(order);
      }),
    );
  });

  it('writes decimals as plain text and times as ISO 8601', () => {
    const wire = orderToWire(parseOrder(sample));
    expect(wire['quantity']).toBe('13.942');
    expect(wire['created_at']).toBe('2021-07-06T10:02:24.123Z');
    expect(wire['id']).toBe(828680665);
    expect(wire).not.toHaveProperty('stop_price');
  });
});

const tradeArb: fc.Arbitrary<OrderTrade> = fc
  .record({
    id: id(),
    position_id: fc.option(id(), { nil: undefined }),
    quantity: positiveDecimal(),
    price: positiveDecimal(),
    fee: decimal({ negative: true }),
    taker: fc.option(fc.boolean(), { nil: undefined }),
    timestamp: timeMs(),
  })
  .map(compact);

const orderArb: fc.Arbitrary<Order> = fc
  .record({
    id: id(),
    client_order_id: fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/),
    order_list_id: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
    contingency_type: fc.option(fc.constantFrom(...CONTINGENCY_TYPES), { nil: undefined }),
    symbol: fc.constantFrom('BTCUSDT', 'ETHBTC', 'BTCUSDT_PERP'),
    side: fc.constantFrom(...SIDES),
    status: fc.constantFrom(...ORDER_STATUSES),
    type: fc.constantFrom(...ORDER_TYPES),
    time_in_force: fc.constantFrom(...TIME_IN_FORCES),
    quantity: positiveDecimal(),
    quantity_cumulative: decimal(),
    price: fc.option(positiveDecimal(), { nil: undefined }),
    price_average: fc.option(positiveDecimal(), { nil: undefined }),
    stop_price: fc.option(positiveDecimal(), { nil: undefined }),
    expire_time: fc.option(timeMs(), { nil: undefined }),
    post_only: fc.boolean(),
    reduce_only: fc.option(fc.boolean(), { nil: undefined }),
    original_client_order_id: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
    position_id: fc.option(id(), { nil: undefined }),
    inactive: fc.option(fc.boolean(), { nil: undefined }),
    created_at: timeMs(),
    updated_at: timeMs(),
    trades: fc.option(fc.array(tradeArb, { maxLength: 3 }), { nil: undefined }),
  })
  .map(compact);

describe('orderTradeToWire', () => {
  it('round-trips', () => {
    fc.assert(
      fc.property(tradeArb, (t) => {
        expect(parseOrderTrade(JSON.parse(JSON.stringify(orderTradeToWire(t))))).toEqual(t);
      }),
    );
  });
});

function captureParseError(fn: () => unknown): ParseError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error('expected a ParseError');
}
