import { Subject } from 'rxjs';
import type { BookEvent } from '../framework/exchange/book/book-event.js';
import { OrderBook } from '../framework/exchange/book/order-book.js';
import { dec } from '../framework/model/decimal.js';
import type { Intent } from '../framework/model/intent.js';
import type { TradingBalance } from '../framework/model/resources/balance.js';
import type { OrderUpdateReport, StrategyReport } from '../framework/model/strategy-report.js';
import type { MarketEvent } from '../framework/model/stream/market-events.js';
import { schedulerClock, virtualSchedulers } from '../framework/runtime/runtime-ports.js';
import { StrategyEngine } from '../framework/runtime/strategy-engine.js';
import type { Strategy } from '../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../framework/time/clock.js';
import { printTable, type Row } from './support/report.js';

const EVENTS = 500_000;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT'];

/**
 * Events/s through the StrategyEngine on virtual time: book updates round-robin over four
 * symbols, one drain per event (the worst case: no batching, no conflation), for
 * (a) a no-op strategy, (b) one that returns one place intent per book update (the sink counts
 * them), and (c) the same with 100 updates per drain, where conflation leaves one per symbol.
 */
export async function run(): Promise<void> {
  const spec = { symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('0.01'), price: dec('100') } as const;
  const noop: Strategy = { onBook: () => undefined };
  const quoting: Strategy = { onBook: (ctx) => ctx.place(spec) };
  const rows: Row[] = [
    measure('no-op strategy, 1 event/drain', noop, 1),
    measure('1 intent per book, 1 event/drain', quoting, 1),
    measure('1 intent per book, 100 events/drain', quoting, 100),
  ];
  printTable('strategy engine throughput', rows);
}

function measure(name: string, strategy: Strategy, perDrain: number): Row {
  const scheduler = new VirtualClockScheduler(new VirtualClock(0));
  const books = new Subject<BookEvent>();
  let intents = 0;
  const engine = new StrategyEngine({
    strategyId: 'bench', strategy, params: {}, errorPolicy: 'halt',
    sink: { submit: (_intent: Intent) => void intents++, reports$: new Subject<StrategyReport>() },
    market: { books$: books, market$: new Subject<MarketEvent>() },
    account: { orderReports$: new Subject<OrderUpdateReport>(), balances$: new Subject<readonly TradingBalance[]>() },
    clock: schedulerClock(scheduler), schedulers: virtualSchedulers(scheduler),
  });
  const events: BookEvent[] = SYMBOLS.map((symbol, i) => ({ kind: 'update', symbol, sequence: i, book: new OrderBook(symbol, { windowSize: 64 }) }));
  engine.start();
  const feed = (count: number): void => {
    for (let i = 0; i < count; i++) {
      books.next(events[i % events.length] as BookEvent);
      if ((i + 1) % perDrain === 0) scheduler.flush();
    }
    scheduler.flush();
  };
  feed(20_000); // warm-up
  const before = { dispatched: engine.stats.dispatched, intents };
  const started = performance.now();
  feed(EVENTS);
  const seconds = (performance.now() - started) / 1000;
  engine.stop();
  return {
    case: name,
    'events/s': EVENTS / seconds,
    dispatched: engine.stats.dispatched - before.dispatched,
    intents: intents - before.intents,
    'ns/event': (seconds * 1e9) / EVENTS,
  };
}
