import { setImmediate as macrotask } from 'node:timers/promises';
import { ReplaySubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedVenue } from '../../backtest/venue/simulated-venue.js';
import { ReplayedSymbolMarket } from '../../backtest/venue/matching/replayed-symbol-market.js';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { SimulatedVenuePort } from '../../backtest/venue/simulated-venue-port.js';
import { dec } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { OrderHandle } from '../../framework/runtime/order-handle.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel, type KernelHooks } from '../../framework/runtime/bot-kernel.js';
import type { IntentVerdict } from '../../framework/runtime/trading-pipeline.js';
import { virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { Strategy, StrategyContext, StrategyPlugin } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { book } from '../risk/risk-fixtures.js';
import { SYMBOLS, bookSnapshot } from '../backtest/sandbox/support/sandbox-fixture.js';

const BTC = new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!);
const START = 1_700_000_000_000;

function plugin(strategy: Strategy<unknown>): StrategyPlugin {
  return { name: 'stp', description: 'stop test', parseParams: (raw) => raw, create: () => strategy };
}

const buy = (ctx: StrategyContext, price: string): OrderHandle =>
  ctx.place({ symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('0.1'), price: dec(price) });

/** A kernel over the simulated venue on a virtual clock; `verdicts` and the strategy's reports are recorded. */
function world(strategy: Strategy<unknown>) {
  const clock = new VirtualClock(START);
  const scheduler = new VirtualClockScheduler(clock);
  const port = new SimulatedVenuePort('main');
  const venue = new SimulatedVenue([BTC], { main: { spot: { USDT: '1000', BTC: '2' } } }, (i) => new ReplayedSymbolMarket(i), (e) => port.onVenueEvent(e), clock.now());
  port.attach(venue);
  venue.onMarketFrame(bookSnapshot(), clock.now());
  const books = new ReplaySubject<BookEvent>(1);
  books.next({ kind: 'snapshot', symbol: 'BTCUSDT', sequence: 1, book: book(BTC, [['101.00', '1.5']], [['99.00', '1']]) });
  const verdicts: IntentVerdict[] = [];
  const hooks: KernelHooks = { onVerdict: (v) => verdicts.push(v) };
  const kernel = new BotKernel({
    botId: 'k', strategyId: 'stp', plugin: plugin(strategy), params: {}, instruments: [BTC], market: { books$: books, market$: new Subject<MarketEvent>() },
    venue: port, clock, schedulers: virtualSchedulers(scheduler), risk: {}, errorPolicy: 'halt', unknownOrders: 'adopt', hooks,
  });
  const settle = async (): Promise<void> => {
    do {
      scheduler.advanceTo(clock.now());
      await macrotask();
    } while (kernel.pipeline.inFlight > 0);
    scheduler.advanceTo(clock.now());
  };
  return { venue, kernel, settle, verdicts };
}

describe('BotKernel stop', () => {
  it('asked during the start-up reconciliation: the strategy never starts, nothing is placed', async () => {
    let started = false;
    let stopped = false;
    const { venue, kernel } = world({
      onStart: (ctx) => {
        started = true;
        return [buy(ctx, '99.5')];
      },
      onStop: () => void (stopped = true),
    });
    const starting = kernel.start();
    kernel.requestStop();
    await starting;
    expect(kernel.status().engine).toBe('stopped');
    const summary = await kernel.stop('cancel');
    expect([started, stopped]).toEqual([false, false]);
    expect(venue.openOrders('main')).toEqual([]);
    expect(summary).toEqual({ canceled: [], left: [], timedOut: false });
  });

  it('onStop of a started strategy: its cancels go out, its new orders are refused before the venue', async () => {
    const { venue, kernel, settle, verdicts } = world({
      onStart: (ctx) => [buy(ctx, '99.5'), buy(ctx, '99.4')],
      onStop: (ctx) => void [ctx.cancel(ctx.orders()[0]!, 'stop'), buy(ctx, '99.3')],
    });
    await kernel.start();
    await settle();
    const before = venue.openOrders('main').map((o) => o.client_order_id).sort();
    expect(before).toHaveLength(2);
    const rejected: string[] = [];
    kernel.adapter.reports$.subscribe((r) => {
      if (r.kind === 'rejected') rejected.push(`${r.intent.kind}:${r.message}`);
    });
    const summary = await kernel.stop('cancel');
    expect(rejected).toEqual(['place:the bot is stopping: no new orders']);
    expect(verdicts.filter((v) => v.kind === 'passed').map((v) => v.intent.kind)).toEqual(['place', 'place', 'cancel', 'place']);
    expect(venue.openOrders('main')).toEqual([]);
    // The onStop cancel took one order, the shutdown the other: both count as canceled by the stop.
    expect([...summary.canceled].sort()).toEqual(before);
    expect(summary.left).toEqual([]);
  });

  it('stop(keep) leaves open orders and names them', async () => {
    const { venue, kernel, settle } = world({ onStart: (ctx) => [buy(ctx, '99.5')] });
    await kernel.start();
    await settle();
    const summary = await kernel.stop('keep');
    expect(summary.left).toEqual(venue.openOrders('main').map((o) => o.client_order_id));
    expect(summary.left).toHaveLength(1);
  });
});
