import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as macrotask } from 'node:timers/promises';
import { ReplaySubject, Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedVenue } from '../../backtest/venue/simulated-venue.js';
import { ReplayedSymbolMarket } from '../../backtest/venue/matching/replayed-symbol-market.js';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { SimulatedVenuePort } from '../../backtest/venue/simulated-venue-port.js';
import { Journal } from '../../framework/live/journal.js';
import { dec } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel } from '../../framework/runtime/bot-kernel.js';
import { virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { StrategyPlugin } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { book } from '../risk/risk-fixtures.js';
import { SYMBOLS, bookSnapshot } from '../backtest/sandbox/support/sandbox-fixture.js';

const BTC = new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!);
const START = 1_700_000_000_000; // 2023-11-14
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Places three resting orders at start when `place` is set; does nothing else. */
const plugin: StrategyPlugin<{ place: boolean }> = {
  name: 's',
  description: 'three resting orders',
  parseParams: (raw) => raw as { place: boolean },
  create: () => ({
    onStart: (ctx) => (!ctx.params.place ? [] : [
      ctx.place({ symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec('99.5') }),
      ctx.place({ symbol: 'BTCUSDT', side: 'sell', type: 'limit', quantity: dec('0.5'), price: dec('100.5') }),
      ctx.place({ symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('0.2'), price: dec('98.5') }),
    ]),
  }),
};

/** One simulated venue whose reports go to whichever port is current (the bot's process restarts, the venue does not). */
function world() {
  const clock = new VirtualClock(START);
  const scheduler = new VirtualClockScheduler(clock);
  let port = new SimulatedVenuePort('main');
  const venue = new SimulatedVenue([BTC], { main: { spot: { USDT: '1000', BTC: '2' } } }, (i) => new ReplayedSymbolMarket(i), (e) => port.onVenueEvent(e), clock.now());
  venue.onMarketFrame(bookSnapshot(), clock.now());
  const dir = mkdtempSync(path.join(tmpdir(), 'journal-restart-'));
  dirs.push(dir);
  /** A fresh process: a new port, journal and kernel, restored from what the journal says. */
  const boot = (place: boolean) => {
    port = new SimulatedVenuePort('main');
    port.attach(venue);
    const journal = new Journal({ dir, botId: 'b', syncEveryMs: 0, now: () => clock.now() });
    const recovered = journal.recover(new ClientOrderIdGenerator('b', clock));
    journal.open();
    const books = new ReplaySubject<BookEvent>(1);
    books.next({ kind: 'snapshot', symbol: 'BTCUSDT', sequence: 1, book: book(BTC, [['101.00', '1.5']], [['99.00', '1']]) });
    const kernel = new BotKernel({
      botId: 'b', strategyId: 's', plugin, params: { place }, instruments: [BTC], market: { books$: books, market$: new Subject<MarketEvent>() },
      venue: port, clock, schedulers: virtualSchedulers(scheduler), risk: {}, errorPolicy: 'halt', unknownOrders: 'adopt',
      hooks: journal, resumeIds: recovered.ids,
    });
    kernel.restore(recovered.orders);
    return { kernel, journal, recovered };
  };
  const settle = async (kernel: BotKernel): Promise<void> => {
    do {
      scheduler.advanceTo(clock.now());
      await macrotask();
    } while (kernel.pipeline.inFlight > 0);
  };
  const trade = (price: string, quantity: string, side: 'buy' | 'sell', id: number): void => {
    clock.advanceTo(START + id * 1000);
    venue.onMarketFrame({ ch: 'trades', update: { BTCUSDT: [{ t: clock.now(), i: id, p: price, q: quantity, s: side }] } }, clock.now());
  };
  return { venue, boot, settle, trade };
}

/** What must survive a restart: open orders with their progress, and the position. */
function picture(kernel: BotKernel) {
  const open = kernel.adapter.account.open().map((t) => [t.clientOrderId, t.status, t.quantityCumulative.toFixed()]).sort();
  const position = kernel.adapter.account.positions.position('s', 'BTCUSDT');
  return { open, position: position?.quantity.toFixed(), average: position?.averagePrice?.toFixed(), status: kernel.status().openOrders };
}

describe('restart from the journal', () => {
  it('a kernel restored from the journal and reconciled ends with the same open orders and position (no duplicate, no orphan)', async () => {
    const w = world();
    const first = w.boot(true);
    await first.kernel.start();
    await w.settle(first.kernel);
    expect(w.venue.openOrders('main')).toHaveLength(3);
    w.trade('99.5', '0.4', 'sell', 1);
    first.kernel.pipeline.submit({ kind: 'cancel', intentId: 'c', strategyId: 's', clientOrderId: 'b_20231114_3' });
    await w.settle(first.kernel);
    const before = picture(first.kernel);
    expect(before).toMatchObject({ open: [['b_20231114_1', 'partiallyFilled', '0.4'], ['b_20231114_2', 'new', '0']], position: '0.4', status: 2 });
    // Killed: nothing is stopped or canceled; only what the journal wrote survives.
    first.journal.close();

    const second = w.boot(false);
    expect(second.recovered.ids).toEqual({ day: '20231114', counter: 3 });
    expect(second.recovered.orders.map((o) => [o.info.clientOrderId, o.finished, o.fills.length])).toEqual([
      ['b_20231114_1', false, 1], ['b_20231114_2', false, 0], ['b_20231114_3', true, 0],
    ]);
    const summary = await second.kernel.start();
    await w.settle(second.kernel);
    expect(summary.adopted).toEqual([]);
    expect(picture(second.kernel)).toEqual(before);
    expect(w.venue.openOrders('main').map((o) => o.client_order_id).sort()).toEqual(['b_20231114_1', 'b_20231114_2']);
    expect(second.kernel.ids.next()).toBe('b_20231114_4');

    // The restored order goes on: its next execution is booked once, on top of the journaled one.
    w.trade('99.5', '0.6', 'sell', 2);
    await w.settle(second.kernel);
    expect(second.kernel.adapter.account.get('b_20231114_1')?.status).toBe('filled');
    expect(second.kernel.adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('1');
    second.journal.close();
  });

  // Bug: restored orders carry their intentId, so TradingPipeline.syncOrder (holdsFundsUnreserved)
  // gives them no reservation; only adopted orders (no intentId) get one. After a restart the
  // ledger treats the funds the exchange holds for them as free, and the gate passes intents the
  // exchange must refuse.
  it('restored open orders hold their funds in the ledger again after the restart', async () => {
    const w = world();
    const first = w.boot(true);
    await first.kernel.start();
    await w.settle(first.kernel);
    const held = { USDT: first.kernel.ledger.reserved('USDT').toFixed(), BTC: first.kernel.ledger.reserved('BTC').toFixed() };
    expect(held.BTC).toBe('0.5');
    first.journal.close();
    const second = w.boot(false);
    await second.kernel.start();
    await w.settle(second.kernel);
    expect({ USDT: second.kernel.ledger.reserved('USDT').toFixed(), BTC: second.kernel.ledger.reserved('BTC').toFixed() }).toEqual(held);
    second.journal.close();
  });

  // The risk view reads positions from the account state (once a cached copy, refreshed on fills
  // only, said 0 after a restart until the next fill): max-position, the kill switch's "reducing"
  // test and flattenIntents all read it.
  it('the risk view has the restored position after the restart', async () => {
    const w = world();
    const first = w.boot(true);
    await first.kernel.start();
    await w.settle(first.kernel);
    w.trade('99.5', '0.4', 'sell', 1);
    expect(first.kernel.pipeline.risk.position('BTCUSDT')?.toFixed()).toBe('0.4');
    first.journal.close();
    const second = w.boot(false);
    await second.kernel.start();
    await w.settle(second.kernel);
    expect(second.kernel.adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('0.4');
    second.kernel.pipeline.submit({ kind: 'cancel', intentId: 'c2', strategyId: 's', clientOrderId: 'b_20231114_3' });
    await w.settle(second.kernel);
    expect(second.kernel.pipeline.risk.position('BTCUSDT')?.toFixed()).toBe('0.4');
    second.journal.close();
  });

  it('a partially filled order replaced before the crash: its fill counts once after the restart', async () => {
    const w = world();
    const first = w.boot(true);
    await first.kernel.start();
    await w.settle(first.kernel);
    w.trade('99.5', '0.4', 'sell', 1);
    first.kernel.pipeline.submit({ kind: 'replace', intentId: 'r', strategyId: 's', clientOrderId: 'b_20231114_1', quantity: dec('1'), price: dec('99.6') });
    await w.settle(first.kernel);
    const before = picture(first.kernel);
    expect(before.open.map((o) => o[0])).toEqual(['b_20231114_2', 'b_20231114_3', 'b_20231114_4']);
    expect(before.position).toBe('0.4');
    first.journal.close();
    const second = w.boot(false);
    const summary = await second.kernel.start();
    await w.settle(second.kernel);
    expect(summary.adopted).toEqual([]);
    expect(picture(second.kernel)).toEqual(before);
    w.trade('99.6', '0.6', 'sell', 2);
    await w.settle(second.kernel);
    expect(second.kernel.adapter.account.get('b_20231114_4')?.status).toBe('filled');
    expect(second.kernel.adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('1');
    second.journal.close();
  });

  it('an adopted order that executed before the crash keeps its position after the restart', async () => {
    const w = world();
    w.venue.placeOrder('main', { client_order_id: 'manual', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '99.7' });
    const first = w.boot(false);
    expect((await first.kernel.start()).adopted).toEqual(['manual']);
    await w.settle(first.kernel);
    w.trade('99.7', '0.3', 'sell', 1);
    const before = picture(first.kernel);
    expect(before).toMatchObject({ open: [['manual', 'partiallyFilled', '0.3']], position: '0.3' });
    first.journal.close();
    const second = w.boot(false);
    await second.kernel.start();
    await w.settle(second.kernel);
    expect(picture(second.kernel)).toEqual(before);
    second.journal.close();
  });
});
