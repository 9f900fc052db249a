import { afterEach, describe, expect, it } from 'vitest';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { OrderBook } from '../../framework/exchange/book/order-book.js';
import type { DecisionFrame } from '../../framework/model/decision-frame.js';
import { schedulerClock, virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import { StrategyEngine } from '../../framework/runtime/strategy-engine.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { FakePorts, trades } from './runtime-fixtures.js';

const engines: StrategyEngine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop();
});

/** A book event whose book last applied frame `sequence`, received at `receivedAt`, stamped `exchangeTime`. */
function bookFrame(symbol: string, sequence: number, exchangeTime: number, receivedAt: number): BookEvent {
  const book = new OrderBook(symbol, { windowSize: 64 });
  book.sequence = sequence;
  book.exchangeTime = exchangeTime;
  book.receivedAt = receivedAt;
  return { kind: 'update', symbol, sequence, book };
}

describe('StrategyEngine.decisionFrame', () => {
  it('is the frame whose handler runs, and for a timer the last frame shown before it', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const ports = new FakePorts();
    const seen: (DecisionFrame | undefined)[] = [];
    // Handlers run only after start(), when `engine` is set.
    const look = (): void => void seen.push(engine.decisionFrame);
    const engine: StrategyEngine = new StrategyEngine({
      strategyId: 'mm', params: {}, sink: ports.sink, market: ports.marketSource, account: ports.account,
      clock: schedulerClock(scheduler), schedulers: virtualSchedulers(scheduler), errorPolicy: 'halt',
      strategy: { onStart: (ctx) => (look(), ctx.setTimer('t', 50)), onBook: look, onTrades: look, onTimer: look },
    });
    engines.push(engine);
    engine.start();
    scheduler.advanceTo(10);
    ports.books.next(bookFrame('BTCUSDT', 41, 8, 9.5));
    scheduler.advanceTo(20);
    ports.market.next(trades('ETHUSDT', 19));
    scheduler.advanceTo(30);
    scheduler.advanceTo(60);
    expect(seen).toEqual([
      undefined,
      { symbol: 'BTCUSDT', receivedAt: 9.5, exchangeTime: 8, sequence: 41, index: 1 },
      { symbol: 'ETHUSDT', receivedAt: 19, exchangeTime: 19, index: 2 },
      { symbol: 'ETHUSDT', receivedAt: 19, exchangeTime: 19, index: 2 },
    ]);
  });
});
