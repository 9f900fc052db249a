import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../framework/model/decimal.js';
import type { PlaceIntent, ReplaceIntent } from '../../framework/model/intent.js';
import type { Order, OrderStatus } from '../../framework/model/resources/order.js';
import type { OrderUpdateReport, StrategyReport } from '../../framework/model/strategy-report.js';
import type { OrderReport, ReportType } from '../../framework/model/stream/order-report.js';
import type { OrderHandle } from '../../framework/runtime/order-handle.js';
import { virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import { StrategyEngine } from '../../framework/runtime/strategy-engine.js';
import type { Strategy } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { FakePorts } from './runtime-fixtures.js';

const engines: StrategyEngine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop();
});

/** An engine over fake ports whose strategy is built by the test; returns it with the ports. */
function run(strategy: Strategy): { engine: StrategyEngine; ports: FakePorts; scheduler: VirtualClockScheduler; send: (r: StrategyReport) => void } {
  const scheduler = new VirtualClockScheduler();
  const ports = new FakePorts();
  const engine = new StrategyEngine({
    strategyId: 's', strategy, params: {}, sink: ports.sink, market: ports.marketSource, account: ports.account,
    clock: scheduler.clock, schedulers: virtualSchedulers(scheduler), errorPolicy: 'halt', onHalt: (error) => {
      throw error;
    },
  });
  engines.push(engine);
  engine.start();
  const send = (report: StrategyReport): void => {
    if (report.kind === 'order') ports.orderReports.next(report);
    else ports.reports.next(report);
    scheduler.flush();
  };
  return { engine, ports, scheduler, send };
}

/** The exchange's view of an order at some moment. */
function snapshot(id: string, status: OrderStatus, cumulative: string, updatedAt: number, extra: Partial<Order> = {}): Order {
  return {
    id: `x-${id}`, client_order_id: id, symbol: 'BTCUSDT', side: 'buy', status, type: 'limit', time_in_force: 'GTC', quantity: dec('1'),
    quantity_cumulative: dec(cumulative), price: dec('100'), post_only: false, created_at: 0, updated_at: updatedAt, ...extra,
  };
}

function update(order: Order, reportType: ReportType, trade?: { id: string; quantity: string; price: string }): OrderUpdateReport {
  const { trades: _trades, ...fields } = order;
  const report: OrderReport = {
    ...fields, report_type: reportType,
    ...(trade === undefined ? {} : { trade_id: trade.id, trade_quantity: dec(trade.quantity), trade_price: dec(trade.price), trade_fee: dec('0.01') }),
  };
  return { kind: 'order', report, time: order.updated_at };
}

const SPEC = { symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec('100'), timeInForce: 'GTC' } as const;

describe('order handles through the strategy engine', () => {
  it('follow a place, a partial fill, a replace (new id), a late fill of the old id and the final fill', () => {
    let handle: OrderHandle | undefined;
    const w = run({ onStart: (ctx) => void (handle = ctx.place(SPEC, 'q')) });
    const place = w.ports.submitted[0] as PlaceIntent;
    const h = handle!;
    expect(h.clientOrderId).toBe(place.clientOrderId);
    expect(h.status).toBe('pendingNew');

    w.send({ kind: 'accepted', intent: place, orders: [snapshot(h.clientOrderId, 'new', '0', 1)], time: 1 });
    expect(h.status).toBe('open');
    w.send(update(snapshot(h.clientOrderId, 'partiallyFilled', '0.25', 2), 'trade', { id: 't1', quantity: '0.25', price: '100' }));
    expect([h.filled.toFixed(), h.remaining.toFixed(), h.averagePrice?.toFixed()]).toEqual(['0.25', '0.75', '100']);

    const first = h.clientOrderId;
    engineContext(w.engine).replace(h, dec('1'), dec('101'));
    const replace = w.ports.submitted[1] as ReplaceIntent;
    expect(replace).toMatchObject({ kind: 'replace', clientOrderId: first });
    expect(h.status).toBe('pendingReplace');
    // The replacement's report overtakes the answer; the handle moves to the new id.
    w.send(update(snapshot(replace.newClientOrderId!, 'partiallyFilled', '0.25', 3, { price: dec('101'), original_client_order_id: first }), 'replaced'));
    expect([h.clientOrderId, h.previousClientOrderId, h.price?.toFixed()]).toEqual([replace.newClientOrderId, first, '101']);
    w.send({ kind: 'accepted', intent: replace, orders: [snapshot(replace.newClientOrderId!, 'partiallyFilled', '0.25', 3, { price: dec('101') })], time: 3 });
    expect(h.status).toBe('open');
    // A trade of the old order reported late still counts, once.
    w.send(update(snapshot(first, 'partiallyFilled', '0.25', 2), 'trade', { id: 't1', quantity: '0.25', price: '100' }));
    w.send(update(snapshot(replace.newClientOrderId!, 'filled', '1', 4, { price: dec('101') }), 'trade', { id: 't2', quantity: '0.75', price: '101' }));
    expect(h.status).toBe('filled');
    expect([h.filled.toFixed(), h.remaining.toFixed(), h.fills.length, h.averagePrice?.toFixed()]).toEqual(['1', '0', 2, '100.75']);
    // A late answer showing it open cannot reopen it.
    w.send({ kind: 'accepted', intent: replace, orders: [snapshot(replace.newClientOrderId!, 'new', '0.25', 3)], time: 5 });
    expect(h.isClosed).toBe(true);
    expect(engineContext(w.engine).orders()).toEqual([]);
  });

  it('the late answer of a place leaves a replace sent after the order\'s own update pending', () => {
    let handle: OrderHandle | undefined;
    const w = run({ onStart: (ctx) => void (handle = ctx.place(SPEC)) });
    const place = w.ports.submitted[0] as PlaceIntent;
    const h = handle!;
    // The order's update overtakes the place's answer; the strategy moves the order at once.
    w.send(update(snapshot(h.clientOrderId, 'new', '0', 1), 'new'));
    engineContext(w.engine).replace(h, dec('1'), dec('101'));
    const replace = w.ports.submitted[1] as ReplaceIntent;
    expect(h.status).toBe('pendingReplace');
    w.send({ kind: 'accepted', intent: place, orders: [snapshot(place.clientOrderId!, 'new', '0', 1)], time: 2 });
    expect(h.status).toBe('pendingReplace');
    // A refusal of another intent (an earlier cancel, say) does not end it either; its own answer does.
    w.send({ kind: 'accepted', intent: replace, orders: [snapshot(replace.newClientOrderId!, 'new', '0', 3, { price: dec('101') })], time: 3 });
    expect([h.status, h.clientOrderId]).toEqual(['open', replace.newClientOrderId]);
  });

  it('a denied place closes its handle as denied; a denied or rejected replace leaves the order open', () => {
    const handles: OrderHandle[] = [];
    const w = run({ onStart: (ctx) => void handles.push(ctx.place(SPEC), ctx.place(SPEC)) });
    const [a, b] = w.ports.submitted as PlaceIntent[];
    w.send({ kind: 'denied', intent: a!, check: 'balance', reason: 'short of USDT', time: 1 });
    expect(handles[0]).toMatchObject({ status: 'denied', isClosed: true, refusal: { check: 'balance' } });
    w.send({ kind: 'accepted', intent: b!, orders: [snapshot(b!.clientOrderId!, 'new', '0', 1)], time: 1 });
    const ctx = engineContext(w.engine);
    ctx.replace(handles[1]!, dec('2'), dec('99'));
    w.send({ kind: 'denied', intent: w.ports.submitted[2]!, check: 'price-band', reason: 'far', time: 2 });
    expect(handles[1]).toMatchObject({ status: 'open', clientOrderId: b!.clientOrderId });
    ctx.replace(handles[1]!, dec('2'), dec('99'));
    w.send({ kind: 'rejected', intent: w.ports.submitted[3]!, code: 20002, message: 'gone', time: 3 });
    expect(handles[1]).toMatchObject({ status: 'open', clientOrderId: b!.clientOrderId });
    expect(ctx.cancel(handles[1]!)).toBe(handles[1]);
    expect(handles[1]!.status).toBe('pendingCancel');
    w.send({ kind: 'accepted', intent: w.ports.submitted[4]!, orders: [snapshot(b!.clientOrderId!, 'canceled', '0', 4)], time: 4 });
    expect(handles[1]).toMatchObject({ status: 'canceled', isOpen: false });
    expect(ctx.cancel(handles[1]!)).toBeUndefined();
  });

  it('runs onFill, onOrderClosed and onDenied before onReport, once each', () => {
    const log: string[] = [];
    const w = run({
      onStart: (ctx) => void ctx.orderList('oneCancelOther', [SPEC, { ...SPEC, price: dec('90') }]),
      onFill: (_ctx, order, fill) => void log.push(`fill ${order.leg} ${fill.tradeId}`),
      onOrderClosed: (_ctx, order) => void log.push(`closed ${order.leg} ${order.status}`),
      onDenied: (_ctx, report, order) => void log.push(`denied ${report.check} ${order?.status}`),
      onReport: (_ctx, report) => void log.push(`report ${report.kind}`),
    });
    const list = w.ports.submitted[0]!;
    if (list.kind !== 'orderList') throw new Error('expected the list');
    const [first, second] = list.clientOrderIds!;
    w.send({ kind: 'accepted', intent: list, orders: [snapshot(first!, 'new', '0', 1), snapshot(second!, 'new', '0', 1, { price: dec('90') })], time: 1 });
    const filled = update(snapshot(first!, 'filled', '1', 2), 'trade', { id: 't9', quantity: '1', price: '100' });
    w.send(filled);
    w.send(filled);
    w.send(update(snapshot(second!, 'canceled', '0', 2), 'canceled'));
    const place = engineContext(w.engine).place(SPEC);
    w.send({ kind: 'denied', intent: w.ports.submitted[1]!, check: 'order-rate', reason: 'busy', time: 3 });
    expect(place.status).toBe('denied');
    expect(log).toEqual([
      'report accepted', 'fill 0 t9', 'closed 0 filled', 'report order', 'report order', 'closed 1 canceled', 'report order',
      'denied order-rate denied', 'report denied',
    ]);
  });

  it('property: executions count once whatever the repeats and order of reports; filled, remaining and average price agree with them', () => {
    const trade = fc.record({ quantity: fc.integer({ min: 1, max: 100 }), price: fc.integer({ min: 9_000, max: 11_000 }) });
    fc.assert(fc.property(fc.array(trade, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), fc.integer(), (trades, repeats, seed) => {
      let handle: OrderHandle | undefined;
      const total = trades.reduce((sum, t) => sum + t.quantity, 0);
      const w = run({ onStart: (ctx) => void (handle = ctx.place({ ...SPEC, quantity: new Decimal(total + 1).div(100) })) });
      const place = w.ports.submitted[0] as PlaceIntent;
      const id = place.clientOrderId!;
      let cumulative = 0;
      const reports = trades.map((t, i) => {
        cumulative += t.quantity;
        const order = snapshot(id, 'partiallyFilled', new Decimal(cumulative).div(100).toFixed(), i + 1, { quantity: new Decimal(total + 1).div(100) });
        return update(order, 'trade', { id: `t${i}`, quantity: new Decimal(t.quantity).div(100).toFixed(), price: new Decimal(t.price).div(100).toFixed() });
      });
      const replayed = [...reports, ...repeats.map((r) => reports[(((r + seed) % reports.length) + reports.length) % reports.length]!)];
      for (const report of shuffle(replayed, seed)) w.send(report);
      // Oracle: integer hundredths, summed here.
      const notional = trades.reduce((sum, t) => sum + BigInt(t.quantity) * BigInt(t.price), 0n);
      expect(handle!.fills).toHaveLength(trades.length);
      expect(handle!.filled.toFixed()).toBe(new Decimal(total).div(100).toFixed());
      expect(handle!.remaining.toFixed()).toBe('0.01');
      expect(handle!.averagePrice!.toFixed()).toBe(new Decimal(notional.toString()).div(100).div(total).toFixed());
      expect(handle!.status).toBe('open');
      w.engine.stop();
    }), { seed: 11, numRuns: 100 });
  });
});

function engineContext(engine: StrategyEngine): StrategyEngine['context'] {
  return engine.context;
}

/** A deterministic shuffle (the property's own seed drives it). */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = (seed >>> 0) || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

