import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Recorder } from '../../../backtest/recording/recorder.js';
import { RecordingReader } from '../../../backtest/recording/recording-reader.js';
import { SandboxServer } from '../../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../../backtest/sandbox/simulated-venue-factory.js';
import { SyntheticMarket } from '../../../backtest/venue/synthetic/synthetic-market.js';
import { OrderBookKeeper } from '../../../framework/exchange/book/order-book-keeper.js';
import { PublicSession } from '../../../framework/exchange/ws/public-session.js';
import { LiveClock } from '../../../framework/time/clock.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function sandbox(faults: { dropConnectionsEveryMs?: number } = {}): Promise<{ server: SandboxServer; market: SyntheticMarket }> {
  const market = new SyntheticMarket({ seed: 11, symbols: [{ symbol: 'BTCUSDT' }] });
  const start = 1_704_067_200_000;
  const server = await SandboxServer.start({
    venue: simulatedVenueFactory(),
    market: { kind: 'frames', symbols: market.header().symbols, startTime: start, frames: () => market.frames({ start }) },
    speed: 20,
    faults,
  });
  closers.push(() => server.close());
  return { server, market };
}

function session(server: SandboxServer): PublicSession {
  const s = PublicSession.create({
    url: `${server.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock(), pingIntervalMs: 0,
    backoff: { initialMs: 20, maxMs: 50 },
  });
  closers.push(() => s.close());
  return s;
}

async function replay(path: string): Promise<{ frames: number; marks: number; keeper: OrderBookKeeper; firstIsSnapshot: boolean }> {
  const keeper = new OrderBookKeeper({ resync: { resync: async () => undefined } });
  let frames = 0;
  let marks = 0;
  let firstBook: unknown;
  for await (const frame of new RecordingReader(path).frames()) {
    frames++;
    const msg = frame.msg as { ch?: string; method?: string; snapshot?: unknown };
    if (msg.method === 'tradeloop.reconnected') marks++;
    if (msg.ch === 'orderbook/full' && firstBook === undefined) firstBook = msg;
    keeper.handleMessage(frame.msg, frame.t);
  }
  return { frames, marks, keeper, firstIsSnapshot: (firstBook as { snapshot?: unknown } | undefined)?.snapshot !== undefined };
}

describe('Recorder', () => {
  it('records the public stream as received, rotating files that each replay on their own', async () => {
    const { server, market } = await sandbox();
    const out = join(mkdtempSync(join(tmpdir(), 'tradeloop-rec-')), 'capture.jsonl.gz');
    const recorder = new Recorder({
      session: session(server), out, header: { ...market.header(), venue: 'sandbox' },
      channels: ['orderbook/full', 'trades'], symbols: ['BTCUSDT'], rotateBytes: 40_000,
    });
    await recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await recorder.stop();
    expect(recorder.stats.frames).toBeGreaterThan(20);
    expect(recorder.paths.length).toBeGreaterThan(1);
    let total = 0;
    for (const path of recorder.paths) {
      const { frames, keeper, firstIsSnapshot } = await replay(path);
      total += frames;
      expect(firstIsSnapshot).toBe(true);
      expect(keeper.stats.gaps).toBe(0);
      expect(keeper.stats.crossed).toBe(0);
      expect(keeper.book('BTCUSDT')?.valid).toBe(true);
    }
    // Every rotated file after the first starts with one preamble snapshot.
    expect(total).toBe(recorder.stats.frames + recorder.paths.length - 1);
  });

  it('survives reconnects, marking each one, and the fresh snapshot restarts the book', async () => {
    const { server, market } = await sandbox({ dropConnectionsEveryMs: 400 });
    const out = join(mkdtempSync(join(tmpdir(), 'tradeloop-rec-')), 'drops.jsonl');
    const recorder = new Recorder({
      session: session(server), out, header: market.header(), channels: ['orderbook/full'], symbols: ['BTCUSDT'],
    });
    await recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await recorder.stop();
    expect(recorder.stats.reconnects).toBeGreaterThanOrEqual(2);
    const { marks, keeper } = await replay(out);
    expect(marks).toBe(recorder.stats.reconnects);
    expect(keeper.stats.snapshots).toBeGreaterThanOrEqual(marks + 1);
    expect(keeper.book('BTCUSDT')?.valid).toBe(true);
  });

  it('writes polled REST answers as rest frames (futures info), and counts the polls that failed', async () => {
    const { server, market } = await sandbox();
    const out = join(mkdtempSync(join(tmpdir(), 'tradeloop-rec-')), 'polls.jsonl');
    let asked = 0;
    const recorder = new Recorder({
      session: session(server), out, header: market.header(), channels: ['trades'], symbols: ['BTCUSDT'], now: () => 1_704_067_300_000 + asked,
      restPolls: [{
        path: '/api/3/public/futures/info?symbols=BTCUSDT_PERP', everyMs: 20,
        fetch: async () => {
          asked++;
          if (asked === 2) throw new Error('503');
          return { status: 200, body: { BTCUSDT_PERP: { mark_price: String(100 + asked) } } };
        },
      }],
    });
    await recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 150));
    await recorder.stop();
    const rest = [];
    for await (const frame of new RecordingReader(out).frames()) if (frame.src === 'rest') rest.push(frame.msg as { path: string; status: number; body: { BTCUSDT_PERP: { mark_price: string } } });
    expect(recorder.stats.restFailures).toBe(1);
    expect(rest.length).toBeGreaterThanOrEqual(2);
    expect(rest[0]).toEqual({ method: 'GET', path: '/api/3/public/futures/info?symbols=BTCUSDT_PERP', status: 200, body: { BTCUSDT_PERP: { mark_price: '101' } } });
    expect(rest[1]?.body.BTCUSDT_PERP.mark_price).toBe('103');
  });
});
