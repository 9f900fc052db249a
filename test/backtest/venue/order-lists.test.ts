import { describe, expect, it } from 'vitest';
import { VenueRejection, type NewOrderRequest, type OrderListRequest } from '../../../backtest/venue/venue-types.js';
import { makeVenue, T0, tradesFrame, type VenueFixture } from './support/venue-fixture.js';

function setup(): VenueFixture {
  const f = makeVenue();
  f.market('ETHUSDT').setBook([[250000, 20000]], [[249900, 20000]]);
  f.market('BTCUSDT').setBook([[600000, 100000]], [[599900, 100000]]);
  f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2500', q: '0.0001', s: 'buy' }]), T0);
  f.clearEvents();
  return f;
}

function refusal(f: VenueFixture, request: OrderListRequest): VenueRejection {
  try {
    f.venue.placeOrderList('a', request);
  } catch (e) {
    if (e instanceof VenueRejection) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

const limit = (o: Partial<NewOrderRequest> = {}): NewOrderRequest => ({ symbol: 'ETHUSDT', side: 'sell', quantity: '1', price: '2600', ...o });
const stop = (o: Partial<NewOrderRequest> = {}): NewOrderRequest => ({ symbol: 'ETHUSDT', side: 'sell', type: 'stopMarket', quantity: '1', stop_price: '2400', ...o });

describe('order list rules (10001)', () => {
  it.each<[string, OrderListRequest, string]>([
    ['one order', { contingency_type: 'oneCancelOther', orders: [limit()] }, '2 to 3'],
    ['four orders OCO', { contingency_type: 'oneCancelOther', orders: [limit(), stop(), stop(), stop()] }, '2 to 3'],
    ['two orders OTOCO', { contingency_type: 'oneTriggerOneCancelOther', orders: [limit(), stop()] }, '3 to 4'],
    ['five orders OTOCO', { contingency_type: 'oneTriggerOneCancelOther', orders: [limit(), stop(), stop(), stop(), stop()] }, '3 to 4'],
    ['four orders allOrNone', { contingency_type: 'allOrNone', orders: [limit(), limit(), limit(), limit()] }, '2 to 3'],
    ['allOrNone repeated symbol', { contingency_type: 'allOrNone', orders: [limit({ time_in_force: 'FOK' }), limit({ time_in_force: 'FOK' })] }, 'unique'],
    ['allOrNone without FOK', { contingency_type: 'allOrNone', orders: [limit({ time_in_force: 'FOK' }), limit({ symbol: 'BTCUSDT', price: '70000' })] }, 'FOK'],
    ['allOrNone stop type', { contingency_type: 'allOrNone', orders: [limit({ time_in_force: 'FOK' }), stop({ symbol: 'BTCUSDT', time_in_force: 'FOK' })] }, 'limit or market'],
    ['OCO market', { contingency_type: 'oneCancelOther', orders: [limit(), limit({ type: 'market', price: undefined })] }, 'type'],
    ['OCO limit IOC', { contingency_type: 'oneCancelOther', orders: [limit({ time_in_force: 'IOC' }), stop()] }, 'IOC'],
    ['OCO limit FOK', { contingency_type: 'oneCancelOther', orders: [stop(), limit({ time_in_force: 'FOK' })] }, 'FOK'],
    ['OTOCO two symbols', { contingency_type: 'oneTriggerOneCancelOther', orders: [limit({ side: 'buy', price: '2400' }), limit(), stop({ symbol: 'BTCUSDT' })] }, 'symbol'],
    ['OTOCO secondary market', { contingency_type: 'oneTriggerOneCancelOther', orders: [limit({ side: 'buy' }), limit(), limit({ type: 'market', price: undefined })] }, 'type'],
    ['duplicate ids in list', { contingency_type: 'oneCancelOther', orders: [limit({ client_order_id: 'x' }), stop({ client_order_id: 'x' })] }, 'differ'],
    ['list id not the first id', { order_list_id: 'L', contingency_type: 'oneCancelOther', orders: [limit({ client_order_id: 'x' }), stop()] }, 'order_list_id'],
    ['unknown contingency', { contingency_type: 'oneOrOther' as never, orders: [limit(), stop()] }, 'contingency_type'],
  ])('%s', (_name, request, text) => {
    const f = setup();
    const r = refusal(f, request);
    expect(r.code).toBe(10001);
    expect(r.description).toContain(text);
    expect(f.events).toEqual([]);
    expect(f.venue.openOrders('a')).toEqual([]);
  });

  it('refuses the whole list when the funds do not fit (20001), with nothing placed', () => {
    const f = setup();
    const r = refusal(f, { contingency_type: 'allOrNone', orders: [limit({ side: 'buy', quantity: '3', price: '2500', time_in_force: 'FOK' }), limit({ symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '60000', time_in_force: 'FOK' })] });
    expect(r.code).toBe(20001);
    expect(f.events).toEqual([]);
  });
});

describe('oneCancelOther', () => {
  it('carries the list id (the first client_order_id) and contingency type; holds shared funds once', () => {
    const f = setup();
    const orders = f.venue.placeOrderList('a', { contingency_type: 'oneCancelOther', orders: [limit({ client_order_id: 'tp' }), stop({ client_order_id: 'sl' })] });
    expect(orders.map((o) => [o.client_order_id, o.order_list_id, o.contingency_type, o.status])).toEqual([
      ['tp', 'tp', 'oneCancelOther', 'new'],
      ['sl', 'tp', 'oneCancelOther', 'suspended'],
    ]);
    const eth = f.venue.spotBalances('a').find((b) => b.currency === 'ETH');
    expect(eth?.reserved.toFixed()).toBe('1');
  });

  it('a partial execution of one leg cancels the other; the other never fills', () => {
    const f = setup();
    f.venue.placeOrderList('a', { order_list_id: 'L', contingency_type: 'oneCancelOther', orders: [limit({ price: '2600' }), limit({ client_order_id: 'b', price: '2601' })] });
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2650', q: '0.3', s: 'buy' }, { p: '2650', q: '5', s: 'buy' }]), T0 + 1);
    expect(f.reports()).toEqual(['L:new:new', 'b:new:new', 'L:trade:partiallyFilled', 'b:canceled:canceled', 'L:trade:filled']);
    expect(f.venue.tradeHistory('a').every((t) => t.client_order_id === 'L')).toBe(true);
  });

  it('a generated list id equals the first generated client_order_id', () => {
    const f = setup();
    const [first, second] = f.venue.placeOrderList('a', { contingency_type: 'oneCancelOther', orders: [limit(), stop()] });
    expect(first?.order_list_id).toBe(first?.client_order_id);
    expect(second?.order_list_id).toBe(first?.client_order_id);
    expect(first?.client_order_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('canceling one leg cancels the group', () => {
    const f = setup();
    f.venue.placeOrderList('a', { order_list_id: 'L', contingency_type: 'oneCancelOther', orders: [limit(), stop({ client_order_id: 's' })] });
    f.venue.cancelOrder('a', 's');
    expect(f.venue.openOrders('a')).toEqual([]);
  });
});

describe('oneTriggerOneCancelOther', () => {
  const otoco = (): OrderListRequest => ({
    order_list_id: 'P',
    contingency_type: 'oneTriggerOneCancelOther',
    orders: [limit({ side: 'buy', price: '2450' }), limit({ client_order_id: 'tp', price: '2600' }), stop({ client_order_id: 'sl', stop_price: '2400' })],
  });

  it('secondaries wait inactive, holding nothing, until the primary fills completely', () => {
    const f = makeVenue({ a: { spot: { USDT: '3000' } } });
    f.market('ETHUSDT').setBook([[250000, 20000]], [[244000, 20000]]);
    const orders = f.venue.placeOrderList('a', otoco());
    expect(orders.map((o) => [o.client_order_id, o.status, o.inactive])).toEqual([
      ['P', 'new', undefined],
      ['tp', 'new', true],
      ['sl', 'suspended', true],
    ]);
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2450', q: '0.5', s: 'sell' }]), T0 + 1);
    expect(f.venue.getOpenOrder('a', 'tp').inactive).toBe(true);
    f.clearEvents();
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2449', q: '1', s: 'sell' }]), T0 + 2);
    expect(f.reports()).toEqual(['P:trade:filled', 'tp:status:new', 'sl:status:suspended']);
    expect(f.venue.getOpenOrder('a', 'tp').inactive).toBeUndefined();
    expect(f.venue.spotBalances('a').find((b) => b.currency === 'ETH')?.reserved.toFixed()).toBe('1');
    // now an OCO: the stop fires and the take-profit is canceled
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2400', q: '0.1', s: 'sell' }]), T0 + 3);
    expect(f.reports().slice(3)).toEqual(['sl:new:new', 'sl:trade:filled', 'tp:canceled:canceled']);
  });

  it('canceling the primary cancels the inactive secondaries', () => {
    const f = setup();
    f.venue.placeOrderList('a', otoco());
    f.venue.cancelOrder('a', 'P');
    expect(f.venue.openOrders('a')).toEqual([]);
    expect(f.reports().slice(-3)).toEqual(['P:canceled:canceled', 'tp:canceled:canceled', 'sl:canceled:canceled']);
  });
});

describe('allOrNone', () => {
  it('all fill in one transaction when every order can fill', () => {
    const f = setup();
    const orders = f.venue.placeOrderList('a', {
      contingency_type: 'allOrNone',
      orders: [limit({ side: 'buy', price: '2500', time_in_force: 'FOK' }), limit({ symbol: 'BTCUSDT', side: 'sell', type: 'market', price: undefined, quantity: '0.1', time_in_force: 'FOK' })],
    });
    expect(orders.map((o) => o.status)).toEqual(['filled', 'filled']);
  });

  it('all expire, untouched, when one cannot fill completely', () => {
    const f = setup();
    const orders = f.venue.placeOrderList('a', {
      contingency_type: 'allOrNone',
      orders: [limit({ side: 'buy', price: '2500', time_in_force: 'FOK' }), limit({ symbol: 'BTCUSDT', side: 'buy', price: '5990', quantity: '0.1', time_in_force: 'FOK' })],
    });
    expect(orders.map((o) => [o.status, o.quantity_cumulative.toFixed()])).toEqual([['expired', '0'], ['expired', '0']]);
    expect(f.venue.tradeHistory('a')).toEqual([]);
    expect(f.venue.spotBalances('a').every((b) => b.reserved.isZero())).toBe(true);
  });
});
