import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url));
const run = promisify(execFile);

describe('the tradeloop command run from outside the repository', () => {
  it('compiles with the project\'s settings and reports a bad config by field, exit code 1', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-cwd-'));
    const config = path.join(dir, 'bot.yaml');
    writeFileSync(config, 'bot: { id: ok1 }\nstrategy: { name: market-maker, symbols: [ETHUSDT], params: { halfSpreadBps: "-1" } }\n');
    // `live` loads the composition root (decorators): it must compile whatever the working directory.
    const live = await run(process.execPath, [BIN, 'live', '--config', config], { cwd: dir }).catch((e: { code: number; stderr: string }) => e);
    expect(live).toMatchObject({ code: 1 });
    expect((live as { stderr: string }).stderr).toMatch(/tradeloop live: exchange: is required/);
    const backtest = await run(process.execPath, [BIN, 'backtest', '--config', config], { cwd: dir }).catch((e: { code: number; stderr: string }) => e);
    expect(backtest).toMatchObject({ code: 1 });
    expect((backtest as { stderr: string }).stderr).toMatch(/params\.halfSpreadBps: must be >= 0/);
  }, 30_000);
});
