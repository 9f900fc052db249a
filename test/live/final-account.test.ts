import { setImmediate as macrotask } from 'node:timers/promises';
import { ReplaySubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedVenue } from '../../backtest/venue/simulated-venue.js';
import { ReplayedSymbolMarket } from '../../backtest/venue/matching/replayed-symbol-market.js';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { SimulatedVenuePort } from '../../backtest/venue/simulated-venue-port.js';
import { finalAccount } from '../../framework/live/final-account.js';
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
const START = 1_700_000_000_000;

/** Bids 0.3 at 99.50 and asks 0.1 at 100.50 at start. */
const plugin: StrategyPlugin<Record<string, never>> = {
  name: 's',
  description: 'two resting orders',
  parseParams: () => ({}),
  create: () => ({
    onStart: (ctx) => [
      ctx.place({ symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('0.3'), price: dec('99.50') }),
      ctx.place({ symbol: 'BTCUSDT', side: 'sell', type: 'limit', quantity: dec('0.1'), price: dec('100.50') }),
    ],
  }),
};

describe('finalAccount', () => {
  it('gives the position, the fills\' flows (fees included) and the last balances as exact strings', async () => {
    const clock = new VirtualClock(START);
    const scheduler = new VirtualClockScheduler(clock);
    const port = new SimulatedVenuePort('main');
    const venue = new SimulatedVenue([BTC], { main: { spot: { USDT: '1000', BTC: '2' } } }, (i) => new ReplayedSymbolMarket(i), (e) => port.onVenueEvent(e), clock.now());
    venue.onMarketFrame(bookSnapshot(), clock.now());
    port.attach(venue);
    const books = new ReplaySubject<BookEvent>(1);
    books.next({ kind: 'snapshot', symbol: 'BTCUSDT', sequence: 1, book: book(BTC, [['101.00', '1.5']], [['99.00', '1']]) });
    const kernel = new BotKernel({
      botId: 'b', strategyId: 's', plugin, params: {}, instruments: [BTC], market: { books$: books, market$: new Subject<MarketEvent>() },
      venue: port, clock, schedulers: virtualSchedulers(scheduler), risk: {}, errorPolicy: 'halt', unknownOrders: 'adopt',
    });
    const settle = async () => {
      do {
        scheduler.advanceTo(clock.now());
        await macrotask();
      } while (kernel.pipeline.inFlight > 0);
    };
    await kernel.start();
    await settle();
    expect(finalAccount(kernel, 's', [BTC])).toEqual({
      positions: { BTCUSDT: '0' }, flows: { BTC: '0', USDT: '0' }, balances: { USDT: '1000', BTC: '2' },
    });

    // Prints through both quotes fill them as a maker (fee rate 0.0005, paid in USDT).
    clock.advanceTo(START + 1000);
    venue.onMarketFrame({ ch: 'trades', update: { BTCUSDT: [{ t: clock.now(), i: 1, p: '99.40', q: '0.3', s: 'sell' }] } }, clock.now());
    clock.advanceTo(START + 2000);
    venue.onMarketFrame({ ch: 'trades', update: { BTCUSDT: [{ t: clock.now(), i: 2, p: '100.60', q: '0.1', s: 'buy' }] } }, clock.now());
    await settle();

    // Bought 0.3 x 99.50 = 29.85 (fee 0.014925), sold 0.1 x 100.50 = 10.05 (fee 0.005025).
    expect(finalAccount(kernel, 's', [BTC])).toEqual({
      positions: { BTCUSDT: '0.2' },
      flows: { BTC: '0.2', USDT: '-19.81995' },
      balances: { USDT: '980.18005', BTC: '2.2' },
    });
    await kernel.stop('keep');
  });
});
