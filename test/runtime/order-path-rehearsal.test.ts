import { NEVER, ReplaySubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { RehearsalVenuePort } from '../../framework/execution/rehearsal-venue-port.js';
import type { VenuePort } from '../../framework/execution/venue-port.js';
import { dec } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel, type KernelHooks } from '../../framework/runtime/bot-kernel.js';
import { REHEARSAL_BOOKS } from '../../framework/runtime/order-path-rehearsal.js';
import { liveSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { StrategyPlugin } from '../../framework/runtime/strategy.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { book } from '../risk/risk-fixtures.js';
import { SYMBOLS } from '../backtest/sandbox/support/sandbox-fixture.js';

const BTC = new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!);
const START = 1_700_000_000_000;

/** The bot's own venue: reads answered (nothing open, some USDT), every order request counted and refused. */
function countingVenue(): VenuePort & { readonly orderRequests: () => number } {
  let requests = 0;
  const refuse = (): Promise<never> => {
    requests++;
    return Promise.reject(new Error('the bot placed an order'));
  };
  return {
    account: 'spot', orderReports$: NEVER, balances$: NEVER, reconnected$: NEVER,
    placeOrder: refuse, placeOrderList: refuse, replaceOrder: refuse, cancelOrder: refuse, cancelAll: refuse,
    findOrder: () => Promise.resolve(undefined), openOrders: () => Promise.resolve([]), orderTrades: () => Promise.resolve([]),
    balances: () => Promise.resolve([{ currency: 'USDT', available: dec('1000'), reserved: dec('0') }]),
    orderRequests: () => requests,
  };
}

function bot(options: { keepOrderPathWarmMs?: number; onStart?: () => void; hooks?: KernelHooks }) {
  const venue = countingVenue();
  const books = new ReplaySubject<BookEvent>(1);
  books.next({ kind: 'snapshot', symbol: 'BTCUSDT', sequence: 1, book: book(BTC, [['101.00', '1.5']], [['99.00', '1']]) });
  const plugin: StrategyPlugin = { name: 'idle', description: 'places nothing', parseParams: (raw) => raw, create: () => ({ onStart: () => { options.onStart?.(); } }) };
  const kernel = new BotKernel({
    botId: 'k', strategyId: 'idle', plugin, params: {}, instruments: [BTC], market: { books$: books, market$: new Subject<MarketEvent>() },
    venue, clock: new VirtualClock(START), schedulers: liveSchedulers(), risk: { maxOrdersPerWindow: 50 }, errorPolicy: 'halt', unknownOrders: 'adopt',
    hooks: options.hooks, keepOrderPathWarmMs: options.keepOrderPathWarmMs,
  });
  return { kernel, venue };
}

describe('order-path rehearsal', () => {
  it('runs before the strategy starts when the order path is to be kept warm, through a venue and ids of its own', async () => {
    const seen: string[] = [];
    const hooks: KernelHooks = { onTrack: (info) => void seen.push(`track ${info.clientOrderId}`), onVerdict: (v) => void seen.push(`verdict ${v.kind}`) };
    let startedAfter: number | undefined;
    const { kernel, venue } = bot({ keepOrderPathWarmMs: 5, hooks, onStart: () => (startedAfter = kernel.rehearsal?.books) });
    await kernel.start();
    // Every book made intents (two quotes each, every sixteenth a cancel and then a place again):
    // the rate window (50 per second here) never refused one, as the rehearsal clock runs ahead.
    expect(kernel.rehearsal?.books).toBe(REHEARSAL_BOOKS);
    expect(kernel.rehearsal?.requests).toBeGreaterThan(1.8 * REHEARSAL_BOOKS);
    expect(startedAfter).toBe(REHEARSAL_BOOKS);
    // Nothing of it reached the bot: no order request at its venue, no journal hook, no id used.
    expect(venue.orderRequests()).toBe(0);
    expect(seen).toEqual([]);
    expect(kernel.ids.state().counter).toBe(0);
    expect(kernel.adapter.account.open()).toEqual([]);
    expect(kernel.ledger.reserved('USDT').toFixed()).toBe('0');
    await kernel.stop('cancel');
  });

  it('then runs a new instance of a rehearsable strategy, with the bot\'s parameters, on books of its own', async () => {
    const instances: { params: unknown; books: number; placed: number; fills: number }[] = [];
    const plugin: StrategyPlugin<{ quantity: string }> = {
      name: 'quoter', description: 'bids one lot every fourth book', rehearsable: true, parseParams: (raw) => raw as { quantity: string },
      create: (params) => {
        const seen = { params, books: 0, placed: 0, fills: 0 };
        instances.push(seen);
        return {
          onFill: () => void seen.fills++,
          onBook: (ctx, symbol, view) => {
            if (seen.books++ % 4 !== 0) return undefined;
            seen.placed++;
            const bid = view.bestBid();
            return bid === undefined ? undefined : [ctx.place({ symbol, side: 'buy', type: 'limit', quantity: dec(params.quantity), price: dec(bid.price), timeInForce: 'GTC' }, 'quote')];
          },
        };
      },
    };
    const venue = countingVenue();
    const kernel = new BotKernel({
      botId: 'k', strategyId: 'quoter', plugin: plugin as StrategyPlugin, params: { quantity: '0.001' }, instruments: [BTC], market: { books$: NEVER, market$: NEVER },
      venue, clock: new VirtualClock(START), schedulers: liveSchedulers(), risk: {}, errorPolicy: 'halt', unknownOrders: 'adopt', keepOrderPathWarmMs: 5,
    });
    await kernel.start();
    // The built-in strategy's run, then the quoter's: a quarter of its books made a request each.
    expect(kernel.rehearsal?.strategy).toBe('both');
    expect(kernel.rehearsal?.books).toBe(2 * REHEARSAL_BOOKS);
    expect(kernel.rehearsal?.requests).toBeGreaterThan(1.8 * REHEARSAL_BOOKS + REHEARSAL_BOOKS / 4 - 1);
    // The bot's own instance (made with the kernel), which has seen no book yet, then the rehearsal's two.
    // The rehearsal venue fills every twentieth order placed: 6 of each instance's 125.
    const half = { params: { quantity: '0.001' }, books: REHEARSAL_BOOKS / 2, placed: REHEARSAL_BOOKS / 8, fills: 6 };
    expect(instances).toEqual([{ params: { quantity: '0.001' }, books: 0, placed: 0, fills: 0 }, half, half]);
    expect(venue.orderRequests()).toBe(0);
    expect(kernel.ids.state().counter).toBe(0);
    await kernel.stop('cancel');
  });

  it('leaves a rehearsable strategy that throws in the rehearsal to the bot, which starts as configured', async () => {
    let ownBooks = 0;
    let instances = 0;
    const plugin: StrategyPlugin = {
      name: 'thrower', description: 'throws on synthetic books', rehearsable: true, parseParams: (raw) => raw,
      create: () => {
        const rehearsing = instances++ > 0;
        return {
          onBook: () => {
            if (rehearsing) throw new Error('not on these books');
            ownBooks++;
            return undefined;
          },
        };
      },
    };
    const books = new ReplaySubject<BookEvent>(1);
    books.next({ kind: 'snapshot', symbol: 'BTCUSDT', sequence: 1, book: book(BTC, [['101.00', '1.5']], [['99.00', '1']]) });
    const venue = countingVenue();
    const kernel = new BotKernel({
      botId: 'k', strategyId: 'thrower', plugin, params: {}, instruments: [BTC], market: { books$: books, market$: NEVER },
      venue, clock: new VirtualClock(START), schedulers: liveSchedulers(), risk: {}, errorPolicy: 'halt', unknownOrders: 'adopt', keepOrderPathWarmMs: 5,
    });
    await kernel.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(kernel.rehearsal?.strategy).toBe('both');
    expect(kernel.engine.status).toBe('running');
    expect(ownBooks).toBe(1);
    await kernel.stop('cancel');
  });

  it('keeps the built-in strategy\'s kernel standing while the bot trades, shown a book every interval, until the bot stops', async () => {
    const { kernel, venue } = bot({ keepOrderPathWarmMs: 2 });
    await kernel.start();
    const standing = kernel.standingRehearsal;
    expect(standing?.active).toBe(true);
    const afterStart = { books: standing?.books ?? 0, requests: standing?.requests ?? 0 };
    expect(afterStart.books).toBe(REHEARSAL_BOOKS);
    await new Promise((resolve) => setTimeout(resolve, 60));
    // Each book moves its two quotes: requests at its own stand-in venue, none at the bot's.
    const shown = kernel.warmer?.rehearsalBooks ?? 0;
    expect(shown).toBeGreaterThan(3);
    expect(standing?.books).toBe(afterStart.books + shown);
    expect(standing?.requests).toBeGreaterThan(afterStart.requests + shown);
    expect(venue.orderRequests()).toBe(0);
    expect(kernel.ids.state().counter).toBe(0);
    await kernel.stop('cancel');
    expect(standing?.active).toBe(false);
    const stoppedAt = standing?.books;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(standing?.books).toBe(stoppedAt);
    expect(standing?.step()).toBe(false);
  });

  it('rehearses without the bot\'s kill switch, which its synthetic mids would engage', async () => {
    const venue = countingVenue();
    const plugin: StrategyPlugin = { name: 'idle', description: 'places nothing', parseParams: (raw) => raw, create: () => ({}) };
    const kernel = new BotKernel({
      botId: 'k', strategyId: 'idle', plugin, params: {}, instruments: [BTC], market: { books$: NEVER, market$: NEVER },
      venue, clock: new VirtualClock(START), schedulers: liveSchedulers(), errorPolicy: 'halt', unknownOrders: 'adopt', keepOrderPathWarmMs: 2,
      risk: { maxOrdersPerWindow: 50, killSwitch: { maxDrawdown: '0.05', flatten: true } },
    });
    await kernel.start();
    // Both quotes move on every book, as without a kill switch (engaged, it denied most of them).
    expect(kernel.rehearsal?.requests).toBeGreaterThan(1.8 * REHEARSAL_BOOKS);
    const standing = kernel.standingRehearsal;
    const before = { books: standing?.books ?? 0, requests: standing?.requests ?? 0 };
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((standing?.requests ?? 0) - before.requests).toBeGreaterThan(1.8 * ((standing?.books ?? 0) - before.books) - 2);
    expect(venue.orderRequests()).toBe(0);
    await kernel.stop('cancel');
  });

  it('keeps no kernel standing when a stop is asked during start-up', async () => {
    const { kernel } = bot({ keepOrderPathWarmMs: 5 });
    const starting = kernel.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    kernel.requestStop();
    await starting;
    expect(kernel.standingRehearsal).toBeUndefined();
    await kernel.stop('cancel');
    expect(kernel.warmer?.rehearsalBooks).toBe(0);
  });

  it('runs the built-in strategy only for a strategy that is not rehearsable', async () => {
    const { kernel } = bot({ keepOrderPathWarmMs: 5 });
    await kernel.start();
    expect(kernel.rehearsal?.strategy).toBe('built-in');
    await kernel.stop('cancel');
  });

  it('is not run for a bot that does not keep its order path warm', async () => {
    const { kernel } = bot({});
    await kernel.start();
    expect(kernel.rehearsal).toBeUndefined();
    await kernel.stop('cancel');
  });

  it('ends at a stop asked during start-up, and the strategy never starts', async () => {
    let started = false;
    const { kernel, venue } = bot({ keepOrderPathWarmMs: 5, onStart: () => (started = true) });
    const starting = kernel.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    kernel.requestStop();
    await starting;
    expect(kernel.rehearsal?.books).toBeGreaterThan(0);
    expect(kernel.rehearsal?.books).toBeLessThan(REHEARSAL_BOOKS);
    expect(started).toBe(false);
    expect(venue.orderRequests()).toBe(0);
    await kernel.stop('cancel');
  });
});

describe('RehearsalVenuePort', () => {
  const at = (clock: VirtualClock): string => new Date(clock.now()).toISOString();

  it('accepts, moves and cancels orders as the exchange answers them, in its wire shapes; fills nothing', async () => {
    const clock = new VirtualClock(START);
    const port = new RehearsalVenuePort('spot', clock, ['BTC', 'USDT']);
    const reports: OrderReport[] = [];
    port.orderReports$.subscribe((r) => reports.push(r));
    const placed = await port.placeOrder({ client_order_id: 'a', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('0.001'), price: dec('99.5'), time_in_force: 'GTC', post_only: true });
    expect(placed).toMatchObject({ client_order_id: 'a', status: 'new', post_only: true, time_in_force: 'GTC' });
    expect(placed.price?.toFixed()).toBe('99.5');
    expect(placed.quantity_cumulative.toFixed()).toBe('0');
    clock.advanceBy(1000);
    const moved = await port.replaceOrder('a', { new_client_order_id: 'b', quantity: dec('0.002'), price: dec('99.6') });
    expect(moved).toMatchObject({ client_order_id: 'b', original_client_order_id: 'a', status: 'new', updated_at: clock.now() });
    expect([moved.quantity.toFixed(), moved.price?.toFixed()]).toEqual(['0.002', '99.6']);
    await expect(port.replaceOrder('a', { new_client_order_id: 'c', quantity: dec('1') })).rejects.toThrow(/no open order a/);
    const canceled = await port.cancelOrder('b');
    expect(canceled.status).toBe('canceled');
    expect(port.openCount).toBe(0);
    expect(await port.openOrders()).toEqual([]);
    // Reports come in later turns, as socket messages would: one per change, a replace's naming the old order.
    expect(reports).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reports.map((r) => `${r.report_type} ${r.client_order_id} ${r.status} ${r.original_client_order_id ?? ''}`)).toEqual([
      'new a new ', 'replaced b new a', 'canceled b canceled a',
    ]);
    expect(at(clock)).toBe(new Date(START + 1000).toISOString());
    expect((await port.balances()).map((b) => `${b.currency} ${b.available.toFixed()} ${b.reserved.toFixed()}`)).toEqual(['BTC 1000000000 0', 'USDT 1000000000 0']);
    expect(port.requests).toBe(4);
    port.close();
  });

  it('fills every twentieth order it places, in full at its limit price, after its new report', async () => {
    const clock = new VirtualClock(START);
    const port = new RehearsalVenuePort('spot', clock, ['BTC', 'USDT']);
    const reports: OrderReport[] = [];
    port.orderReports$.subscribe((r) => reports.push(r));
    for (let i = 1; i <= 40; i++) {
      await port.placeOrder({ client_order_id: `o${i}`, symbol: 'BTCUSDT', side: i % 2 === 0 ? 'buy' : 'sell', type: 'limit', quantity: dec('0.001'), price: dec(`99.${i}`), time_in_force: 'GTC' });
    }
    await new Promise((resolve) => setImmediate(resolve));
    const trades = reports.filter((r) => r.report_type === 'trade');
    expect(trades.map((r) => [r.client_order_id, r.status, r.quantity_cumulative.toFixed(), r.trade_quantity?.toFixed(), r.trade_price?.toFixed(), r.trade_id])).toEqual([
      ['o20', 'filled', '0.001', '0.001', '99.2', '1'], ['o40', 'filled', '0.001', '0.001', '99.4', '2'],
    ]);
    // Each trade report follows its order's new report.
    expect(reports.findIndex((r) => r.client_order_id === 'o20' && r.report_type === 'new')).toBeLessThan(reports.indexOf(trades[0]!));
    expect([port.openCount, port.fills]).toEqual([38, 2]);
    port.close();
  });
});
