import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { PublicSession } from '../../framework/exchange/ws/public-session.js';
import { LiveMarketFeed } from '../../framework/live/live-market-feed.js';
import { Instrument } from '../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import type { CandlesEvent } from '../../framework/model/stream/market-events.js';
import { closedCandles } from '../../framework/runtime/candle-closer.js';
import { SILENT_LOGGER } from '../../framework/runtime/runtime-ports.js';
import { MarketClock } from '../../framework/time/market-clock.js';

// A paper bot's market data over the real public stream, a recording of 2024 replayed at 20x with
// its recorded dates: the bot's clock is market time, so a recorded candle closes when market time
// has passed its end (the next period's first update), with its final prices; on the wall clock's
// date every candle would close at its first update.

const P = Date.UTC(2024, 7, 8, 12, 0, 0);
const SPEED = 20;
const BTC_WIRE = {
  type: 'spot', expiry: null, base_currency: 'BTC', quote_currency: 'USDT', status: 'working', quantity_increment: '0.00001', tick_size: '0.01',
  take_rate: '0.0025', make_rate: '0.001', fee_currency: 'USDT', margin_trading: false,
};

function candle(start: number, open: string, close: string): Record<string, string | number> {
  return { t: start, o: open, c: close, h: close > open ? close : open, l: close > open ? open : close, v: '1', q: close };
}

function frame(t: number, msg: unknown): string {
  return JSON.stringify({ t, src: 'ws/public', msg });
}

function recording(): string {
  const lines = [
    JSON.stringify({ format: 'tradeloop.recording', version: 1, venue: 'sandbox', symbols: { BTCUSDT: BTC_WIRE } }),
    frame(P + 1_000, { ch: 'orderbook/full', snapshot: { BTCUSDT: { t: P + 990, s: 1, a: [['101.00', '1']], b: [['99.00', '1']] } } }),
    frame(P + 10_000, { ch: 'trades', update: { BTCUSDT: [{ t: P + 9_990, i: 1, p: '100.00', q: '0.1', s: 'buy' }] } }),
    frame(P + 10_000, { ch: 'candles/M1', update: { BTCUSDT: [candle(P, '100.00', '100.00')] } }),
    frame(P + 30_000, { ch: 'trades', update: { BTCUSDT: [{ t: P + 29_990, i: 2, p: '101.00', q: '0.1', s: 'buy' }] } }),
    frame(P + 30_000, { ch: 'candles/M1', update: { BTCUSDT: [candle(P, '100.00', '101.00')] } }),
    frame(P + 45_000, { ch: 'trades', update: { BTCUSDT: [{ t: P + 44_990, i: 3, p: '102.00', q: '0.1', s: 'buy' }] } }),
    frame(P + 45_000, { ch: 'candles/M1', update: { BTCUSDT: [candle(P, '100.00', '102.00')] } }),
    frame(P + 60_500, { ch: 'trades', update: { BTCUSDT: [{ t: P + 60_490, i: 4, p: '103.00', q: '0.1', s: 'buy' }] } }),
    frame(P + 60_500, { ch: 'candles/M1', update: { BTCUSDT: [candle(P + 60_000, '102.00', '103.00')] } }),
    frame(P + 64_000, { ch: 'candles/M1', update: { BTCUSDT: [candle(P + 60_000, '102.00', '104.00')] } }),
  ];
  return `${lines.join('\n')}\n`;
}

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('paper on market time', () => {
  it('closes a recorded candle once market time has passed its end, with its final prices', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'paper-market-time-'));
    const file = path.join(dir, 'candles.v3.jsonl');
    writeFileSync(file, recording());
    const server = await SandboxServer.start({ venue: simulatedVenueFactory(0), market: { kind: 'recording', path: file }, speed: SPEED, paused: true });
    // As `tradeloop paper` builds it: the replay's time, standing at its start until the first frame.
    const clock = new MarketClock({ start: server.venue.now(), rate: SPEED, waitForMarket: true });
    const session = PublicSession.create({ url: `${server.wsBaseUrl}/api/3/ws/public`, clock });
    const feed = new LiveMarketFeed({
      session, instruments: [new Instrument('BTCUSDT', parseSymbolInfo(BTC_WIRE))], candles: 'M1', logger: SILENT_LOGGER, onExchangeTime: (t) => clock.observe(t),
    });
    cleanup = async () => {
      await feed.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    };
    const closed: CandlesEvent[] = [];
    const subscription = closedCandles(feed.market$).subscribe((event) => closed.push(event));
    await feed.start();
    server.play();
    await server.done;
    // The last frame's delivery: one more turn of the socket.
    await new Promise((resolve) => setTimeout(resolve, 200));
    subscription.unsubscribe();

    expect(closed.map((e) => ({ start: e.candles[0]!.timestamp, close: String(e.candles[0]!.close), high: String(e.candles[0]!.high) })))
      .toEqual([{ start: P, close: '102.00', high: '102.00' }]);
    // Closed by the next period's first update, stamped in the market's time (after the candle's end), not today's date.
    expect(closed[0]!.receivedAt).toBeGreaterThanOrEqual(P + 60_000);
    expect(closed[0]!.receivedAt).toBeLessThan(P + 120_000);
  });
});
