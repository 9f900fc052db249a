import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  orderBody, orderListBody, replaceBody, type FuturesNewOrderParams, type OrderListParams,
} from '../../../../framework/exchange/rest/endpoints/order-params.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import type { ContingencyType } from '../../../../framework/model/resources/order.js';

const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return `${error.field}: ${error.rule}`;
    throw error;
  }
  return undefined;
};

const limit = (fields: Partial<FuturesNewOrderParams> = {}): FuturesNewOrderParams => ({
  symbol: 'ETHBTC', side: 'buy', quantity: '1', price: '0.05', ...fields,
});
const stopMarket = (fields: Partial<FuturesNewOrderParams> = {}): FuturesNewOrderParams => ({
  symbol: 'ETHBTC', side: 'sell', type: 'stopMarket', quantity: '1', stop_price: '0.04', ...fields,
});

describe('orderBody', () => {
  it('sends decimals as plain text and only the members given', () => {
    expect(orderBody({
      client_order_id: 'c1', symbol: 'ETHBTC', side: 'sell', type: 'takeProfitLimit', time_in_force: 'GTD',
      quantity: new Decimal('1e-3'), price: '0.0500', stop_price: new Decimal('0.051'), expire_time: '2021-06-20T20:22:39.658Z',
      strict_validate: true, take_rate: '0.001', make_rate: '0',
    }, { reduceOnly: false })).toEqual({
      client_order_id: 'c1', symbol: 'ETHBTC', side: 'sell', type: 'takeProfitLimit', time_in_force: 'GTD', quantity: '0.001',
      price: '0.05', stop_price: '0.051', expire_time: '2021-06-20T20:22:39.658Z', strict_validate: true, take_rate: '0.001',
      make_rate: '0', post_only: undefined,
    });
  });

  it.each([
    ['price for limit (the default type)', { price: undefined }, 'price: is required for type limit'],
    ['price for stopLimit', { type: 'stopLimit', price: undefined, stop_price: '1' }, 'price: is required for type stopLimit'],
    ['price for takeProfitLimit', { type: 'takeProfitLimit', price: undefined, stop_price: '1' }, 'price: is required for type takeProfitLimit'],
    ['stop_price for stopLimit', { type: 'stopLimit' }, 'stop_price: is required for type stopLimit'],
    ['stop_price for stopMarket', { type: 'stopMarket', price: undefined }, 'stop_price: is required for type stopMarket'],
    ['stop_price for takeProfitMarket', { type: 'takeProfitMarket' }, 'stop_price: is required for type takeProfitMarket'],
    ['expire_time for GTD', { time_in_force: 'GTD' }, 'expire_time: is required for time_in_force GTD'],
    ['symbol', { symbol: undefined }, 'symbol: is required'],
    ['side', { side: 'long' }, 'side: must be one of buy, sell'],
    ['type', { type: 'iceberg' }, 'type: must be one of limit, market, stopLimit, stopMarket, takeProfitLimit, takeProfitMarket'],
    ['time_in_force', { time_in_force: 'GTX' }, 'time_in_force: must be one of GTC, IOC, FOK, Day, GTD'],
    ['positive quantity', { quantity: '0' }, 'quantity: must be greater than zero'],
    ['quantity not a float', { quantity: 0.1 }, 'quantity: must be a Decimal or a decimal string, never a JS number'],
    ['plain decimal quantity', { quantity: '1e3' }, 'quantity: must be a plain decimal string'],
    ['positive price', { price: '-0.05' }, 'price: must be greater than zero'],
    ['non-negative take_rate', { take_rate: '-0.001' }, 'take_rate: must not be negative'],
    ['non-empty client_order_id', { client_order_id: '' }, 'client_order_id: must not be empty'],
    ['client_order_id length', { client_order_id: 'x'.repeat(65) }, 'client_order_id: must be at most 64 characters'],
    ['client_order_id whitespace', { client_order_id: 'a b' }, 'client_order_id: must not contain whitespace'],
    ['boolean post_only', { post_only: 'yes' }, 'post_only: must be a boolean'],
    ['valid expire_time', { time_in_force: 'GTD', expire_time: 'tomorrow' }, 'expire_time: must be ISO 8601 (YYYY-MM-DDTHH:MM:SS.mmmZ) or UNIX milliseconds'],
  ] as const)('requires %s', (_name, fields, expected) => {
    expect(fieldOf(() => orderBody(limit(fields as Partial<FuturesNewOrderParams>), { reduceOnly: true }))).toBe(expected);
  });

  it('accepts reduce_only only where the section allows it', () => {
    expect(orderBody(limit({ reduce_only: true }), { reduceOnly: true })['reduce_only']).toBe(true);
    expect(fieldOf(() => orderBody(limit({ reduce_only: true }), { reduceOnly: false })))
      .toBe('reduce_only: is for margin and futures orders only');
  });
});

describe('replaceBody', () => {
  it('requires a positive quantity', () => {
    expect(fieldOf(() => replaceBody({ quantity: '-1' }))).toBe('quantity: must be greater than zero');
    expect(replaceBody({ quantity: '2' })).toMatchObject({ quantity: '2' });
  });
});

describe('orderListBody', () => {
  const list = (contingency_type: ContingencyType, orders: FuturesNewOrderParams[], extra: Partial<OrderListParams> = {}) =>
    ({ contingency_type, orders, ...extra });
  const aon = (symbol: string, fields: Partial<FuturesNewOrderParams> = {}): FuturesNewOrderParams =>
    limit({ symbol, time_in_force: 'FOK', ...fields });

  it.each([
    ['allOrNone', 2, 3],
    ['oneCancelOther', 2, 3],
    ['oneTriggerOneCancelOther', 3, 4],
  ] as const)('%s takes %i to %i orders', (contingency, min, max) => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 8 }), (count) => {
      const orders = Array.from({ length: count }, (_, i) => (contingency === 'allOrNone' ? aon(`S${i}`) : stopMarket()));
      const error = fieldOf(() => orderListBody(list(contingency, orders), false));
      if (count >= min && count <= max) expect(error).toBeUndefined();
      else expect(error).toBe(`orders: must hold ${min} or ${max} orders for ${contingency}`);
    }));
  });

  it.each([
    ['allOrNone with a repeated symbol', list('allOrNone', [aon('ETHBTC'), aon('ETHBTC')]), 'orders[1].symbol: must be unique within an allOrNone list'],
    ['allOrNone with a stop order', list('allOrNone', [aon('ETHBTC'), stopMarket({ symbol: 'BTCUSDT', time_in_force: 'FOK' })]), 'orders[1].type: must be limit or market in an allOrNone list'],
    ['allOrNone without FOK', list('allOrNone', [aon('ETHBTC'), aon('BTCUSDT', { time_in_force: undefined })]), 'orders[1].time_in_force: must be FOK in an allOrNone list'],
    ['oneCancelOther with a market order', list('oneCancelOther', [limit(), { symbol: 'ETHBTC', side: 'buy', type: 'market', quantity: '1' }]), 'orders[1].type: must not be market in a oneCancelOther list'],
    ['oneCancelOther with an IOC limit', list('oneCancelOther', [limit({ time_in_force: 'IOC' }), stopMarket()]), 'orders[0].time_in_force: must not be IOC or FOK for a limit order in a oneCancelOther list'],
    ['oneCancelOther with a FOK limit', list('oneCancelOther', [stopMarket(), limit({ time_in_force: 'FOK' })]), 'orders[1].time_in_force: must not be IOC or FOK for a limit order in a oneCancelOther list'],
    ['OTOCO with two symbols', list('oneTriggerOneCancelOther', [limit(), stopMarket(), stopMarket({ symbol: 'BTCUSDT' })]), 'orders[2].symbol: must be the same for all orders of a oneTriggerOneCancelOther list'],
    ['OTOCO with a market secondary', list('oneTriggerOneCancelOther', [limit(), stopMarket(), { symbol: 'ETHBTC', side: 'buy', type: 'market', quantity: '1' }]), 'orders[2].type: must not be market in the secondary orders of a oneTriggerOneCancelOther list'],
    ['OTOCO with an IOC limit secondary', list('oneTriggerOneCancelOther', [limit(), limit({ time_in_force: 'IOC' }), stopMarket()]), 'orders[1].time_in_force: must not be IOC or FOK for a limit order in the secondary orders of a oneTriggerOneCancelOther list'],
    ['repeated client ids', list('oneCancelOther', [limit({ client_order_id: 'x' }), stopMarket({ client_order_id: 'x' })]), 'orders[1].client_order_id: must differ from the other orders of the list'],
    ['a list id that is not the first client id', list('oneCancelOther', [limit({ client_order_id: 'x' }), stopMarket()], { order_list_id: 'y' }), 'order_list_id: must equal the client_order_id of the first order'],
    ['an order breaking its own rules', list('oneCancelOther', [limit(), stopMarket({ stop_price: undefined })]), 'orders[1].stop_price: is required for type stopMarket'],
    ['an unknown contingency type', list('fillOrKill' as ContingencyType, [limit(), stopMarket()]), 'contingency_type: must be one of allOrNone, oneCancelOther, oneTriggerOneCancelOther'],
  ])('rejects %s', (_name, params, expected) => {
    expect(fieldOf(() => orderListBody(params, false))).toBe(expected);
  });

  it('allows any primary of an OTOCO list, including a market IOC order', () => {
    const body = orderListBody(list('oneTriggerOneCancelOther', [
      { symbol: 'ETHBTC', side: 'buy', type: 'market', time_in_force: 'IOC', quantity: '1' }, limit({ side: 'sell', price: '0.06' }), stopMarket(),
    ]), true);
    expect(body['contingency_type']).toBe('oneTriggerOneCancelOther');
  });

  it('refuses allOrNone for futures and allows reduce_only there', () => {
    expect(fieldOf(() => orderListBody(list('allOrNone', [aon('A'), aon('B')]), true)))
      .toBe('contingency_type: must be one of oneCancelOther, oneTriggerOneCancelOther');
    const body = orderListBody(list('oneCancelOther', [limit({ reduce_only: true }), stopMarket()]), true);
    expect((body['orders'] as Record<string, unknown>[])[0]?.['reduce_only']).toBe(true);
  });

  it('accepts a list id equal to the first client id', () => {
    const body = orderListBody(list('oneCancelOther', [limit({ client_order_id: 'x' }), stopMarket({ client_order_id: 'y' })], { order_list_id: 'x' }), false);
    expect(body['order_list_id']).toBe('x');
  });
});
