import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { eventually } from '../backtest/sandbox/support/sandbox-fixture.js';

const SAMPLE = new URL('../../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url).pathname;
/** Book and trades go out as the recorded bytes, candles/M1 (which the decoder leaves) as parsed and serialised again. */
const CHANNELS = ['orderbook/full', 'trades', 'candles/M1'];

interface Frame { t: number; src: string; msg: { ch?: string; update?: Record<string, Array<Record<string, unknown>>> } }

/** The sample's public frames, read here with JSON.parse (not the sandbox's byte decoder). */
function sampleFrames(): Frame[] {
  return gunzipSync(readFileSync(SAMPLE)).toString('utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line) as Frame);
}

let server: SandboxServer | undefined;
let ws: WebSocket | undefined;

afterEach(async () => {
  ws?.terminate();
  await server?.close();
  server = undefined;
});

describe('sandbox replaying a recording with symbols at full speed', () => {
  it('a subscriber of every recorded channel receives every recorded message as recorded, in order (no derived candle); REST trades agree; the venue has the book', async () => {
    server = await SandboxServer.start({ venue: simulatedVenueFactory(), market: { kind: 'recording', path: SAMPLE }, speed: Infinity, paused: true,
      accounts: [{ id: 'main', spot: { USDT: '1000000' } }],
    });
    ws = new WebSocket(`${server.wsBaseUrl}/api/3/ws/public`);
    const received: string[] = [];
    let acks = 0;
    ws.on('message', (data) => {
      const text = data.toString();
      if ((JSON.parse(text) as { result?: unknown }).result !== undefined) acks++;
      else received.push(text);
    });
    await new Promise((resolve) => ws!.once('open', resolve));
    for (const [id, ch] of CHANNELS.entries()) ws.send(JSON.stringify({ method: 'subscribe', ch, params: { symbols: ['BTCUSDT', 'ETHUSDT'] }, id }));
    await eventually(() => acks === CHANNELS.length);
    server.play();
    await server.done;

    const frames = sampleFrames().filter((f) => f.src === 'ws/public' && CHANNELS.includes(f.msg.ch ?? ''));
    const expected = frames.map((f) => JSON.stringify(f.msg));
    await eventually(() => received.length >= expected.length, 10_000);
    expect(received.length).toBe(expected.length);
    expect(received).toEqual(expected);
    expect(server.frameErrors).toBe(0);

    const trades = frames.flatMap((f) => (f.msg.ch === 'trades' ? (f.msg.update?.BTCUSDT ?? []) : []));
    const res = await fetch(`${server.baseUrl}/api/3/public/trades/BTCUSDT?limit=5&sort=DESC`, { signal: AbortSignal.timeout(5000) });
    const rest = (await res.json()) as Array<{ id: unknown; price: string; qty: string; side: string; timestamp: string }>;
    expect(rest).toEqual(trades.slice(-5).reverse().map((t) => ({ id: t.i, price: t.p, qty: t.q, side: t.s, timestamp: new Date(t.t as number).toISOString() })));

    const key = server.apiKeys[0]!;
    const placed = await fetch(`${server.baseUrl}/api/3/spot/order`, {
      method: 'POST', signal: AbortSignal.timeout(5000),
      headers: { authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: 'BTCUSDT', side: 'buy', type: 'market', quantity: '0.001' }),
    });
    expect([placed.status, ((await placed.json()) as { status?: string }).status]).toEqual([200, 'filled']);
  });

  it('looping: later laps are served the same way, each starting with the recorded book snapshot', async () => {
    const perLap = sampleFrames().filter((f) => f.src === 'ws/public' && typeof f.msg.ch === 'string').length;
    server = await SandboxServer.start({ venue: simulatedVenueFactory(), market: { kind: 'recording', path: SAMPLE }, speed: Infinity, loop: true, paused: true });
    ws = new WebSocket(`${server.wsBaseUrl}/api/3/ws/public`);
    let snapshots = 0;
    let acked = false;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { result?: unknown; snapshot?: unknown };
      if (frame.result !== undefined) acked = true;
      if (frame.snapshot !== undefined) snapshots++;
    });
    await new Promise((resolve) => ws!.once('open', resolve));
    ws.send(JSON.stringify({ method: 'subscribe', ch: 'orderbook/full', params: { symbols: ['BTCUSDT'] }, id: 1 }));
    await eventually(() => acked);
    server.play();
    await eventually(() => server!.framesServed > 2 * perLap + 10, 20_000);
    await eventually(() => snapshots >= 3, 5000);
    expect(server.frameErrors).toBe(0);
  });

  it('a subscriber that stops reading holds the market back at full speed, and loses nothing', async () => {
    server = await SandboxServer.start({ venue: simulatedVenueFactory(), market: { kind: 'recording', path: SAMPLE }, speed: Infinity, loop: true, paused: true });
    ws = new WebSocket(`${server.wsBaseUrl}/api/3/ws/public`);
    const sequences: Array<{ s: number; snapshot: boolean }> = [];
    let acked = false;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { result?: unknown; snapshot?: { BTCUSDT?: { s: number } }; update?: { BTCUSDT?: { s: number } } };
      if (frame.result !== undefined) acked = true;
      const entry = frame.snapshot?.BTCUSDT ?? frame.update?.BTCUSDT;
      if (entry !== undefined) sequences.push({ s: entry.s, snapshot: frame.snapshot !== undefined });
    });
    await new Promise((resolve) => ws!.once('open', resolve));
    ws.send(JSON.stringify({ method: 'subscribe', ch: 'orderbook/full', params: { symbols: ['BTCUSDT'] }, id: 1 }));
    await eventually(() => acked);
    ws.pause();
    server.play();
    // Stalled: the served count stops moving while nothing is read.
    let last = -1;
    let still = 0;
    await eventually(() => {
      still = server!.framesServed === last ? still + 1 : 0;
      last = server!.framesServed;
      return still >= 10;
    }, 15_000);
    const stalledAt = server.framesServed;
    ws.resume();
    await eventually(() => server!.framesServed > stalledAt + 1000, 15_000);
    await eventually(() => sequences.length > 1000);
    // Nothing dropped: every update follows the previous message's sequence by exactly 1.
    const gaps = sequences.filter((m, i) => i > 0 && !m.snapshot && m.s !== sequences[i - 1]!.s + 1);
    expect(gaps).toEqual([]);
    expect(sequences[0]?.snapshot).toBe(true);
  });
});
