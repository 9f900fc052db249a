import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { LOCKSTEP_PATH } from '../../framework/live/lockstep-protocol.js';
import { LockstepClient } from '../../framework/live/lockstep-client.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { backtestOutcome, fillText, lockstepPaperOutcome, type RunOutcome } from '../../cli/lockstep-comparison.js';
import { loadBotConfig } from '../../framework/config/bot-config.js';
import type { LatencySpec } from '../../framework/config/latency-spec.js';
import { packageFile } from '../../framework/package-root.js';

// Lockstep paper (the real clients over loopback against the sandbox, the sandbox's replay clock
// driving the bot) against a backtest of the same recording and latency: every execution must be
// the same (time, side, price, quantity, fee, maker/taker) and so must the final balances.

const SAMPLE = packageFile('backtest', 'samples', 'synthetic-btc-eth.v3.jsonl.gz');
/** Lines of the sample kept for the quoting strategies: about 3 minutes of market, fills included. */
const CUT_LINES = 8_000;

let dir: string;
let cut: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lockstep-paper-'));
  cut = path.join(dir, 'cut.v3.jsonl');
  const lines = gunzipSync(readFileSync(SAMPLE)).toString('utf8').split('\n').slice(0, CUT_LINES);
  writeFileSync(cut, `${lines.join('\n')}\n`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The comparable part of an outcome (not the wall time). */
function facts(outcome: RunOutcome): { fills: string[]; finalBalances: Readonly<Record<string, string>>; frames: number } {
  return { fills: outcome.fills.map(fillText), finalBalances: outcome.finalBalances, frames: outcome.frames };
}

async function compare(configName: string, recording: () => string, latency?: LatencySpec): Promise<RunOutcome> {
  const file = packageFile('config', `${configName}.yaml`);
  const config = loadBotConfig(file);
  const backtest = await backtestOutcome(config, file, recording(), latency);
  const paper = await lockstepPaperOutcome(config, file, recording(), latency);
  // A comparison of nothing proves nothing: the run must trade.
  expect(backtest.fills.length).toBeGreaterThan(0);
  expect(facts(paper)).toEqual(facts(backtest));
  return paper;
}

describe('lockstep paper equals a backtest, fill by fill', () => {
  it('market-maker, no latency', async () => {
    await compare('market-maker', () => cut);
  }, 60_000);

  it('bracket, no latency', async () => {
    await compare('bracket', () => cut);
  }, 60_000);

  it('ma-crossover on recorded M1 candles, no latency', async () => {
    await compare('ma-crossover', () => SAMPLE);
  }, 60_000);

  it('market-maker with seeded jitter: requests and answers held in market time draw the same delays', async () => {
    const paper = await compare('market-maker', () => cut, { kind: 'jitter', entryMs: 5, responseMs: 10, jitterMs: 20 });
    // Frames less than the 5 ms minimum entry latency apart went in the same round.
    expect(paper.rounds).toBeLessThan(paper.frames);
  }, 60_000);

  it('bracket with a constant latency each way', async () => {
    const paper = await compare('bracket', () => cut, { kind: 'constant', entryMs: 20, responseMs: 30 });
    expect(paper.rounds).toBeLessThan(paper.frames);
  }, 60_000);

  it('market-maker with a jitter whose minimum entry latency is 0: one frame a round', async () => {
    const paper = await compare('market-maker', () => cut, { kind: 'jitter', entryMs: 0, responseMs: 2, jitterMs: 3 });
    expect(paper.rounds).toBeGreaterThanOrEqual(paper.frames);
  }, 60_000);

  it('two lockstep runs give the same executions', async () => {
    const file = packageFile('config', 'market-maker.yaml');
    const config = loadBotConfig(file);
    const first = await lockstepPaperOutcome(config, file, cut);
    const second = await lockstepPaperOutcome(config, file, cut);
    expect(first.fills.length).toBeGreaterThan(0);
    expect(facts(second)).toEqual(facts(first));
  }, 60_000);
});

/** How a WebSocket handshake to `url` ends: 'open', or the HTTP status it was refused with. */
function handshake(url: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(String(response.statusCode));
      socket.terminate();
    });
    socket.once('error', () => resolve('error'));
  });
}

describe('the lockstep control channel', () => {
  it('exists on a lockstep sandbox only, beside the API paths', async () => {
    for (const lockstep of [false, true]) {
      const server = await SandboxServer.start({ venue: simulatedVenueFactory(0), market: { kind: 'recording', path: cut }, paused: true, lockstep });
      try {
        expect(await handshake(`${server.wsBaseUrl}${LOCKSTEP_PATH}`)).toBe(lockstep ? 'open' : '404');
        expect(server.lockstep === undefined).toBe(!lockstep);
      } finally {
        await server.close();
      }
    }
  });

  it('carries a replay over its socket: a bot connecting by URL is driven through the market, its timers on time', async () => {
    const server = await SandboxServer.start({ venue: simulatedVenueFactory(0), market: { kind: 'recording', path: cut }, paused: true, lockstep: true });
    try {
      const start = server.lockstep!.time;
      const scheduler = new VirtualClockScheduler(new VirtualClock(start));
      const fired: number[] = [];
      scheduler.schedule(() => fired.push(scheduler.now()), 5_000);
      const client = new LockstepClient(scheduler);
      await client.connect(`${server.wsBaseUrl}${LOCKSTEP_PATH}`);
      server.play();
      await server.done;
      client.release();
      expect(server.lockstep!.rounds).toBeGreaterThan(0);
      expect(fired).toEqual([start + 5_000]);
    } finally {
      await server.close();
    }
  });
});
