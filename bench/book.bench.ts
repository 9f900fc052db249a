import { Bench } from 'tinybench';
import { Instrument } from '../framework/model/instrument.js';
import { OrderBookKeeper } from '../framework/exchange/book/order-book-keeper.js';
import { parseOrderBookFrames, type OrderBookFrame } from '../framework/exchange/book/order-book-frame.js';
import { loadRecording, type RecordedMessage } from './support/recording-messages.js';
import { sharedDataOr } from './support/paths.js';
import { printTable } from './support/report.js';

const NO_RESYNC = { resync: async (): Promise<void> => {} };

/**
 * L2 book cost against the JSON decoding it rides on, on real depth diffs: (a) `JSON.parse` of
 * each update frame's text, (b) handling the already-parsed update: frame validation, sequence
 * check, every level change, crossed check and a best bid/ask read. Each iteration replays all
 * updates from the books built from the initial snapshots (rebuilt untimed before each one).
 * Target: (b) / (a) <= 0.25.
 */
export async function run(): Promise<void> {
  const file = sharedDataOr('ethusdt-2024-08-08.v3.jsonl.gz', 'test/fixtures/fmfw-public-excerpt.v3.jsonl');
  const { header, messages } = await loadRecording(file);
  const instruments = new Map(Object.entries(header.symbols).map(([s, info]) => [s, new Instrument(s, info)]));
  const { snapshots, updates, levelChanges } = splitBookMessages(messages);
  const texts = updates.map((m) => m.text);
  const parsed = updates.map((m) => m.msg);
  const times = updates.map((m) => m.t);

  let keeper = freshKeeper(snapshots, instruments);
  let sink = 0;
  const bench = new Bench({ time: 3000, warmupTime: 500, iterations: 10 });
  bench.add('(a) JSON.parse of update frame', () => {
    for (let i = 0; i < texts.length; i++) sink += (JSON.parse(texts[i] as string) as { ch: string }).ch.length;
  });
  bench.add(
    '(b) book: parse frame + apply + best read',
    () => {
      const k = keeper;
      for (let i = 0; i < parsed.length; i++) {
        const frames = parseOrderBookFrames(parsed[i], times[i] as number);
        for (let f = 0; f < frames.length; f++) {
          const frame = frames[f] as OrderBookFrame;
          k.apply(frame);
          const book = k.book(frame.symbol);
          if (book !== undefined) sink += book.bestBidPrice - book.bestAskPrice;
        }
      }
    },
    { beforeEach: () => { keeper = freshKeeper(snapshots, instruments); } },
  );
  await bench.run();
  if (keeper.stats.gaps + keeper.stats.crossed + keeper.stats.invalid !== 0) {
    throw new Error(`replay was not clean: ${JSON.stringify(keeper.stats)}`);
  }

  const perUpdate = bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
    return { name: task.name, ns: (result.latency.mean * 1e6) / updates.length, rme: result.latency.rme };
  });
  const [a, b] = perUpdate as [(typeof perUpdate)[0], (typeof perUpdate)[0]];
  console.log(`\nbook: ${file}`);
  console.log(`${updates.length.toLocaleString('en-US')} updates, ${levelChanges.toLocaleString('en-US')} level changes (${(levelChanges / updates.length).toFixed(1)} per update), ${snapshots.length} snapshot(s) (checksum ${sink === 0 ? 0 : 1})`);
  printTable('per update frame', perUpdate.map((r) => ({
    task: r.name,
    'updates/s': Math.round(1e9 / r.ns),
    'ns/update': r.ns,
    'ns/level change': (r.ns * updates.length) / levelChanges,
    'rme %': r.rme,
  })));
  const ratio = b.ns / a.ns;
  console.log(`\nratio (b)/(a) = ${ratio.toFixed(3)}  (target <= 0.25: ${ratio <= 0.25 ? 'met' : 'NOT met'})`);
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

function freshKeeper(snapshots: readonly RecordedMessage[], instruments: ReadonlyMap<string, Instrument>): OrderBookKeeper {
  const keeper = new OrderBookKeeper({ resync: NO_RESYNC, instrument: (symbol) => instruments.get(symbol) });
  for (const message of snapshots) keeper.handleMessage(message.msg, message.t);
  return keeper;
}
