import { Bench } from 'tinybench';
import { Instrument } from '../framework/model/instrument.js';
import { OrderBook } from '../framework/exchange/book/order-book.js';
import { OrderBookKeeper } from '../framework/exchange/book/order-book-keeper.js';
import { parseOrderBookFrames, type OrderBookFrame } from '../framework/exchange/book/order-book-frame.js';
import type { RecordedMessage } from './support/recording-messages.js';
import { bookDataSets, type BookDataSet } from './support/book-data-sets.js';
import { benchClock, runBudget } from './support/bench-clock.js';
import { collectGarbage } from './support/collect-garbage.js';
import { printTable, type Row } from './support/report.js';

const NO_RESYNC = { resync: async (): Promise<void> => {} };

/**
 * L2 book cost against the JSON decoding it rides on, on real depth diffs, each stage timed on
 * its own over every update of the recording (one iteration replays them all):
 * (a) `JSON.parse` of each update frame's text;
 * (b) `parseOrderBookFrames` on the already-parsed object (validation and extraction);
 * (c) `book.apply(frame)` + a best bid/ask read, frames prepared beforehand, the books reset to
 *     the initial snapshots (untimed) before each iteration (see resetBooks);
 * (d) the keeper end to end on the parsed object: (b) + (c) + sequence and crossed checks (a new
 *     keeper per iteration, whose snapshots make new books).
 * (c) and (d) walk ~20 MB of frames prepared beforehand, so they pay a cache miss or more per
 * level that a frame applied right after its JSON.parse does not.
 * Targets: (c) / (a) <= 0.25 (applying a parsed update) and (c) <= 60 ns per level change, on
 * each data set (see bookDataSets: recorded ETHUSDT, synthetic BTCUSDT); (b)/(a) and (b+c)/(a)
 * are reported too.
 */
export async function run(): Promise<void> {
  const summary: Row[] = [];
  for (const set of await bookDataSets()) summary.push(await runOn(set));
  printTable('book summary: (c) apply, per data set', summary);
}

async function runOn(set: BookDataSet): Promise<Row> {
  const { header, messages } = set;
  const instruments = new Map(Object.entries(header.symbols).map(([s, info]) => [s, new Instrument(s, info)]));
  const { snapshots, updates, levelChanges } = splitBookMessages(messages);
  const texts = updates.map((m) => m.text);
  const parsed = updates.map((m) => m.msg);
  const times = updates.map((m) => m.t);
  // (c) gets frames as a socket handler has them: parsed from the update texts, nothing else;
  // parsed again just before its runs, so their heap layout does not depend on the garbage the
  // earlier tasks left for the collector to compact.
  const prepareFrames = (): OrderBookFrame[] => texts.flatMap((text, i) => parseOrderBookFrames(JSON.parse(text), times[i] as number));
  let frames = prepareFrames();
  const symbols = [...new Set(snapshots.flatMap((m) => parseOrderBookFrames(m.msg, m.t).map((f) => f.symbol)))];
  const frameBook = Int32Array.from(frames, (f) => symbols.indexOf(f.symbol));

  const books = freshBooks(snapshots, symbols, instruments);
  let keeper = freshKeeper(snapshots, instruments);
  // Each task sums into a local and adds to the sink once per iteration: the sink is a captured
  // variable, and once its total leaves the small-integer range (+-2^30; the BTC set's (c) adds
  // its bid-ask spread, ~10^3 ticks, per frame, and gets there in its first iterations) every
  // `sink +=` allocated a heap number and stored it through a write barrier: a cost of the
  // harness, charged to each frame.
  let sink = 0;
  const clock = benchClock();
  const livePath = (): void => {
    const b = books;
    let sum = 0;
    for (let i = 0; i < texts.length; i++) {
      const list = parseOrderBookFrames(JSON.parse(texts[i] as string), times[i] as number);
      for (let j = 0; j < list.length; j++) {
        const frame = list[j] as OrderBookFrame;
        const book = b[symbols.indexOf(frame.symbol)] as OrderBook;
        book.apply(frame);
        sum += book.bestBidPrice - book.bestAskPrice;
      }
    }
    sink += sum;
  };
  // The costliest task, with the reset the apply tasks share.
  const budget = runBudget(3000, () => resetBooks(books, snapshots, symbols), livePath);
  const bench = new Bench({ ...budget, ...(clock.now === undefined ? {} : { now: clock.now }) });
  bench.add('(a) JSON.parse of update frame', () => {
    let sum = 0;
    for (let i = 0; i < texts.length; i++) sum += (JSON.parse(texts[i] as string) as { ch: string }).ch.length;
    sink += sum;
  });
  bench.add('(b) parseOrderBookFrames', () => {
    let sum = 0;
    for (let i = 0; i < parsed.length; i++) sum += parseOrderBookFrames(parsed[i], times[i] as number).length;
    sink += sum;
  });
  bench.add(
    '(c) book.apply + best bid/ask read',
    () => {
      const b = books;
      let sum = 0;
      for (let i = 0; i < frames.length; i++) {
        const book = b[frameBook[i] as number] as OrderBook;
        book.apply(frames[i] as OrderBookFrame);
        sum += book.bestBidPrice - book.bestAskPrice;
      }
      sink += sum;
    },
    {
      beforeAll: () => {
        frames = prepareFrames();
        collectGarbage();
      },
      beforeEach: () => { resetBooks(books, snapshots, symbols); },
    },
  );
  bench.add(
    '(d) keeper end to end (b + c + checks)',
    () => {
      const k = keeper;
      let sum = 0;
      for (let i = 0; i < parsed.length; i++) {
        k.handleMessage(parsed[i], times[i] as number);
        const book = k.book(symbols[0] as string);
        if (book !== undefined) sum += book.bestBidPrice - book.bestAskPrice;
      }
      sink += sum;
    },
    { beforeEach: () => { keeper = freshKeeper(snapshots, instruments); } },
  );
  bench.add('(e) live path: JSON.parse + frames + apply + best', livePath, { beforeEach: () => { resetBooks(books, snapshots, symbols); } });
  await bench.run();
  if (keeper.stats.gaps + keeper.stats.crossed + keeper.stats.invalid !== 0) {
    throw new Error(`replay was not clean: ${JSON.stringify(keeper.stats)}`);
  }
  for (const book of books) if (!book.valid) throw new Error(`${book.symbol}: book invalid after the replay`);

  const perUpdate = bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
    return {
      name: task.name,
      ns: (result.latency.mean * 1e6) / updates.length,
      medianNs: (result.latency.p50 * 1e6) / updates.length,
      rme: result.latency.rme,
    };
  });
  const [a, b, c, d, e] = perUpdate.map((r) => r.ns) as [number, number, number, number, number];
  const [am, bm, cm, dm, em] = perUpdate.map((r) => r.medianNs) as [number, number, number, number, number];
  console.log(`\nbook: ${set.label} (${set.source}); timed in ${clock.name}`);
  console.log(`${updates.length.toLocaleString('en-US')} updates, ${levelChanges.toLocaleString('en-US')} level changes (${(levelChanges / updates.length).toFixed(1)} per update), ${snapshots.length} snapshot(s) (checksum ${sink === 0 ? 0 : 1})`);
  printTable('per update frame', perUpdate.map((r) => ({
    task: r.name,
    'updates/s': Math.round(1e9 / r.ns),
    'ns/update': r.ns,
    'ns/level change': (r.ns * updates.length) / levelChanges,
    'median ns/update': r.medianNs,
    'rme %': r.rme,
  })));
  // Mean and median of the per-iteration times: on a shared machine the mean carries the
  // iterations that other processes preempted, the median does not; both are shown.
  const row = (ratio: string, mean: number, median: number, target = ''): Row => ({
    ratio,
    'of means': mean.toFixed(3),
    'of medians': median.toFixed(3),
    target,
    status: target === '' ? '' : mean <= 0.25 && median <= 0.25 ? 'met' : median <= 0.25 ? 'met on medians only' : 'NOT met',
  });
  const ratios: Row[] = [
    row('(c)/(a) apply a parsed update', c / a, cm / am, '<= 0.25'),
    row('(b)/(a) frame validation', b / a, bm / am),
    row('(b+c)/(a)', (b + c) / a, (bm + cm) / am),
    row('(d)/(a) keeper end to end', d / a, dm / am),
    // As live runs it: each frame is applied right after its JSON.parse, while its strings are hot.
    row('((e)-(a))/(a) frames + apply on hot frames', (e - a) / a, (em - am) / am),
  ];
  printTable('ratios to JSON.parse', ratios);
  const perChange = (c * updates.length) / levelChanges;
  return {
    'data set': set.label,
    'level changes': levelChanges,
    'ns/level change': perChange,
    'median ns/level change': (cm * updates.length) / levelChanges,
    '(c)/(a) of means': (c / a).toFixed(3),
    '(c)/(a) of medians': (cm / am).toFixed(3),
    status: perChange <= 60 && c / a <= 0.25 ? 'met' : 'NOT met',
  };
}

function splitBookMessages(messages: readonly RecordedMessage[]): {
  snapshots: RecordedMessage[];
  updates: RecordedMessage[];
  levelChanges: number;
} {
  const snapshots: RecordedMessage[] = [];
  const updates: RecordedMessage[] = [];
  const seen = new Set<string>();
  let levelChanges = 0;
  for (const message of messages) {
    const frames = parseOrderBookFrames(message.msg, message.t);
    const first = frames[0];
    if (first === undefined) continue;
    if (first.snapshot) {
      // Later snapshots would make the timed replay rebuild books: keep only the initial ones.
      if (!seen.has(first.symbol)) snapshots.push(message);
      seen.add(first.symbol);
      continue;
    }
    if (!seen.has(first.symbol)) continue;
    updates.push(message);
    for (const frame of frames) levelChanges += frame.asks.length + frame.bids.length;
  }
  return { snapshots, updates, levelChanges };
}

function freshBooks(snapshots: readonly RecordedMessage[], symbols: readonly string[], instruments: ReadonlyMap<string, Instrument>): OrderBook[] {
  const books = symbols.map((symbol) => new OrderBook(symbol, { instrument: instruments.get(symbol) }));
  resetBooks(books, snapshots, symbols);
  return books;
}

/**
 * Brings the books back to the initial snapshots (a snapshot replaces a book, as a resync does in
 * a long-lived one). New books per iteration would allocate their dense windows (MiBs of typed
 * arrays) thousands of times a second, and the garbage collections this external memory triggers
 * mark the whole heap (every data set) on background threads, whose CPU time BENCH_CLOCK=cpu
 * charged to the timed iterations.
 */
function resetBooks(books: readonly OrderBook[], snapshots: readonly RecordedMessage[], symbols: readonly string[]): void {
  for (const message of snapshots) {
    for (const frame of parseOrderBookFrames(message.msg, message.t)) books[symbols.indexOf(frame.symbol)]?.apply(frame);
  }
}

function freshKeeper(snapshots: readonly RecordedMessage[], instruments: ReadonlyMap<string, Instrument>): OrderBookKeeper {
  const keeper = new OrderBookKeeper({ resync: NO_RESYNC, instrument: (symbol) => instruments.get(symbol) });
  for (const message of snapshots) keeper.handleMessage(message.msg, message.t);
  return keeper;
}
