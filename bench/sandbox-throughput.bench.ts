import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { MarketFeed } from '../backtest/sandbox/market-feed.js';
import { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../backtest/sandbox/simulated-venue-factory.js';
import { writeRepeated } from './replay-repeat.js';
import { repoRoot, sharedDataOr } from './support/paths.js';
import { printTable } from './support/report.js';

/** SANDBOX_BENCH_RECORDING, else the shared ETHUSDT recording beside the checkout, else the shipped sample. */
const RECORDING = process.env.SANDBOX_BENCH_RECORDING ?? sharedDataOr('ethusdt-2024-08-08.v3.jsonl.gz', 'backtest/samples/synthetic-btc-eth.v3.jsonl.gz');
/** Copies of the recording replayed back to back: enough frames for a second or more at the target rate. */
const REPEATS = Number(process.env.SANDBOX_BENCH_REPEATS ?? 10);
const ROUNDS = 3;
const TARGET = 150_000;

/**
 * The client: a plain `ws` socket in a child process (the server's process CPU time is then its own),
 * subscribed to every recorded channel for every symbol, counting messages (WebSocket messages, not
 * bytes; one in 1000 is parsed and checked to be a notification of a subscribed channel); it reports the count
 * and the time between the first and the last market message once the server says the replay
 * ended and the socket has been quiet for a moment.
 */
const CLIENT = `
const workerData = JSON.parse(process.argv[1]);
const parentPort = { postMessage: (m) => process.send(m), on: (e, f) => process.on(e, f) };
const WebSocket = require(workerData.ws);
const ws = new WebSocket(workerData.url);
let count = 0, first = 0, last = 0, acks = 0, sampled = 0, bad = 0;
ws.on('open', () => {
  let id = 0;
  for (const ch of workerData.channels) ws.send(JSON.stringify({ method: 'subscribe', ch, params: { symbols: workerData.symbols }, id: ++id }));
});
ws.on('message', (data) => {
  const now = performance.now();
  if (acks < workerData.channels.length && data.toString().includes('"result"')) {
    if (++acks === workerData.channels.length) parentPort.postMessage({ kind: 'ready' });
    return;
  }
  if (count === 0) first = now;
  // Every 1000th message (and the first) must be a market notification of a subscribed channel.
  if (count % 1000 === 0) {
    sampled++;
    try {
      const msg = JSON.parse(data.toString());
      const payload = msg.update ?? msg.snapshot;
      const entries = payload && typeof payload === 'object' ? Object.entries(payload) : [];
      const ok = workerData.channels.includes(msg.ch) && entries.length > 0 &&
        entries.every(([, v]) => (msg.ch === 'trades' ? Array.isArray(v) : v && typeof v === 'object' && Number.isInteger(v.s)));
      if (!ok) bad++;
    } catch { bad++; }
  }
  count++;
  last = now;
});
parentPort.on('message', () => {
  const wait = () => { const seen = count; setTimeout(() => (count === seen ? done() : wait()), 300); };
  const done = () => { parentPort.postMessage({ kind: 'done', count, sampled, bad, seconds: (last - first) / 1000 }); ws.close(); process.disconnect(); };
  wait();
});
`;

/**
 * Sandbox market-stream throughput: the sandbox replays a recording (the shared ETHUSDT depth diffs
 * and trades, else the shipped synthetic sample, repeated 10 times back to back) at `--speed max`
 * to one plain `ws` client over loopback, subscribed to every channel the recording carries for
 * every symbol; messages/s as the client receives them (first to last message), and the server
 * process's CPU time per message (steadier than wall time on a shared machine). Target >= 150,000/s.
 */
export async function run(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tradeloop-sandbox-bench-'));
  try {
    const file = path.join(dir, 'repeated.v3.jsonl.gz');
    const { frames } = await writeRepeated(RECORDING, REPEATS, file);
    const channels = (await MarketFeed.recordedChannels({ kind: 'recording', path: RECORDING })).sort();
    console.log(`${path.basename(RECORDING)} x${REPEATS}: ${frames} frames; channels ${channels.join(', ')}`);
    const rows: Array<Record<string, number>> = [];
    for (let round = 1; round <= ROUNDS; round++) rows.push({ round, ...(await oneRound(file, channels)) });
    printTable('sandbox throughput (one ws client, --speed max)', rows);
    const best = Math.max(...rows.map((r) => r.messagesPerSecond ?? 0));
    console.log(`best: ${best.toLocaleString('en-US')} messages/s (target >= ${TARGET.toLocaleString('en-US')})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function oneRound(file: string, channels: readonly string[]): Promise<Record<string, number>> {
  const server = await SandboxServer.start({
    venue: simulatedVenueFactory(), market: { kind: 'recording', path: file }, speed: Infinity, paused: true,
    accounts: [{ id: 'main', spot: { USDT: '10000', ETH: '10' } }],
  });
  const config = { ws: path.join(repoRoot, 'node_modules', 'ws', 'index.js'), url: `${server.wsBaseUrl}/api/3/ws/public`, channels, symbols: ['*'] };
  const client: ChildProcess = spawn(process.execPath, ['-e', CLIENT, JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    let cpu = process.cpuUsage();
    const result = new Promise<{ count: number; sampled: number; bad: number; seconds: number }>((resolve, reject) => {
      client.on('error', reject);
      client.on('exit', (code) => reject(new Error(`client exited (${code})`)));
      client.on('message', (m: { kind: string; count: number; sampled: number; bad: number; seconds: number }) => {
        if (m.kind === 'ready') {
          cpu = process.cpuUsage();
          server.play();
        } else resolve(m);
      });
    });
    await Promise.race([server.done, result]);
    const used = process.cpuUsage(cpu);
    client.send('finished');
    const { count, sampled, bad, seconds } = await result;
    if (bad > 0) throw new Error(`${bad} of ${sampled} sampled messages are not market notifications of a subscribed channel`);
    const cpuSeconds = (used.user + used.system) / 1e6;
    return {
      messages: count, sampled, framesServed: server.framesServed, frameErrors: server.frameErrors, seconds: Number(seconds.toFixed(3)), messagesPerSecond: Math.round(count / seconds),
      serverCpuSeconds: Number(cpuSeconds.toFixed(3)), messagesPerCpuSecond: Math.round(count / cpuSeconds),
    };
  } finally {
    client.kill();
    await server.close();
  }
}
