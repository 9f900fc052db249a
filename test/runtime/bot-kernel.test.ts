import { setImmediate as macrotask } from 'node:timers/promises';
import { ReplaySubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedVenue } from '../../backtest/venue/simulated-venue.js';
import { ReplayedSymbolMarket } from '../../backtest/venue/matching/replayed-symbol-market.js';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { SimulatedVenuePort } from '../../backtest/venue/simulated-venue-port.js';
import { dec } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { StrategyReport } from '../../framework/model/strategy-report.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { adoptedKey } from '../../framework/risk/reservation-key.js';
import type { OrderHandle } from '../../framework/runtime/order-handle.js';
import { BotKernel, formatStatus, type KernelHooks } from '../../framework/runtime/bot-kernel.js';
import { virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { StrategyContext, StrategyPlugin, Submittable } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { book } from '../risk/risk-fixtures.js';
import { SYMBOLS, bookSnapshot } from '../backtest/sandbox/support/sandbox-fixture.js';

const BTC = new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!);
const START = 1_700_000_000_000;

/** A strategy that places what `onStart` is given and logs every report it sees. */
function recorder(log: string[], onStart: (ctx: StrategyContext) => Submittable[]): StrategyPlugin {
  return {
    name: 'rec', description: 'records reports', parseParams: (raw) => raw,
    create: () => ({
      onStart,
      onReport: (_ctx, report: StrategyReport) => void log.push(report.kind === 'order' ? `order:${report.report.client_order_id}:${report.report.status}` : `${report.kind}:${report.intent.intentId}`),
    }),
  };
}

function world(options: { plugin: StrategyPlugin; hooks?: KernelHooks; risk?: unknown; beforeStart?: (venue: SimulatedVenue) => void; keepOrderPathWarmMs?: number }) {
  const clock = new VirtualClock(START);
  const scheduler = new VirtualClockScheduler(clock);
  const port = new SimulatedVenuePort('main');
  const venue = new SimulatedVenue([BTC], { main: { spot: { USDT: '1000', BTC: '2' } } }, (i) => new ReplayedSymbolMarket(i), (e) => port.onVenueEvent(e), clock.now());
  port.attach(venue);
  venue.onMarketFrame(bookSnapshot(), clock.now());
  options.beforeStart?.(venue);
  const books = new ReplaySubject<BookEvent>(1);
  books.next({ kind: 'snapshot', symbol: 'BTCUSDT', sequence: 1, book: book(BTC, [['101.00', '1.5']], [['99.00', '1']]) });
  const kernel = new BotKernel({
    botId: 'k', strategyId: 'rec', plugin: options.plugin, params: {}, instruments: [BTC], market: { books$: books, market$: new Subject<MarketEvent>() },
    venue: port, clock, schedulers: virtualSchedulers(scheduler), risk: options.risk ?? {}, errorPolicy: 'halt', unknownOrders: 'adopt', hooks: options.hooks,
    keepOrderPathWarmMs: options.keepOrderPathWarmMs,
  });
  const settle = async (): Promise<void> => {
    do {
      scheduler.advanceTo(clock.now());
      await macrotask();
    } while (kernel.pipeline.inFlight > 0);
    scheduler.advanceTo(clock.now());
  };
  const trade = (price: string, quantity: string, side: 'buy' | 'sell', id: number): void => {
    clock.advanceTo(START + id * 1000);
    venue.onMarketFrame({ ch: 'trades', update: { BTCUSDT: [{ t: clock.now(), i: id, p: price, q: quantity, s: side }] } }, clock.now());
  };
  return { venue, kernel, settle, trade, clock, scheduler };
}

const buy = (ctx: StrategyContext, quantity: string, price: string): OrderHandle =>
  ctx.place({ symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec(quantity), price: dec(price) });

describe('BotKernel', () => {
  it('reconciles before the strategy starts: adopted orders are the strategy\'s, reported first, and hold funds', async () => {
    const log: string[] = [];
    const w = world({
      plugin: recorder(log, (ctx) => {
        log.push(`start:${ctx.openOrders().map((o) => o.client_order_id).join(',')}`);
        return [buy(ctx, '1', '99.5')];
      }),
      beforeStart: (venue) => venue.placeOrder('main', { client_order_id: 'manual', symbol: 'BTCUSDT', side: 'sell', quantity: '0.5', price: '105' }),
    });
    const summary = await w.kernel.start();
    await w.settle();
    expect(summary.adopted).toEqual(['manual']);
    // onStart already sees what the reconciliation found; its update is the first report the
    // strategy gets, before those of its own order.
    expect(log[0]).toBe('start:manual');
    expect(log.slice(1, 3)).toEqual(['order:manual:new', 'order:k_20231114_1:new']);
    expect(w.kernel.adapter.account.get('manual')?.info.strategyId).toBe('rec');
    expect(w.kernel.ledger.get(adoptedKey('manual'))?.remaining.toFixed()).toBe('0.5');
    await expect(w.kernel.start()).rejects.toThrow(/already started/);
    expect(() => w.kernel.restore([])).toThrow(/before start/);
  });

  it('hooks: an order is tracked before its request reaches the venue; verdicts and order updates are told', async () => {
    const events: string[] = [];
    const at: { venue?: SimulatedVenue } = {};
    const hooks: KernelHooks = {
      onTrack: (info) => void events.push(`track:${info.clientOrderId}:${at.venue?.openOrders('main').some((o) => o.client_order_id === info.clientOrderId) === true ? 'late' : 'first'}`),
      onVerdict: (v) => void events.push(`${v.kind}:${v.intent.kind}`),
      onOrderUpdate: (u) => void events.push(`update:${u.report.status}`),
    };
    const w = world({ plugin: recorder([], (ctx) => [buy(ctx, '1', '99.5'), buy(ctx, '1', '150')]), hooks });
    at.venue = w.venue;
    await w.kernel.start();
    await w.settle();
    // The simulated venue answers within the call: the order's update comes before the next intent's verdict.
    expect(events).toEqual(['passed:place', 'track:k_20231114_1:first', 'update:new', 'denied:place']);
    w.trade('99.5', '1', 'sell', 1);
    expect(events.at(-1)).toBe('update:filled');
  });

  it('status and its line: positions, realized PnL, open orders, counters', async () => {
    const w = world({ plugin: recorder([], (ctx) => [buy(ctx, '1', '99.5'), buy(ctx, '0.5', '98.5')]) });
    expect(formatStatus(w.kernel.status())).toBe('[idle] flat | realized 0 | open orders 0 | intents 0 errors 0');
    await w.kernel.start();
    await w.settle();
    w.trade('99.5', '0.4', 'sell', 1);
    await w.settle();
    const status = w.kernel.status();
    expect(status).toMatchObject({ engine: 'running', openOrders: 2, intents: 2, errors: 0, equity: undefined });
    expect(status.positions.map((p) => [p.symbol, p.quantity.toFixed(), p.averagePrice?.toFixed()])).toEqual([['BTCUSDT', '0.4', '99.5']]);
    expect(formatStatus(status)).toBe('[running] BTCUSDT +0.4 @ 99.5 | realized 0 | open orders 2 | intents 2 errors 0');
  });

  it('equity shows once the kill switch values the account', async () => {
    const w = world({ plugin: recorder([], (ctx) => [buy(ctx, '1', '99.5')]), risk: { killSwitch: { maxDrawdown: '0.5' } } });
    await w.kernel.start();
    await w.settle();
    // 1000 USDT + 2 BTC at the pipeline's mid 100.
    expect(w.kernel.status().equity?.toFixed()).toBe('1200');
    expect(formatStatus(w.kernel.status())).toContain('| open orders 1 | equity 1200 | intents 1');
  });

  it('stop(cancel) cancels every order of the bot, adopted ones too; stop(keep) leaves them', async () => {
    const manual = (venue: SimulatedVenue): unknown => venue.placeOrder('main', { client_order_id: 'manual', symbol: 'BTCUSDT', side: 'sell', quantity: '0.5', price: '105' });
    const cancel = world({ plugin: recorder([], (ctx) => [buy(ctx, '1', '99.5')]), beforeStart: manual });
    await cancel.kernel.start();
    await cancel.settle();
    expect(cancel.venue.openOrders('main')).toHaveLength(2);
    await cancel.kernel.stop('cancel');
    expect(cancel.venue.openOrders('main')).toEqual([]);
    expect(cancel.kernel.status().engine).toBe('stopped');

    const keep = world({ plugin: recorder([], (ctx) => [buy(ctx, '1', '99.5')]), beforeStart: manual });
    await keep.kernel.start();
    await keep.settle();
    await keep.kernel.stop('keep');
    expect(keep.venue.openOrders('main')).toHaveLength(2);
  });

  it('keeps the order path warm from start to stop when asked, holding and counting nothing', async () => {
    const w = world({ plugin: recorder([], (ctx) => [buy(ctx, '1', '99.5')]), keepOrderPathWarmMs: 5 });
    expect(world({ plugin: recorder([], () => []) }).kernel.warmer).toBeUndefined();
    await w.kernel.start();
    await w.settle();
    const held = () => [w.kernel.ledger.reserved('USDT').toFixed(), w.kernel.ledger.free('USDT').toFixed(), w.kernel.pipeline.risk.ordersSentAfter(START - 1)];
    const before = held();
    const started = w.clock.now();
    w.scheduler.advanceTo(started + 50);
    // One open order: one replace dry run every 5 ms, and the place that made it once a run too.
    expect(w.kernel.warmer?.dryRuns).toBe(20);
    expect(held()).toEqual(before);
    await w.kernel.stop('keep');
    w.scheduler.advanceTo(started + 100);
    expect(w.kernel.warmer?.dryRuns).toBe(20);
  });
});
