import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { backtestOutcome } from '../../cli/lockstep-comparison.js';
import { loadBotConfig } from '../../framework/config/bot-config.js';
import { packageFile } from '../../framework/package-root.js';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url));
const run = promisify(execFile);

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('tradeloop paper --lockstep', () => {
  it('trades a recording as a backtest of it does: the same fills and final balances', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-paper-lockstep-'));
    const recording = path.join(dir, 'cut.v3.jsonl');
    const lines = gunzipSync(readFileSync(packageFile('backtest', 'samples', 'synthetic-btc-eth.v3.jsonl.gz'))).toString('utf8').split('\n').slice(0, 8_000);
    writeFileSync(recording, `${lines.join('\n')}\n`);
    // The bracket example, its journal in the temporary folder.
    const config = path.join(dir, 'bracket.yaml');
    writeFileSync(config, `${readFileSync(packageFile('config', 'bracket.yaml'), 'utf8')}\njournal: { dir: ${JSON.stringify(path.join(dir, 'journal'))} }\nstatus: { intervalMs: 0 }\n`);

    const { stdout } = await run(process.execPath, [BIN, 'paper', '--config', config, '--recording', recording, '--lockstep'], { cwd: dir });

    const expected = await backtestOutcome(loadBotConfig(config), config, recording);
    expect(expected.fills.length).toBeGreaterThan(0);
    expect(stdout).toContain(`, ${expected.fills.length} fills`);
    const finals = Object.fromEntries([...stdout.matchAll(/^ {2}([A-Z]+) +\S+ -> (\S+)/gm)].map((m) => [m[1], m[2]]));
    expect(finals).toEqual(expected.finalBalances);
    expect(stdout).toMatch(/lockstep: \d+ frames in \d+ rounds/);
  }, 60_000);
});
