import { parseArgs } from 'node:util';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { RecordingReader } from '../../backtest/recording/recording-reader.js';
import { OrderBookKeeper } from '../exchange/book/order-book-keeper.js';
import { ORDER_BOOK_CHANNEL } from '../exchange/book/order-book-frame.js';
import { PublicSession } from '../exchange/ws/public-session.js';
import { ValidationError } from '../model/errors.js';
import type { TradeTick } from '../model/stream/market-records.js';
import { LiveClock } from '../time/clock.js';
import type { CliCommand } from './command.js';

const DEFAULT_RECORDING = new URL('../../test/fixtures/fmfw-public-excerpt.v3.jsonl', import.meta.url).pathname;

/**
 * `tradeloop demo`: replays a recorded API v3 capture through the local sandbox exchange, connects
 * the WebSocket client to its public stream over loopback, rebuilds the books with sequence
 * checking and prints the top of each book. Needs no exchange account and no network. The market
 * waits until the client has subscribed, so the first books are not missed.
 */
export const demoCommand: CliCommand = {
  name: 'demo',
  usage: 'demo [--recording FILE] [--speed N] [--symbols A,B]',
  summary: 'replay a recorded market through a local API v3 stream and print the live books',
  async run(args) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        recording: { type: 'string', default: DEFAULT_RECORDING },
        speed: { type: 'string', default: '4' },
        symbols: { type: 'string' },
        'print-every': { type: 'string', default: '1000' },
      },
      strict: true,
    });
    const speed = positiveNumber(values.speed, '--speed');
    const printEvery = positiveNumber(values['print-every'], '--print-every');
    const symbols = values.symbols ? values.symbols.split(',').filter(Boolean) : await bookSymbols(values.recording);
    if (symbols.length === 0) throw new ValidationError('--symbols', 'the recording has no orderbook/full frames; name symbols explicitly');

    const server = await SandboxServer.start({
      venue: simulatedVenueFactory(), market: { kind: 'recording', path: values.recording }, speed, paused: true,
    });
    const session = PublicSession.create({ url: `${server.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock() });
    const keeper = new OrderBookKeeper({ resync: session });
    const lastTrade = new Map<string, TradeTick>();
    const owned = [
      session.orderBookFrames$.subscribe((frame) => keeper.apply(frame)),
      session.marketEvents$.subscribe((event) => {
        if (event.kind === 'trades') {
          const last = event.trades[event.trades.length - 1];
          if (last) lastTrade.set(event.symbol, last);
        }
      }),
      keeper.events.subscribe((event) => {
        if (event.kind === 'stale') console.log(`${event.symbol}: book stale (${event.reason.kind}), resyncing`);
      }),
    ];
    console.log(`replaying ${values.recording} at ${speed}x on ${server.wsBaseUrl}/api/3/ws/public`);
    try {
      await session.connect();
      await session.subscribe(ORDER_BOOK_CHANNEL, symbols);
      await session.subscribe('trades', symbols);
      server.play();
      const timer = setInterval(() => printBooks(keeper, symbols, lastTrade), printEvery);
      try {
        await server.done;
      } finally {
        clearInterval(timer);
      }
      printBooks(keeper, symbols, lastTrade);
      const s = keeper.stats;
      console.log(`done: ${server.framesServed} frames replayed; ${s.snapshots} snapshots, ${s.updates} book updates, ${s.gaps} gaps`);
      return 0;
    } finally {
      for (const subscription of owned) subscription.unsubscribe();
      await session.close();
      keeper.close();
      await server.close();
    }
  },
};

function printBooks(keeper: OrderBookKeeper, symbols: readonly string[], lastTrade: ReadonlyMap<string, TradeTick>): void {
  const rows = symbols.map((symbol) => {
    const book = keeper.book(symbol);
    const bid = book?.bestBid();
    const ask = book?.bestAsk();
    const trade = lastTrade.get(symbol);
    return [
      symbol,
      bid ? `${bid.quantity} @ ${bid.price}` : '-',
      ask ? `${ask.price} x ${ask.quantity}` : '-',
      book?.spread() ?? '-',
      book ? String(book.sequence) : keeper.status(symbol) ?? 'waiting',
      trade ? `${trade.side} ${trade.quantity} @ ${trade.price}` : '',
    ];
  });
  const header = ['symbol', 'bid', 'ask', 'spread', 'seq', 'last trade'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`\n${line(header)}\n${rows.map(line).join('\n')}`);
}

async function bookSymbols(path: string): Promise<string[]> {
  const found = new Set<string>();
  for await (const frame of new RecordingReader(path).frames()) {
    const msg = frame.msg as { ch?: unknown; snapshot?: Record<string, unknown> };
    if (msg.ch === ORDER_BOOK_CHANNEL && msg.snapshot) for (const s of Object.keys(msg.snapshot)) found.add(s);
  }
  return [...found];
}

function positiveNumber(text: string, field: string): number {
  const n = Number(text);
  if (!(n > 0)) throw new ValidationError(field, 'must be a positive number', text);
  return n;
}
