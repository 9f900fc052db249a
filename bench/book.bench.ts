import { Bench } from 'tinybench';
import { Instrument } from '../framework/model/instrument.js';
import { OrderBook } from '../framework/exchange/book/order-book.js';
import { parseOrderBookFrames, type BookFrame, type OrderBookFrame } from '../framework/exchange/book/order-book-frame.js';
import { OrderBookMessageDecoder } from '../framework/exchange/book/order-book-message-decoder.js';
import type { RecordedMessage } from './support/recording-messages.js';
import { bookDataSets, type BookDataSet } from './support/book-data-sets.js';
import { benchClock, runBudget } from './support/bench-clock.js';
import { collectGarbage } from './support/collect-garbage.js';
import { printTable, type Row } from './support/report.js';

/**
 * L2 book cost against the JSON decoding it rides on, on real depth diffs, each stage timed on
 * its own over every update of the recording (one iteration replays them all):
 * (a) `JSON.parse` of each update message's text;
 * (a2) OrderBookMessageDecoder on the same messages' bytes (what the live socket now does instead
 *      of (a) and (b): scaled levels straight from the bytes);
 * (b) `parseOrderBookFrames` on the already-parsed object (validation and extraction);
 * (c) `book.apply(frame)` + a best bid/ask read on the frames as the live socket handler has
 *     them (decoded, or parsed where the decoder leaves a message to the general way), prepared
 *     beforehand, the books reset to the initial snapshots (untimed) before each iteration (see
 *     resetBooks);
 * (c0) the same on the text frames of (b), the apply of the general path;
 * (e0) the live path before the decoder, end to end: the bytes as text, `JSON.parse`,
 *      `parseOrderBookFrames`, apply + best read;
 * (e) the live path now: decode from the bytes (the general path for what it leaves), apply +
 *     best read.
 * (c) and (c0) walk ~20 MB of frames prepared beforehand, so they pay a cache miss or more per
 * level that a frame applied right after its decoding ((e), (e0)) does not.
 * Targets: (c) / (a) <= 0.25 and (c) <= 60 ns per level change, on each data set (see
 * bookDataSets: recorded ETHUSDT, the same x22, synthetic BTCUSDT).
 */
export async function run(): Promise<void> {
  const summary: Row[] = [];
  for (const set of await bookDataSets()) summary.push(await runOn(set));
  printTable('book summary: (c) apply, (a2) decode and the live path, per data set', summary);
}

async function runOn(set: BookDataSet): Promise<Row> {
  const { header, messages } = set;
  const instruments = new Map(Object.entries(header.symbols).map(([s, info]) => [s, new Instrument(s, info)]));
  const decoder = new OrderBookMessageDecoder(new Map([...instruments].map(([s, i]) => [s, { priceScale: i.priceScale, quantityScale: i.quantityScale }])));
  const { snapshots, updates, levelChanges } = splitBookMessages(messages);
  const texts = updates.map((m) => m.text);
  const bytes = texts.map((text) => Buffer.from(text, 'utf8'));
  const parsed = updates.map((m) => m.msg);
  const times = updates.map((m) => m.t);
  /** The live socket handler's frames: decoded from the bytes, or parsed where the decoder declines. */
  const liveFrames = (i: number): readonly BookFrame[] => {
    const message = bytes[i] as Buffer;
    const receivedAt = times[i] as number;
    return decoder.decodeMessage(message, 0, message.length, receivedAt) ?? parseOrderBookFrames(JSON.parse(message.toString('utf8')), receivedAt);
  };
  // (c) and (c0) get frames prepared from the update messages, nothing else; prepared again just
  // before their runs, so their heap layout does not depend on the garbage the earlier tasks left
  // for the collector to compact.
  const prepareFrames = (): BookFrame[] => texts.flatMap((_, i) => liveFrames(i));
  const prepareTextFrames = (): OrderBookFrame[] => texts.flatMap((text, i) => parseOrderBookFrames(JSON.parse(text), times[i] as number));
  let frames = prepareFrames();
  const decodedShare = frames.filter((f) => f.asks === undefined).length / frames.length;
  let textFrames: OrderBookFrame[] = [];
  const symbols = [...new Set(snapshots.flatMap((m) => parseOrderBookFrames(m.msg, m.t).map((f) => f.symbol)))];
  const frameBook = Int32Array.from(frames, (f) => symbols.indexOf(f.symbol));

  const books = freshBooks(snapshots, symbols, instruments);
  // Each task sums into a local and adds to the sink once per iteration: the sink is a captured
  // variable, and once its total leaves the small-integer range (+-2^30; the BTC set's (c) adds
  // its bid-ask spread, ~10^3 ticks, per frame, and gets there in its first iterations) every
  // `sink +=` allocated a heap number and stored it through a write barrier: a cost of the
  // harness, charged to each frame.
  let sink = 0;
  const clock = benchClock();
  const apply = (list: readonly BookFrame[]): void => {
    const b = books;
    let sum = 0;
    for (let i = 0; i < list.length; i++) {
      const book = b[frameBook[i] as number] as OrderBook;
      book.apply(list[i] as BookFrame);
      sum += book.bestBidPrice - book.bestAskPrice;
    }
    sink += sum;
  };
  /** One message's frames applied to their books, as the live handler does: the sum of the spreads after each. */
  const applyMessage = (list: readonly BookFrame[]): number => {
    let sum = 0;
    for (let j = 0; j < list.length; j++) {
      const frame = list[j] as BookFrame;
      const book = books[symbols.indexOf(frame.symbol)] as OrderBook;
      book.apply(frame);
      sum += book.bestBidPrice - book.bestAskPrice;
    }
    return sum;
  };
  const livePathBefore = (): void => {
    let sum = 0;
    for (let i = 0; i < bytes.length; i++) sum += applyMessage(parseOrderBookFrames(JSON.parse((bytes[i] as Buffer).toString('utf8')), times[i] as number));
    sink += sum;
  };
  const livePathNow = (): void => {
    let sum = 0;
    for (let i = 0; i < bytes.length; i++) sum += applyMessage(liveFrames(i));
    sink += sum;
  };
  const reset = { beforeEach: () => { resetBooks(books, snapshots, symbols); } };
  // The costliest task, with the reset the apply tasks share.
  const budget = runBudget(3000, () => resetBooks(books, snapshots, symbols), livePathBefore);
  const bench = new Bench({ ...budget, ...(clock.now === undefined ? {} : { now: clock.now }) });
  bench.add('(a) JSON.parse of update message', () => {
    let sum = 0;
    for (let i = 0; i < texts.length; i++) sum += (JSON.parse(texts[i] as string) as { ch: string }).ch.length;
    sink += sum;
  });
  bench.add('(a2) decode of the same bytes', () => {
    let sum = 0;
    for (let i = 0; i < bytes.length; i++) {
      const message = bytes[i] as Buffer;
      sum += decoder.decodeMessage(message, 0, message.length, times[i] as number)?.length ?? 0;
    }
    sink += sum;
  });
  bench.add('(b) parseOrderBookFrames', () => {
    let sum = 0;
    for (let i = 0; i < parsed.length; i++) sum += parseOrderBookFrames(parsed[i], times[i] as number).length;
    sink += sum;
  });
  bench.add('(c) apply decoded frames + best bid/ask', () => apply(frames), {
    beforeAll: () => {
      frames = prepareFrames();
      collectGarbage();
    },
    ...reset,
  });
  bench.add('(c0) apply text frames + best bid/ask', () => apply(textFrames), {
    beforeAll: () => {
      frames = [];
      textFrames = prepareTextFrames();
      collectGarbage();
    },
    afterAll: () => { textFrames = []; },
    ...reset,
  });
  bench.add('(e0) live path before: text, JSON.parse, frames, apply', livePathBefore, reset);
  bench.add('(e) live path now: decode, apply', livePathNow, reset);
  await bench.run();
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
  const [a, a2, b, c, c0, e0, e] = perUpdate.map((r) => r.ns) as [number, number, number, number, number, number, number];
  const [am, a2m, bm, cm, c0m, e0m, em] = perUpdate.map((r) => r.medianNs) as [number, number, number, number, number, number, number];
  console.log(`\nbook: ${set.label} (${set.source}); timed in ${clock.name}`);
  console.log(`${updates.length.toLocaleString('en-US')} updates, ${levelChanges.toLocaleString('en-US')} level changes (${(levelChanges / updates.length).toFixed(1)} per update), ${snapshots.length} snapshot(s), ${(decodedShare * 100).toFixed(1)}% of update frames decoded from the bytes (checksum ${sink === 0 ? 0 : 1})`);
  const perChange = (ns: number): number => (ns * updates.length) / levelChanges;
  printTable('per update message', perUpdate.map((r) => ({
    task: r.name,
    'updates/s': Math.round(1e9 / r.ns),
    'ns/update': r.ns,
    'ns/level change': perChange(r.ns),
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
  printTable('ratios to JSON.parse', [
    row('(c)/(a) apply a decoded update', c / a, cm / am, '<= 0.25'),
    row('(a2)/(a) decode instead of JSON.parse', a2 / a, a2m / am),
    row('(c0)/(a) apply a text update', c0 / a, c0m / am),
    row('(b+c0)/(a) frames + text apply', (b + c0) / a, (bm + c0m) / am),
    row('(e0)/(a) live path before', e0 / a, e0m / am),
    row('(e)/(a) live path now', e / a, em / am),
  ]);
  return {
    'data set': set.label,
    'level changes': levelChanges,
    '(c) ns/level change': perChange(c),
    '(c) median': perChange(cm),
    '(c)/(a)': (c / a).toFixed(3),
    '(a) ns/update': a,
    '(a2) ns/update': a2,
    '(e0) ns/update': e0,
    '(e) ns/update': e,
    status: perChange(c) <= 60 && c / a <= 0.25 ? 'met' : 'NOT met',
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
