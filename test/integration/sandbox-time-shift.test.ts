import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { eventually } from '../backtest/sandbox/support/sandbox-fixture.js';

const FIXTURE = new URL('../fixtures/fmfw-public-excerpt.v3.jsonl', import.meta.url).pathname;
const HOUR_MS = 3_600_000;

/** What the fixture holds, read here without the sandbox's reader: the first frame's time and NEOBTC's trade times. */
function fixtureTimes(): { first: number; tradeTimes: number[] } {
  const frames = readFileSync(FIXTURE, 'utf8').trim().split('\n').slice(1)
    .map((line) => JSON.parse(line) as { t: number; src: string; msg: { ch?: string; update?: Record<string, Array<{ t: number }>> } });
  const tradeTimes = frames.filter((f) => f.msg.ch === 'trades').flatMap((f) => (f.msg.update?.NEOBTC ?? []).map((trade) => trade.t));
  return { first: Math.floor(frames.find((f) => f.src === 'ws/public')!.t), tradeTimes };
}

let server: SandboxServer | undefined;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server?.close();
  server = undefined;
});

/** Replays the fixture to its end at full speed, a plain client subscribed to NEOBTC trades from the start; the trade times it saw. */
async function replay(shiftToNow: boolean, wall: number): Promise<{ s: SandboxServer; streamed: number[] }> {
  const s = await SandboxServer.start({
    venue: simulatedVenueFactory(), market: { kind: 'recording', path: FIXTURE }, speed: Infinity, paused: true, shiftToNow, now: () => wall,
  });
  server = s;
  const ws = new WebSocket(`${s.wsBaseUrl}/api/3/ws/public`);
  sockets.push(ws);
  const streamed: number[] = [];
  let acked = false;
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { result?: unknown; update?: { NEOBTC?: Array<{ t: number }> } };
    if (frame.result !== undefined) acked = true;
    for (const trade of frame.update?.NEOBTC ?? []) streamed.push(trade.t);
  });
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(JSON.stringify({ method: 'subscribe', ch: 'trades', params: { symbols: ['NEOBTC'] }, id: 1 }));
  await eventually(() => acked);
  s.play();
  await s.done;
  return { s, streamed };
}

async function get<T>(s: SandboxServer, path: string): Promise<T> {
  const res = await fetch(`${s.baseUrl}${path}`, { signal: AbortSignal.timeout(5000) });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('sandbox: a recording served as if it were happening now', () => {
  it('REST trades and candles "since an hour ago" find the replayed market, streamed and REST times agree', async () => {
    const wall = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const { first, tradeTimes } = fixtureTimes();
    const shifted = tradeTimes.map((t) => t + wall - first);
    const { s, streamed } = await replay(true, wall);
    expect(s.timeShiftMs).toBe(wall - first);
    await eventually(() => streamed.length === tradeTimes.length);
    expect(streamed).toEqual(shifted);

    const since = new Date(wall - HOUR_MS).toISOString();
    const trades = await get<Array<{ timestamp: string }>>(s, `/api/3/public/trades/NEOBTC?sort=ASC&from=${since}`);
    expect(trades.map((t) => Date.parse(t.timestamp))).toEqual(shifted);
    const candles = await get<Array<{ timestamp: string }>>(s, `/api/3/public/candles/NEOBTC?period=M1&from=${since}`);
    expect(candles.length).toBeGreaterThan(0);
    for (const c of candles) expect(Date.parse(c.timestamp)).toBeGreaterThanOrEqual(wall - HOUR_MS);
  });

  it('orders carry the shifted market time', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tradeloop-time-shift-'));
    try {
      const recorded = Date.UTC(2021, 9, 9, 12, 0, 0, 250);
      const file = path.join(dir, 'btcusdt.v3.jsonl');
      const symbol = {
        type: 'spot', base_currency: 'BTC', quote_currency: 'USDT', tick_size: '0.01', quantity_increment: '0.0001', take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
      };
      const lines = [
        { format: 'tradeloop.recording', version: 1, venue: 'test', symbols: { BTCUSDT: symbol } },
        { t: recorded, src: 'ws/public', msg: { ch: 'orderbook/full', snapshot: { BTCUSDT: { t: recorded - 5, s: 1, a: [['101.00', '1']], b: [['99.00', '1']] } } } },
        { t: recorded + 1000, src: 'ws/public', msg: { ch: 'trades', update: { BTCUSDT: [{ t: recorded + 990, i: 1, p: '100.00', q: '0.1', s: 'buy' }] } } },
      ];
      await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const wall = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
      server = await SandboxServer.start({
        venue: simulatedVenueFactory(), market: { kind: 'recording', path: file }, speed: Infinity, shiftToNow: true, now: () => wall,
        accounts: [{ id: 'main', spot: { USDT: '1000' } }],
      });
      await server.done;
      const key = server.apiKeys[0]!;
      const res = await fetch(`${server.baseUrl}/api/3/spot/order`, {
        method: 'POST', signal: AbortSignal.timeout(5000),
        headers: { authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '98.00', client_order_id: 'now1' }),
      });
      const order = (await res.json()) as { created_at: string };
      expect(res.status).toBe(200);
      // The venue's clock is the last frame's: recorded + 1000 ms, moved to the present.
      expect(Date.parse(order.created_at)).toBe(wall + 1000);
      const book = await get<{ timestamp: string }>(server, '/api/3/public/orderbook/BTCUSDT');
      expect(Date.parse(book.timestamp)).toBe(wall - 5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('without it, the recorded times: nothing happened in the last hour', async () => {
    const wall = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const { tradeTimes } = fixtureTimes();
    const { s, streamed } = await replay(false, wall);
    expect(s.timeShiftMs).toBe(0);
    await eventually(() => streamed.length === tradeTimes.length);
    expect(streamed).toEqual(tradeTimes);
    expect(await get<unknown[]>(s, `/api/3/public/trades/NEOBTC?from=${new Date(wall - HOUR_MS).toISOString()}`)).toEqual([]);
  });
});
