import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { ExecutionAdapter } from '../../framework/execution/execution-adapter.js';
import { shutdownOrders } from '../../framework/execution/order-shutdown.js';
import type { OrderFill, TrackedOrderInfo } from '../../framework/execution/order-tracker.js';
import type { VenueOrderRequest, VenuePort } from '../../framework/execution/venue-port.js';
import { ExchangeError, TimeoutError } from '../../framework/exchange/errors.js';
import { dec } from '../../framework/model/decimal.js';
import type { Intent } from '../../framework/model/intent.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import type { StrategyReport } from '../../framework/model/strategy-report.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { executed } from '../support/executed.js';

const NOT_FOUND = (): ExchangeError => new ExchangeError(20002, 'Order not found', undefined, 400);

/**
 * A venue in memory. `fillSilently` fills an order on the exchange without any report reaching
 * the bot (a report still delayed); `holdPlaces` keeps the answers of new orders until released
 * (the orders exist on the exchange at once), as a slow answer does.
 */
class FakeVenue implements VenuePort {
  readonly account = 'spot' as const;
  readonly orders = new Map<string, Order>();
  readonly trades: TradeHistoryRecord[] = [];
  readonly calls: string[] = [];
  readonly orderReports$ = new Subject<OrderReport>();
  readonly balances$ = new Subject<readonly TradingBalance[]>();
  readonly reconnected$ = new Subject<number>();
  holdPlaces = false;
  /** The next new order is lost on its way (never made), its request timing out. */
  loseNextPlace = false;
  readonly held: (() => void)[] = [];
  private seq = 0;

  fillSilently(clientOrderId: string, price: string): void {
    const order = this.orders.get(clientOrderId)!;
    this.orders.set(clientOrderId, { ...order, status: 'filled', quantity_cumulative: order.quantity, updated_at: 2 });
    this.trades.push({
      id: `t${this.trades.length + 1}`, order_id: order.id, client_order_id: clientOrderId, symbol: order.symbol, side: order.side,
      quantity: order.quantity, price: dec(price), fee: dec('0.01'), timestamp: 2, taker: false,
    });
  }

  placeOrder(r: VenueOrderRequest): Promise<Order> {
    this.calls.push(`place:${r.client_order_id}`);
    if (this.loseNextPlace) {
      this.loseNextPlace = false;
      return Promise.reject(new TimeoutError('no reply', { outcomeUnknown: true }));
    }
    const order: Order = {
      id: String(++this.seq), client_order_id: r.client_order_id, symbol: r.symbol, side: r.side, status: 'new', type: r.type,
      time_in_force: 'GTC', quantity: r.quantity, quantity_cumulative: dec(0), price: r.price, post_only: false, created_at: 1, updated_at: 1,
    };
    this.orders.set(order.client_order_id, order);
    if (!this.holdPlaces) return Promise.resolve(order);
    return new Promise((resolve) => this.held.push(() => resolve(order)));
  }
  async cancelOrder(id: string): Promise<Order> {
    this.calls.push(`cancel:${id}`);
    const order = this.orders.get(id);
    if (order === undefined || order.status !== 'new') throw NOT_FOUND();
    const canceled: Order = { ...order, status: 'canceled', updated_at: 3 };
    this.orders.set(id, canceled);
    return canceled;
  }
  async findOrder(id: string): Promise<Order | undefined> {
    this.calls.push(`find:${id}`);
    return this.orders.get(id);
  }
  async orderTrades(order: Order): Promise<TradeHistoryRecord[]> {
    this.calls.push(`trades:${order.client_order_id}`);
    return this.trades.filter((t) => t.order_id === order.id);
  }
  async openOrders(): Promise<Order[]> {
    return [...this.orders.values()].filter((o) => o.status === 'new');
  }
  /** What the exchange holds now (a notification of it may still be on its way). */
  heldBalances: TradingBalance[] = [];
  async balances(): Promise<TradingBalance[]> {
    return this.heldBalances;
  }
  placeOrderList(): Promise<Order[]> {
    throw new Error('not used');
  }
  replaceOrder(): Promise<Order> {
    throw new Error('not used');
  }
  cancelAll(): Promise<Order[]> {
    throw new Error('the adapter must never cancel the whole account');
  }
}

const CLOCK = new VirtualClock(Date.UTC(2024, 0, 5));
const place = (intentId: string, price = '100'): Intent => ({
  kind: 'place', intentId, strategyId: 's1', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('0.5'), price: dec(price),
});

async function setup() {
  const venue = new FakeVenue();
  const fills: { info: TrackedOrderInfo; fill: OrderFill }[] = [];
  const finished: string[] = [];
  const adapter = new ExecutionAdapter({
    venue, ids: new ClientOrderIdGenerator('t', CLOCK), clock: CLOCK, recovery: { sleep: async () => undefined },
    onFill: (info, fill) => fills.push({ info, fill }), onOrderFinished: (tracker) => finished.push(`${tracker.clientOrderId}:${tracker.status}`),
  });
  const reports: StrategyReport[] = [];
  adapter.reports$.subscribe((r) => reports.push(r));
  await adapter.start();
  return { venue, adapter, reports, fills, finished };
}

describe('a cancel answered 20002 (order not found)', () => {
  it('at shutdown: the order is looked up, found filled, and its fill booked from the trade history', async () => {
    const { venue, adapter, fills, finished } = await setup();
    await executed(adapter, place('i1'));
    const id = 't_20240105_1';
    venue.fillSilently(id, '99.5');

    const summary = await shutdownOrders(adapter, { cancel: true, timeoutMs: 60_000 });

    expect(venue.calls).toEqual([`place:${id}`, `cancel:${id}`, `find:${id}`, `trades:${id}`]);
    expect(summary).toEqual({ canceled: [], left: [], timedOut: false });
    expect(fills.map((f) => [f.info.clientOrderId, f.fill.tradeId, f.fill.quantity.toFixed(), f.fill.price.toFixed()])).toEqual([[id, 't1', '0.5', '99.5']]);
    expect(adapter.account.positions.position('s1', 'BTCUSDT')?.quantity.toFixed()).toBe('0.5');
    expect(finished).toEqual([`${id}:filled`]);
  });

  it('as a strategy\'s cancel: the 20002 reaches the strategy, and the fill is booked all the same', async () => {
    const { venue, adapter, reports } = await setup();
    await executed(adapter, place('i1'));
    venue.fillSilently('t_20240105_1', '100');
    await executed(adapter, { kind: 'cancel', intentId: 'i2', strategyId: 's1', clientOrderId: 't_20240105_1' });
    expect(reports.at(-1)).toMatchObject({ kind: 'rejected', code: 20002 });
    expect(adapter.account.get('t_20240105_1')?.status).toBe('filled');
    expect(adapter.account.positions.position('s1', 'BTCUSDT')?.quantity.toFixed()).toBe('0.5');
  });

  it('a late report of the same execution is not booked twice', async () => {
    const { venue, adapter, fills } = await setup();
    await executed(adapter, place('i1'));
    const id = 't_20240105_1';
    venue.fillSilently(id, '99.5');
    await shutdownOrders(adapter, { cancel: true, timeoutMs: 60_000 });
    const order = venue.orders.get(id)!;
    venue.orderReports$.next({ ...order, report_type: 'trade', trade_id: 't1', trade_quantity: dec('0.5'), trade_price: dec('99.5'), trade_fee: dec('0.01') });
    expect(fills).toHaveLength(1);
    expect(adapter.account.positions.position('s1', 'BTCUSDT')?.quantity.toFixed()).toBe('0.5');
  });
});

describe('shutdownOrders', () => {
  it('waits for a create request in flight, then cancels the order its answer names', async () => {
    const { venue, adapter, finished } = await setup();
    venue.holdPlaces = true;
    const placing = executed(adapter, place('i1'));
    const shutdown = shutdownOrders(adapter, { cancel: true, timeoutMs: 60_000 });
    // Nothing is canceled while the answer is outstanding.
    await new Promise((resolve) => setImmediate(resolve));
    expect(venue.calls).toEqual(['place:t_20240105_1']);
    venue.held.shift()!();
    await placing;
    expect(await shutdown).toEqual({ canceled: ['t_20240105_1'], left: [], timedOut: false });
    expect(venue.orders.get('t_20240105_1')?.status).toBe('canceled');
    expect(finished).toEqual(['t_20240105_1:canceled']);
  });

  it('an answer that does not come in time: the order is looked up by client_order_id and canceled', async () => {
    const { venue, adapter } = await setup();
    venue.holdPlaces = true;
    void executed(adapter, place('i1'));
    const summary = await shutdownOrders(adapter, { cancel: true, timeoutMs: 1 });
    expect(summary).toEqual({ canceled: ['t_20240105_1'], left: [], timedOut: true });
    expect(venue.calls).toEqual(['place:t_20240105_1', 'find:t_20240105_1', 'cancel:t_20240105_1']);
    expect([...venue.orders.values()].filter((o) => o.status === 'new')).toEqual([]);
  });

  it('reads the balances once more at the end, so the bot\'s last balances are the exchange\'s', async () => {
    const { venue, adapter } = await setup();
    await executed(adapter, place('i1'));
    venue.fillSilently('t_20240105_1', '100');
    // The exchange's balance after the fill; its notification has not come.
    venue.heldBalances = [{ currency: 'USDT', available: dec('949.99'), reserved: dec('0') }];
    await shutdownOrders(adapter, { cancel: true, timeoutMs: 1_000 });
    expect(adapter.account.balance('USDT')?.available.toFixed()).toBe('949.99');
  });

  it('refuses intents that make orders from the start of the shutdown; keep leaves open orders and names them', async () => {
    const { venue, adapter, reports } = await setup();
    await executed(adapter, place('i1'));
    const summary = await shutdownOrders(adapter, { cancel: false, timeoutMs: 60_000 });
    expect(summary).toEqual({ canceled: [], left: ['t_20240105_1'], timedOut: false });
    await executed(adapter, place('i2', '99'));
    expect(reports.at(-1)).toMatchObject({ kind: 'rejected', intent: { intentId: 'i2' }, message: 'the bot is stopping: no new orders' });
    expect(venue.calls).toEqual(['place:t_20240105_1']);
  });

  it('a create lost on its way is not sent again once the stop is asked: looked up, found never made, and finished', async () => {
    const { venue, adapter, reports, finished } = await setup();
    venue.loseNextPlace = true;
    const placing = executed(adapter, place('i1'));
    const summary = await shutdownOrders(adapter, { cancel: true, timeoutMs: 60_000 });
    await placing;
    expect(venue.calls.filter((c) => c.startsWith('place:'))).toEqual(['place:t_20240105_1']);
    expect(venue.orders.size).toBe(0);
    expect(summary).toEqual({ canceled: [], left: [], timedOut: false });
    expect(reports.at(-1)).toMatchObject({ kind: 'rejected', intent: { intentId: 'i1' }, message: 'order never reached the exchange' });
    expect(finished).toEqual(['t_20240105_1:canceled']);
  });
});
