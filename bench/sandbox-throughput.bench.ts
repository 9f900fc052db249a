import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../backtest/sandbox/simulated-venue-factory.js';
import { writeRepeated } from './replay-repeat.js';
import { repoRoot } from './support/paths.js';
import { printTable } from './support/report.js';

const SHARED = '/work/shared/data/ethusdt-2024-08-08.v3.jsonl.gz';
const RECORDING = existsSync(SHARED) ? SHARED : path.join(repoRoot, 'test', 'fixtures', 'fmfw-public-excerpt.v3.jsonl');
/** Copies of the recording replayed back to back: enough frames for a second or more at the target rate. */
const REPEATS = Number(process.env.SANDBOX_BENCH_REPEATS ?? (RECORDING === SHARED ? 10 : 300));
const ROUNDS = 3;
const TARGET = 150_000;

/**
 * The client: a plain `ws` socket in a worker thread (the server keeps the main thread to itself),
 * subscribed to every recorded channel for every symbol, counting messages; it reports the count
 * and the time between the first and the last market message once the server says the replay
 * ended and the socket has been quiet for a moment.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.ws);
const ws = new WebSocket(workerData.url);
let count = 0, first = 0, last = 0, acks = 0;
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
  count++;
  last = now;
});
parentPort.on('message', () => {
  const wait = () => { const seen = count; setTimeout(() => (count === seen ? done() : wait()), 300); };
  const done = () => { parentPort.postMessage({ kind: 'done', count, seconds: (last - first) / 1000 }); ws.close(); };
  wait();
});
`;

/**
 * Sandbox market-stream throughput: the sandbox replays a recording (the shared ETHUSDT depth diffs
 * and trades repeated ${10} times, else the shipped excerpt repeated) at \`--speed max\` to one
 * plain \`ws\` client over loopback; messages/s as the client receives them. Target >= 150,000.
 */
export async function run(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tradeloop-sandbox-bench-'));
  try {
    const file = path.join(dir, 'repeated.v3.jsonl.gz');
    const { frames } = await writeRepeated(RECORDING, REPEATS, file);
    console.log(`${path.basename(RECORDING)} x${REPEATS}: ${frames} frames`);
    const rows = [];
    for (let round = 1; round <= ROUNDS; round++) rows.push({ round, ...(await oneRound(file)) });
    printTable('sandbox throughput (one ws client, --speed max)', rows);
    const best = Math.max(...rows.map((r) => r.messagesPerSecond));
    console.log(`best: ${best.toLocaleString('en-US')} messages/s (target >= ${TARGET.toLocaleString('en-US')})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function oneRound(file: string): Promise<{ messages: number; framesServed: number; seconds: number; messagesPerSecond: number }> {
  const server = await SandboxServer.start({
    venue: simulatedVenueFactory(), market: { kind: 'recording', path: file }, speed: Infinity, paused: true,
    accounts: [{ id: 'main', spot: { USDT: '10000', ETH: '10' } }],
  });
  const worker = new Worker(CLIENT, {
    eval: true,
    workerData: {
      ws: path.join(repoRoot, 'node_modules', 'ws', 'index.js'), url: `${server.wsBaseUrl}/api/3/ws/public`,
      channels: ['orderbook/full', 'trades'], symbols: ['*'],
    },
  });
  try {
    const result = new Promise<{ count: number; seconds: number }>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (m: { kind: string; count: number; seconds: number }) => {
        if (m.kind === 'ready') server.play();
        else resolve(m);
      });
    });
    await Promise.race([server.done, result]);
    worker.postMessage('finished');
    const { count, seconds } = await result;
    return { messages: count, framesServed: server.framesServed, seconds: Number(seconds.toFixed(3)), messagesPerSecond: Math.round(count / seconds) };
  } finally {
    await worker.terminate();
    await server.close();
  }
}
