import { existsSync } from 'node:fs';
import { Option } from 'commander';
import { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../backtest/sandbox/simulated-venue-factory.js';
import { RecordingReader } from '../backtest/recording/recording-reader.js';
import { OrderBookKeeper } from '../framework/exchange/book/order-book-keeper.js';
import { ORDER_BOOK_CHANNEL } from '../framework/exchange/book/order-book-frame.js';
import { PublicSession } from '../framework/exchange/ws/public-session.js';
import { ValidationError } from '../framework/model/errors.js';
import type { TradeTick } from '../framework/model/stream/market-records.js';
import { LiveClock } from '../framework/time/clock.js';
import { examples, type CliCommand } from './command.js';
import { commaList, positiveNumber } from './option-parsers.js';
import { stopSignal } from './stop-signal.js';
import { packageFile } from '../framework/package-root.js';

const DEFAULT_RECORDING = packageFile('test', 'fixtures', 'fmfw-public-excerpt.v3.jsonl');

interface DemoOptions {
  readonly recording: string;
  readonly speed: number;
  readonly symbols?: readonly string[];
  readonly printEvery: number;
}

/**
 * `tradeloop demo`: replays a recorded API v3 capture through the local sandbox exchange, connects
 * the WebSocket client to its public stream over loopback, rebuilds the books with sequence
 * checking and prints the top of each book. Needs no exchange account and no network. The market
 * waits until the client has subscribed, so the first books are not missed.
 */
export const demoCommand: CliCommand<DemoOptions> = {
  name: 'demo',
  define(command) {
    command
      .description('Replay a recorded API v3 capture through the local sandbox exchange, rebuild the order books from its WebSocket stream over loopback and print the top of each book. No account, no network.')
      .addOption(new Option('--recording <file>', 'recording to replay').default(DEFAULT_RECORDING, 'a shipped excerpt'))
      .option('--speed <x>', 'replay speed factor', positiveNumber, 4)
      .option('--symbols <list>', 'comma-separated symbols (default: every book in the recording)', commaList)
      .option('--print-every <ms>', 'print the books this often', positiveNumber, 1000)
      .addHelpText('after', examples('tradeloop demo', 'tradeloop demo --recording day1.jsonl.gz --speed 20 --symbols BTCUSDT'));
  },
  async run(values) {
    const { speed, printEvery } = values;
    if (!existsSync(values.recording)) throw new ValidationError('--recording', 'no such file', values.recording);
    const symbols = values.symbols ?? await bookSymbols(values.recording);
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
      const stop = stopSignal();
      try {
        await Promise.race([server.done, stop.stopped]);
      } finally {
        stop.dispose();
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

