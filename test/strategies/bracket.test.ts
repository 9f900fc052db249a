import { afterEach, describe, expect, it } from 'vitest';
import { validateOrderList } from '../../backtest/venue/order-lists.js';
import type { NewOrderRequest } from '../../backtest/venue/venue-types.js';
import { ValidationError } from '../../framework/model/errors.js';
import type { Intent, OrderListIntent, OrderSpec } from '../../framework/model/intent.js';
import type { Order } from '../../framework/model/resources/order.js';
import bracket from '../../strategies/bracket/bracket.strategy.js';
import type { BracketParams } from '../../strategies/bracket/bracket-params.js';
import { StrategyHarness, orderOf } from './strategy-harness.js';

const PARAMS = { orderQuantity: '0.1', entryOffsetBps: 5, takeProfitBps: 20, stopLossBps: 20, cooldownMs: 30_000, entryTimeoutMs: 10_000 };
const harnesses: StrategyHarness<BracketParams>[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.stop();
});

function harness(params: Record<string, unknown> = PARAMS): StrategyHarness<BracketParams> {
  const h = new StrategyHarness(bracket, params);
  harnesses.push(h);
  return h;
}

function legs(orders: readonly OrderSpec[]): string[] {
  return orders.map((o) => [o.side, o.type, o.quantity.toFixed(), o.price?.toFixed() ?? '-', o.stopPrice?.toFixed() ?? '-', o.timeInForce].join(' '));
}

/** Sends a book so a bracket starts, and returns its list intent. */
function start(h: StrategyHarness<BracketParams>): OrderListIntent {
  h.book('ETHUSDT', '3000.00', '3000.10');
  const [list, ...rest] = h.take();
  expect(rest).toEqual([]);
  expect(list?.kind).toBe('orderList');
  return list as OrderListIntent;
}

/** The exchange accepts the list under the ids the strategy fixed (entry, take-profit, stop-loss): exits inactive until the entry fills. */
function accept(h: StrategyHarness<BracketParams>, list: OrderListIntent): Order[] {
  const ids = list.clientOrderIds!;
  const orders = list.orders.map((spec, i) => orderOf(spec, ids[i]!, i === 2 ? 'suspended' : 'new', h.now(), {
    order_list_id: ids[0], contingency_type: 'oneTriggerOneCancelOther', ...(i > 0 ? { inactive: true } : {}),
  }));
  h.accept(list, orders);
  return orders;
}

function cancelAllIn(intents: readonly Intent[]): Intent[] {
  return intents.filter((i) => i.kind === 'cancelAll');
}

describe('bracket', () => {
  it('sends a oneTriggerOneCancelOther list: entry limit buy, then take-profit and stop-loss sells', () => {
    const h = harness();
    const list = start(h);
    expect(list).toMatchObject({ contingencyType: 'oneTriggerOneCancelOther', tag: 'bracket' });
    // mid 3000.05: entry floor(3000.05 * 0.9995), take-profit ceil(entry * 1.002), stop floor(entry * 0.998)
    expect(legs(list.orders)).toEqual([
      'buy limit 0.1 2998.54 - GTC',
      'sell takeProfitLimit 0.1 3004.54 3004.54 GTC',
      'sell stopMarket 0.1 - 2992.54 GTC',
    ]);
    // The simulated exchange's list rules accept it as built.
    const orders: NewOrderRequest[] = list.orders.map((o) => ({
      symbol: o.symbol, side: o.side, type: o.type, time_in_force: o.timeInForce, quantity: o.quantity.toFixed(),
      price: o.price?.toFixed(), stop_price: o.stopPrice?.toFixed(),
    }));
    expect(() => validateOrderList({ contingency_type: list.contingencyType, orders }, () => 'list-1')).not.toThrow();
  });

  it('builds a stopLimit stop-loss with its limit price below the stop', () => {
    const h = harness({ ...PARAMS, stopType: 'stopLimit', stopLimitOffsetBps: 10 });
    expect(legs(start(h).orders)[2]).toBe('sell stopLimit 0.1 2989.54 2992.54 GTC');
  });

  it('keeps one bracket at a time per symbol', () => {
    const h = harness();
    const list = start(h);
    h.book('ETHUSDT', '3000.00', '3000.10');
    accept(h, list);
    h.book('ETHUSDT', '2990.00', '2990.10');
    expect(h.take()).toEqual([]);
    // Another symbol has its own bracket.
    h.book('BTCUSDT', '60000.00', '60000.10');
    expect(h.take().map((i) => i.kind)).toEqual(['orderList']);
  });

  it('cancels an unfilled entry list after entryTimeoutMs, then waits cooldownMs before the next', () => {
    const h = harness();
    const orders = accept(h, start(h));
    h.advance(9_999);
    expect(h.take()).toEqual([]);
    h.advance(1);
    expect(h.take()).toMatchObject([{ kind: 'cancelAll', symbol: 'ETHUSDT', tag: 'entry-timeout' }]);
    // Known by their client_order_id even without the intent (e.g. adopted after a reconnect).
    for (const o of orders) h.update({ ...o, status: 'canceled' }, 'canceled');
    expect(h.take()).toEqual([]);
    h.book('ETHUSDT', '3000.00', '3000.10');
    h.advance(29_999);
    expect(h.take()).toEqual([]);
    h.advance(1);
    expect(h.take().map((i) => i.kind)).toEqual(['orderList']);
  });

  it('after the entry fills: no timeout; a take-profit ends the bracket, and the next follows the cooldown', () => {
    const h = harness();
    const list = start(h);
    const [entry, tp, sl] = accept(h, list);
    h.update({ ...entry!, status: 'filled', quantity_cumulative: entry!.quantity }, 'trade', list.intentId, { quantity: '0.1', price: '2998.54' });
    h.advance(20_000);
    expect(h.take()).toEqual([]);
    h.update({ ...tp!, status: 'filled', inactive: undefined }, 'trade', list.intentId, { quantity: '0.1', price: '3004.54' });
    h.update({ ...sl!, status: 'canceled' }, 'canceled', list.intentId);
    expect(h.take()).toEqual([]); // flat: nothing to sell
    expect(h.engine.context.position('ETHUSDT')?.quantity.toFixed()).toBe('0');
    h.advance(29_999);
    expect(h.take()).toEqual([]);
    h.advance(1);
    expect(h.take().map((i) => i.kind)).toEqual(['orderList']);
  });

  it('an entry fill reported before the list\'s answer still counts: no entry timeout afterwards', () => {
    const h = harness();
    const list = start(h);
    const entry = orderOf(list.orders[0]!, list.clientOrderIds![0]!, 'filled', h.now(), { order_list_id: list.clientOrderIds![0], quantity_cumulative: list.orders[0]!.quantity });
    h.update(entry, 'trade', list.intentId, { quantity: '0.1', price: '2998.54' });
    accept(h, list); // the answer was built before the fill: entry still `new`
    h.advance(20_000);
    expect(cancelAllIn(h.take())).toEqual([]);
  });

  it('sells at market what a partially filled entry left when its list is cancelled', () => {
    const h = harness();
    const list = start(h);
    const [entry, tp, sl] = accept(h, list);
    h.update({ ...entry!, status: 'partiallyFilled' }, 'trade', list.intentId, { quantity: '0.04', price: '2998.54' });
    h.advance(10_000);
    expect(cancelAllIn(h.take())).toHaveLength(1);
    h.update({ ...entry!, status: 'canceled' }, 'canceled', list.intentId);
    h.update({ ...tp!, status: 'canceled' }, 'canceled', list.intentId);
    expect(h.take()).toEqual([]); // the stop is still open
    h.update({ ...sl!, status: 'canceled' }, 'canceled', list.intentId);
    expect(h.take()).toMatchObject([{ kind: 'place', side: 'sell', type: 'market', tag: 'flatten' }]);
  });

  it('a denied or rejected list starts the cooldown', () => {
    const h = harness();
    h.deny(start(h));
    h.book('ETHUSDT', '3000.00', '3000.10');
    expect(h.take()).toEqual([]);
    h.advance(30_000);
    const [again] = h.take();
    expect(again?.kind).toBe('orderList');
    h.reject(again!);
    h.advance(29_999);
    expect(h.take()).toEqual([]);
    h.advance(1);
    expect(h.take().map((i) => i.kind)).toEqual(['orderList']);
  });

  it('cancels all on stop', () => {
    const h = harness();
    accept(h, start(h));
    h.stop();
    expect(h.take()).toMatchObject([{ kind: 'cancelAll', tag: 'stop' }]);
  });
});

describe('bracket parameters', () => {
  it('fills defaults', () => {
    expect(bracket.parseParams({ orderQuantity: '1' })).toMatchObject({ stopType: 'stopMarket', cooldownMs: 60_000, entryTimeoutMs: 60_000 });
  });

  it.each([
    [{}, 'orderQuantity'],
    [{ orderQuantity: '1', takeProfitBps: 0 }, 'takeProfitBps'],
    [{ orderQuantity: '1', stopType: 'trailing' }, 'stopType'],
    [{ orderQuantity: '1', cooldownMs: -1 }, 'cooldownMs'],
    [{ orderQuantity: '1', entryTimeoutMs: 0 }, 'entryTimeoutMs'],
    [{ orderQuantity: '1', typo: 1 }, 'typo'],
  ])('rejects %j naming %s', (raw, field) => {
    let error: unknown;
    try {
      bracket.parseParams(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
