import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestOutcome, fillText, lockstepPaperOutcome, outcomeDifferences, type RunOutcome } from '../../cli/lockstep-comparison.js';
import { loadBotConfig } from '../../framework/config/bot-config.js';
import { packageFile } from '../../framework/package-root.js';

// The example perpetual strategy in lockstep paper (the real clients over loopback against the
// sandbox's futures account) and in a backtest of the same recording: every execution, the final
// futures margin balances and the open position must be the same.

const SAMPLE = packageFile('backtest', 'samples', 'synthetic-btc-perp.v3.jsonl.gz');
/** Lines of the sample kept: 4 and a half minutes of market, past the funding at 00:00 (line 5182), a position open at the end. */
const CUT_LINES = 5_500;

let dir: string;
let cut: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lockstep-paper-futures-'));
  cut = path.join(dir, 'cut.v3.jsonl');
  const lines = gunzipSync(readFileSync(SAMPLE)).toString('utf8').split('\n').slice(0, CUT_LINES);
  writeFileSync(cut, `${lines.join('\n')}\n`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The comparable part of an outcome (not the wall time, nor the frame counts: the sandbox counts
 * the recorded futures info answers it served, the backtest its market frames only).
 */
function facts(outcome: RunOutcome): { fills: string[]; finalBalances: Readonly<Record<string, string>>; positions: unknown } {
  return { fills: outcome.fills.map(fillText), finalBalances: outcome.finalBalances, positions: outcome.positions };
}

describe('lockstep paper equals a backtest on a futures account', () => {
  it('perp-maker: the same fills, futures margin balances and position', async () => {
    const file = packageFile('config', 'perp-maker.yaml');
    const config = loadBotConfig(file);
    const backtest = await backtestOutcome(config, file, cut);
    const paper = await lockstepPaperOutcome(config, file, cut);
    // A comparison of nothing proves nothing: the run trades and ends holding a position.
    expect(backtest.fills.length).toBeGreaterThan(0);
    expect(Object.keys(backtest.positions ?? {})).toEqual(['BTCUSDT_PERP']);
    expect(outcomeDifferences(backtest, paper)).toEqual([]);
    expect(facts(paper)).toEqual(facts(backtest));
  }, 60_000);
});
