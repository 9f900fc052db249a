import { Bench } from 'tinybench';
import { parseOrderBookFrames, type OrderBookFrame } from '../framework/exchange/book/order-book-frame.js';
import { Instrument } from '../framework/model/instrument.js';
import { parseSymbolInfo, type SymbolInfo } from '../framework/model/resources/symbol.js';
import { parseTradeTick } from '../framework/model/stream/market-records.js';
import { scaleOf } from '../framework/model/scaled.js';
import { GridReader } from '../backtest/venue/matching/grid-reader.js';
import type { OutsideTrade } from '../backtest/venue/matching/outside-trade.js';
import { ReplayedSymbolMarket } from '../backtest/venue/matching/replayed-symbol-market.js';
import type { RecordedMessage } from './support/recording-messages.js';
import { bookDataSets, type BookDataSet } from './support/book-data-sets.js';
import { benchClock, runBudget } from './support/bench-clock.js';
import { collectGarbage } from './support/collect-garbage.js';
import { printTable, type Row } from './support/report.js';

/** Our working orders: this many per side, one tick apart from the touch outwards. */
const ORDERS_PER_SIDE = 5;

type MarketEvent = { readonly book: OrderBookFrame } | { readonly trades: readonly OutsideTrade[] };

/**
 * ReplayedSymbolMarket on real depth diffs and trades with 10 of our orders resting (5 per side
 * at the touch and the next ticks; a filled order is placed again at the current touch, so 10
 * stay in the queues): (a0) book frames with no order of ours (the outside book alone: level
 * conversion and ladder writes), (a) book frames alone (level conversion, ladder writes, queue updates of
 * our levels, crossing check), (b) public trades alone (queue and trade-through fills), (c) the
 * recording interleaved as the venue sees it. Frames are parsed and trades converted to ticks
 * before timing (the venue's parsers do that work), from the text, per data set; each iteration
 * starts from the market reset to the initial snapshot with our orders placed again (untimed; see
 * restart). Runs on each data set (see bookDataSets: recorded
 * ETHUSDT, synthetic BTCUSDT) and reports the level changes of (a) per second too.
 */
export async function run(): Promise<void> {
  const summary: Row[] = [];
  for (const set of await bookDataSets()) summary.push(await runOn(set));
  printTable('matching summary: (a) book frames, per data set', summary);
}

async function runOn(set: BookDataSet): Promise<Row> {
  const { header, messages } = set;
  const symbol = busiestBookSymbol(messages);
  const info = header.symbols[symbol] ?? inferredInfo(messages, symbol);
  const instrument = new Instrument(symbol, info);
  const { snapshot, events } = symbolEvents(messages, symbol, new GridReader(instrument));
  const books = events.filter((e): e is { book: OrderBookFrame } => 'book' in e);
  const trades = events.filter((e): e is { trades: readonly OutsideTrade[] } => 'trades' in e);
  const tradeCount = trades.reduce((n, e) => n + e.trades.length, 0);
  const levelChanges = books.reduce((n, e) => n + e.book.bids.length + e.book.asks.length, 0);

  const market = new ReplayedSymbolMarket(instrument);
  let fills = 0;
  const reset = { beforeAll: collectGarbage, beforeEach: () => { restart(market, snapshot); } };
  const resetBare = { beforeAll: collectGarbage, beforeEach: () => { restart(market, snapshot, 0); } };
  const clock = benchClock();
  const budget = runBudget(3000, () => restart(market, snapshot), () => replay(market, events));
  const bench = new Bench({ ...budget, ...(clock.now === undefined ? {} : { now: clock.now }) });
  bench.add('(a0) book frames, no order resting', () => { fills += replay(market, books); }, resetBare);
  bench.add('(a) book frames', () => { fills += replay(market, books); }, reset);
  bench.add('(b) trades', () => { fills += replay(market, trades); }, reset);
  bench.add('(c) interleaved replay', () => { fills += replay(market, events); }, reset);
  await bench.run();

  const perTask = bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
    return { name: task.name, ms: result.latency.mean, rme: result.latency.rme };
  });
  const [a0, a, b, c] = perTask as [(typeof perTask)[0], (typeof perTask)[0], (typeof perTask)[0], (typeof perTask)[0]];
  console.log(`\nmatching: ${set.label} (${set.source}), ${symbol} (tick ${info.tick_size.toFixed()}, lot ${info.quantity_increment.toFixed()}); timed in ${clock.name}`);
  console.log(`${books.length.toLocaleString('en-US')} book frames, ${tradeCount.toLocaleString('en-US')} trades in ${trades.length.toLocaleString('en-US')} frames, ${ORDERS_PER_SIDE * 2} resting orders, ${fills.toLocaleString('en-US')} fills over all iterations`);
  printTable('throughput', [
    { task: a0.name, 'per second': (books.length * 1000) / a0.ms, unit: 'book frames', 'ns each': (a0.ms * 1e6) / books.length, 'rme %': a0.rme },
    { task: a.name, 'per second': (books.length * 1000) / a.ms, unit: 'book frames', 'ns each': (a.ms * 1e6) / books.length, 'rme %': a.rme },
    { task: b.name, 'per second': (tradeCount * 1000) / b.ms, unit: 'trades', 'ns each': (b.ms * 1e6) / tradeCount, 'rme %': b.rme },
    { task: c.name, 'per second': (events.length * 1000) / c.ms, unit: 'frames', 'ns each': (c.ms * 1e6) / events.length, 'rme %': c.rme },
  ]);
  return {
    'data set': set.label,
    'book frames': books.length,
    'level changes': levelChanges,
    '(a0) ns/frame': (a0.ms * 1e6) / books.length,
    '(a0) ns/level change': (a0.ms * 1e6) / levelChanges,
    '(a) ns/frame': (a.ms * 1e6) / books.length,
    '(a) ns/level change': (a.ms * 1e6) / levelChanges,
  };
}

/** Feeds events, keeping 10 orders resting; returns the number of fills. */
function replay(market: ReplayedSymbolMarket, events: readonly MarketEvent[]): number {
  let fills = 0;
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as MarketEvent;
    const got = 'book' in event ? market.applyBookFrame(event.book) : market.applyTrades(event.trades);
    if (got.length === 0) continue;
    fills += got.length;
    for (const fill of got) if (market.queueState(fill.orderKey) === undefined) restAgain(market, fill.orderKey);
  }
  return fills;
}

/** Keys 0..4 are bids, 5..9 asks; the key's rank is its distance from the touch in ticks. */
function restAgain(market: ReplayedSymbolMarket, key: number): void {
  const buy = key < ORDERS_PER_SIDE;
  const rank = buy ? key : key - ORDERS_PER_SIDE;
  const touch = buy ? market.bestBidTicks : market.bestAskTicks;
  if (Number.isNaN(touch)) return;
  market.rest(key, buy ? 'buy' : 'sell', buy ? Math.max(1, touch - rank) : touch + rank, 10);
}

/**
 * Brings the market back to the initial snapshot with our orders placed again: the snapshot
 * replaces the outside book, as a resync does in a venue's long-lived market. A new market per
 * iteration would allocate its dense windows (MiBs of typed arrays) thousands of times a second,
 * and the garbage collections that this external memory triggers mark the whole heap (every data
 * set) on background threads, whose CPU time BENCH_CLOCK=cpu charged to the timed iterations:
 * ~1.5x per level change on the second data set, none of it the matching's.
 */
function restart(market: ReplayedSymbolMarket, snapshot: OrderBookFrame, ordersPerSide = ORDERS_PER_SIDE): void {
  for (let key = 0; key < 2 * ORDERS_PER_SIDE; key++) market.remove(key);
  market.applyBookFrame(snapshot);
  for (let rank = 0; rank < ordersPerSide; rank++) {
    restAgain(market, rank);
    restAgain(market, ORDERS_PER_SIDE + rank);
  }
}

function busiestBookSymbol(messages: readonly RecordedMessage[]): string {
  const counts = new Map<string, number>();
  for (const m of messages) for (const f of parseOrderBookFrames(m.msg, m.t)) counts.set(f.symbol, (counts.get(f.symbol) ?? 0) + 1);
  const best = [...counts].sort((x, y) => y[1] - x[1])[0];
  if (best === undefined) throw new Error('no order book frames in the recording');
  return best[0];
}

/** A grid fine enough for every value of the symbol's frames, for recordings without symbol info. */
function inferredInfo(messages: readonly RecordedMessage[], symbol: string): SymbolInfo {
  let priceScale = 0;
  let quantityScale = 0;
  for (const m of messages) {
    for (const f of parseOrderBookFrames(m.msg, m.t)) {
      if (f.symbol !== symbol) continue;
      for (const [p, q] of [...f.bids, ...f.asks]) {
        priceScale = Math.max(priceScale, scaleOf(p));
        quantityScale = Math.max(quantityScale, scaleOf(q));
      }
    }
  }
  const step = (scale: number): string => (scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`);
  return parseSymbolInfo({
    type: 'spot', base_currency: 'BASE', quote_currency: 'QUOTE', tick_size: step(priceScale), quantity_increment: step(quantityScale),
    take_rate: '0.001', make_rate: '0.001', fee_currency: 'QUOTE',
  });
}

/** The first snapshot of `symbol`, then its book frames and trades in recorded order. */
function symbolEvents(messages: readonly RecordedMessage[], symbol: string, grid: GridReader): { snapshot: OrderBookFrame; events: MarketEvent[] } {
  let snapshot: OrderBookFrame | undefined;
  const events: MarketEvent[] = [];
  for (const m of messages) {
    // Parsed again from the text, here, just before this data set's runs: the frames then lie in
    // the heap in replay order, as frames parsed as they arrive do, instead of wherever loading
    // every data set left the shared parsed messages (scattered among other objects, which cost
    // a later data set ~1.5x per level change in cache misses).
    const parsed: unknown = JSON.parse(m.text);
    for (const frame of parseOrderBookFrames(parsed, m.t)) {
      if (frame.symbol !== symbol) continue;
      if (snapshot === undefined && frame.snapshot) snapshot = frame;
      else if (snapshot !== undefined) events.push({ book: frame });
    }
    const msg = parsed as { ch?: unknown; update?: Record<string, unknown[]>; snapshot?: Record<string, unknown[]> };
    const records = msg.ch === 'trades' ? (msg.update ?? msg.snapshot)?.[symbol] : undefined;
    if (snapshot === undefined || !Array.isArray(records)) continue;
    events.push({ trades: records.map((r, i) => grid.trade(parseTradeTick(r, `trades[${i}]`))) });
  }
  if (snapshot === undefined) throw new Error(`no snapshot of ${symbol}`);
  return { snapshot, events };
}
