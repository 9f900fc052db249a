import { Instrument } from '../framework/model/instrument.js';
import { OrderBook } from '../framework/exchange/book/order-book.js';
import { parseOrderBookFrames, type OrderBookFrame } from '../framework/exchange/book/order-book-frame.js';
import { bookDataSets } from './support/book-data-sets.js';
const [set] = await bookDataSets(process.env.SET ?? 'BTCUSDT synthetic');
const instruments = new Map(Object.entries(set!.header.symbols).map(([s, info]) => [s, new Instrument(s, info)]));
const frames: OrderBookFrame[] = [];
for (const m of set!.messages) for (const f of parseOrderBookFrames(m.msg, m.t)) frames.push(f);
const snapIdx = frames.findIndex((f) => f.snapshot);
const snap = frames[snapIdx]!;
const updates = frames.filter((f, i) => i > snapIdx && !f.snapshot && f.symbol === snap.symbol).slice(0, Number(process.env.LIMIT ?? 1e9));
let changes = 0; for (const f of updates) changes += (f.asks?.length ?? 0) + (f.bids?.length ?? 0);
const book = new OrderBook(snap.symbol, { instrument: instruments.get(snap.symbol) });
let sink = 0; let best = Infinity;
const reads = process.env.NOREAD !== '1';
for (let round = 0; round < Number(process.env.ROUNDS ?? 300); round++) {
  book.apply(snap);
  const t0 = process.cpuUsage();
  let sum = 0;
  if (reads) for (let i = 0; i < updates.length; i++) { book.apply(updates[i]!); sum += book.bestBidPrice - book.bestAskPrice; }
  else for (let i = 0; i < updates.length; i++) { book.apply(updates[i]!); }
  const c = process.cpuUsage(t0); const ns = (c.user + c.system) * 1000;
  sink += sum; best = Math.min(best, ns);
}
console.log(`${set!.label}: ${updates.length} updates, ${(changes / updates.length).toFixed(2)} changes/update; best ${(best / changes).toFixed(1)} ns/level change, ${(best / updates.length).toFixed(1)} ns/update${sink === 0 ? '' : ' '}`);
