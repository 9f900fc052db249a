import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { ExecutionAdapter } from '../../framework/execution/execution-adapter.js';
import type { VenueGateway } from '../../framework/execution/venue-gateway.js';
import type { VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest } from '../../framework/execution/venue-port.js';
import { ExchangeError, NetworkError, TimeoutError } from '../../framework/exchange/errors.js';
import { dec } from '../../framework/model/decimal.js';
import type { Intent } from '../../framework/model/intent.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { StrategyReport } from '../../framework/model/strategy-report.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { executed } from '../support/executed.js';

type Step = 'ok' | 'lost-after' | 'lost-before' | ExchangeError;

/** A venue in memory whose next answers are scripted: executed-but-lost, never-sent, or a refusal. */
class ScriptedVenue implements VenuePort {
  readonly account = 'spot' as const;
  readonly orders = new Map<string, Order>();
  readonly script: Step[] = [];
  readonly calls: string[] = [];
  readonly orderReports$ = new Subject<OrderReport>();
  readonly balances$ = new Subject<readonly TradingBalance[]>();
  readonly reconnected$ = new Subject<number>();
  private seq = 0;

  private async run<T>(name: string, act: () => T): Promise<T> {
    this.calls.push(name);
    const step = this.script.shift() ?? 'ok';
    if (step instanceof ExchangeError) throw step;
    if (step === 'lost-before') throw new TimeoutError('no reply', { outcomeUnknown: true });
    const result = act();
    if (step === 'lost-after') throw new NetworkError('connection lost', { outcomeUnknown: true });
    return result;
  }

  private create(r: VenueOrderRequest, extra: Partial<Order> = {}): Order {
    if (this.orders.has(r.client_order_id)) throw new ExchangeError(20008, 'Duplicate clientOrderId', undefined, 400);
    const order: Order = {
      id: String(++this.seq), client_order_id: r.client_order_id, symbol: r.symbol, side: r.side, status: 'new', type: r.type,
      time_in_force: r.time_in_force ?? 'GTC', quantity: r.quantity, quantity_cumulative: dec(0), price: r.price, post_only: false,
      created_at: 1, updated_at: 1, ...extra,
    };
    this.orders.set(order.client_order_id, order);
    return order;
  }

  placeOrder(r: VenueOrderRequest): Promise<Order> {
    return this.run('place', () => this.create(r));
  }
  placeOrderList(l: VenueOrderListRequest): Promise<Order[]> {
    return this.run('list', () => l.orders.map((o) => this.create(o, { order_list_id: l.order_list_id, contingency_type: l.contingency_type })));
  }
  replaceOrder(id: string, c: VenueReplaceRequest): Promise<Order> {
    return this.run('replace', () => {
      const old = this.orders.get(id);
      if (!old || old.status !== 'new') throw new ExchangeError(20002, 'Order not found', undefined, 400);
      this.orders.set(id, { ...old, status: 'canceled' });
      return this.create({ ...old, client_order_id: c.new_client_order_id, quantity: c.quantity, price: c.price }, { original_client_order_id: id });
    });
  }
  cancelOrder(id: string): Promise<Order> {
    return this.run('cancel', () => {
      const old = this.orders.get(id);
      if (!old || old.status !== 'new') throw new ExchangeError(20002, 'Order not found', undefined, 400);
      const canceled: Order = { ...old, status: 'canceled' };
      this.orders.set(id, canceled);
      return canceled;
    });
  }
  cancelAll(): Promise<Order[]> {
    throw new Error('the adapter must never cancel the whole account');
  }
  async findOrder(id: string): Promise<Order | undefined> {
    this.calls.push(`find:${id}`);
    return this.orders.get(id);
  }
  async openOrders(): Promise<Order[]> {
    return [...this.orders.values()].filter((o) => o.status === 'new');
  }
  async orderTrades(): Promise<never[]> {
    return [];
  }

  async balances(): Promise<TradingBalance[]> {
    return [{ currency: 'USDT', available: dec('1000'), reserved: dec(0) }];
  }
}

const CLOCK = new VirtualClock(Date.UTC(2024, 0, 5));
const place = (intentId: string, strategyId = 's1'): Intent => ({
  kind: 'place', intentId, strategyId, symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec('100'),
});

async function setup(options: { unknownOrders?: 'adopt' | 'cancel' } = {}) {
  const venue = new ScriptedVenue();
  const adapter = new ExecutionAdapter({
    venue, ids: new ClientOrderIdGenerator('t', CLOCK), clock: CLOCK, recovery: { sleep: async () => undefined }, ...options,
  });
  const reports: StrategyReport[] = [];
  adapter.reports$.subscribe((r) => reports.push(r));
  await adapter.start();
  return { venue, adapter, reports };
}

describe('ExecutionAdapter with a scripted venue', () => {
  it('places under a generated id and reports accepted; stream reports carry the intentId', async () => {
    const { venue, adapter, reports } = await setup();
    await executed(adapter, place('i1'));
    expect(reports.map((r) => r.kind)).toEqual(['accepted']);
    const order = [...venue.orders.values()][0]!;
    expect(order.client_order_id).toBe('t_20240105_1');
    venue.orderReports$.next({ ...order, status: 'partiallyFilled', quantity_cumulative: dec('0.4'), report_type: 'trade', trade_id: '9', trade_quantity: dec('0.4'), trade_price: dec('100'), trade_fee: dec('0.02') });
    expect(reports[1]).toMatchObject({ kind: 'order', intentId: 'i1' });
    expect(adapter.account.positions.position('s1', 'BTCUSDT')?.quantity.toFixed()).toBe('0.4');
  });

  it('is synchronous: one handler\'s intents all leave at once, and each answer is applied when it arrives', async () => {
    const { venue, adapter, reports } = await setup();
    let ended = 0;
    adapter.submit(place('i1'), () => ended++);
    adapter.submit(place('i2'), () => ended++);
    // Both requests are on the wire before either is answered; the orders are tracked, pending.
    expect(venue.calls).toEqual(['place', 'place']);
    expect(reports).toEqual([]);
    expect(adapter.inFlight).toBe(2);
    expect(adapter.account.get('t_20240105_2')?.status).toBe('pending');
    await adapter.whenIdle();
    expect(ended).toBe(2);
    expect(reports.map((r) => r.kind === 'accepted' && r.intent.intentId)).toEqual(['i1', 'i2']);
    expect(adapter.account.get('t_20240105_2')?.status).toBe('new');
  });

  it('timeout after the order was made: found by lookup and adopted, never placed twice', async () => {
    const { venue, adapter, reports } = await setup();
    venue.script.push('lost-after');
    await executed(adapter, place('i1'));
    expect(venue.calls).toEqual(['place', 'find:t_20240105_1']);
    expect(venue.orders.size).toBe(1);
    expect(reports).toMatchObject([{ kind: 'accepted', orders: [{ client_order_id: 't_20240105_1' }] }]);
    expect(adapter.account.get('t_20240105_1')?.status).toBe('new');
  });

  it('timeout before the order was made: not found, retried with the SAME client_order_id', async () => {
    const { venue, adapter, reports } = await setup();
    venue.script.push('lost-before');
    await executed(adapter, place('i1'));
    expect(venue.calls).toEqual(['place', 'find:t_20240105_1', 'place']);
    expect([...venue.orders.keys()]).toEqual(['t_20240105_1']);
    expect(reports.map((r) => r.kind)).toEqual(['accepted']);
  });

  it('a late first attempt makes the retry a duplicate (20008): the lookup adopts it, one order', async () => {
    const { venue, adapter, reports } = await setup();
    // First attempt times out with nothing made, the lookup says not found; then the first lands late.
    venue.script.push('lost-before');
    const findOrder = venue.findOrder.bind(venue);
    let lookups = 0;
    venue.findOrder = async (id) => {
      const found = await findOrder(id);
      if (++lookups === 1) await venue.placeOrder({ client_order_id: id, symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec(1), price: dec(100) });
      return found;
    };
    await executed(adapter, place('i1'));
    expect(venue.calls).toEqual(['place', 'find:t_20240105_1', 'place', 'place', 'find:t_20240105_1']);
    expect(venue.orders.size).toBe(1);
    expect(reports.map((r) => r.kind)).toEqual(['accepted']);
  });

  it('rejections become reports with the exchange code, and the tracker is dropped', async () => {
    const { venue, adapter, reports } = await setup();
    venue.script.push(new ExchangeError(20001, 'Insufficient funds', undefined, 400));
    await executed(adapter, place('i1'));
    expect(reports).toMatchObject([{ kind: 'rejected', code: 20001, intent: { intentId: 'i1' } }]);
    expect(venue.calls).toEqual(['place']);
    expect(adapter.account.get('t_20240105_1')).toBeUndefined();
  });

  it('replace uses a new id and cancel/cancelAll touch only the strategy\'s own orders', async () => {
    const { venue, adapter, reports } = await setup();
    await executed(adapter, place('i1', 's1'));
    await executed(adapter, place('i2', 's2'));
    await executed(adapter, { kind: 'replace', intentId: 'i3', strategyId: 's1', clientOrderId: 't_20240105_1', quantity: dec(2), price: dec(99) });
    expect(venue.orders.get('t_20240105_3')).toMatchObject({ original_client_order_id: 't_20240105_1', status: 'new' });
    expect(adapter.account.get('t_20240105_1')?.replacedBy).toBe('t_20240105_3');
    await executed(adapter, { kind: 'cancel', intentId: 'i4', strategyId: 's1', clientOrderId: 't_20240105_2' });
    expect(reports.at(-1)).toMatchObject({ kind: 'rejected', code: 10001 });
    await executed(adapter, { kind: 'cancelAll', intentId: 'i5', strategyId: 's1' });
    expect(venue.orders.get('t_20240105_3')?.status).toBe('canceled');
    expect(venue.orders.get('t_20240105_2')?.status).toBe('new');
  });

  it('order lists: order_list_id is the first id; a lost reply is adopted by lookup', async () => {
    const { venue, adapter, reports } = await setup();
    venue.script.push('lost-after');
    const spec = { symbol: 'BTCUSDT', side: 'sell' as const, type: 'limit' as const, quantity: dec(1), price: dec(110) };
    await executed(adapter, { kind: 'orderList', intentId: 'l1', strategyId: 's1', contingencyType: 'oneCancelOther', orders: [spec, { ...spec, price: dec(120) }] });
    expect([...venue.orders.values()].map((o) => o.order_list_id)).toEqual(['t_20240105_1', 't_20240105_1']);
    expect(venue.calls.filter((c) => c === 'list')).toHaveLength(1);
    expect(reports).toMatchObject([{ kind: 'accepted', orders: [{}, {}] }]);
  });

  it('lookups that keep failing leave the order to reconciliation, which settles it once', async () => {
    const { venue, adapter, reports } = await setup();
    venue.script.push('lost-after');
    const findOrder = venue.findOrder.bind(venue);
    let down = true;
    venue.findOrder = async (id) => {
      if (down) throw new NetworkError('down');
      return findOrder(id);
    };
    await executed(adapter, place('i1'));
    expect(reports).toEqual([]);
    down = false;
    const summary = await adapter.reconcile();
    expect(summary.updated).toEqual(['t_20240105_1']);
    expect(reports.map((r) => r.kind)).toEqual(['order', 'accepted']);
    expect(venue.orders.size).toBe(1);
  });

  it('reconciliation adopts or cancels open orders nobody tracks, and follows reconnects', async () => {
    const { venue, adapter } = await setup();
    await venue.placeOrder({ client_order_id: 'manual', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec(1), price: dec(1) });
    venue.reconnected$.next(1);
    await new Promise((r) => setTimeout(r, 0));
    await adapter.reconcile();
    expect(adapter.account.get('manual')?.status).toBe('new');
    expect(adapter.account.get('manual')?.intentId).toBeUndefined();

    const second = await setup({ unknownOrders: 'cancel' });
    await second.venue.placeOrder({ client_order_id: 'manual', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec(1), price: dec(1) });
    expect((await second.adapter.reconcile()).canceled).toEqual(['manual']);
    expect(second.venue.orders.get('manual')?.status).toBe('canceled');
    expect(second.adapter.account.balance('USDT')?.available.toFixed()).toBe('1000');
  });
});

describe('ExecutionAdapter with a gateway whose cancel answer cannot be applied', () => {
  it('rejects the cancel intent and ends it: a bug applying an answer never leaves an intent running', async () => {
    const venue = new ScriptedVenue();
    const gateway: VenueGateway = {
      account: 'spot',
      place: (order, answer) => void venue.placeOrder(order).then((o) => answer(undefined, o)),
      placeList: () => undefined,
      replace: () => undefined,
      // An answer without an order: applying it throws.
      cancel: (_id, answer) => queueMicrotask(() => answer(undefined, undefined)),
      find: () => undefined,
      orderTrades: () => undefined,
      marginAccounts: (_symbols, answer) => queueMicrotask(() => answer(undefined, undefined)),
      wait: (_ms, then) => queueMicrotask(then),
      stopRepeats: () => undefined,
    };
    const adapter = new ExecutionAdapter({ venue, gateway, ids: new ClientOrderIdGenerator('t', CLOCK), clock: CLOCK });
    const reports: StrategyReport[] = [];
    adapter.reports$.subscribe((r) => reports.push(r));
    await adapter.start();
    await executed(adapter, place('i1'));
    await executed(adapter, { kind: 'cancel', intentId: 'c1', strategyId: 's1', clientOrderId: 't_20240105_1' });
    expect(adapter.inFlight).toBe(0);
    expect(reports.at(-1)).toMatchObject({ kind: 'rejected', intent: { intentId: 'c1' } });
  });
});
