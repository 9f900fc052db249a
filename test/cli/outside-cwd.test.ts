import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url));
const ENTRY = fileURLToPath(new URL('../../framework/index.ts', import.meta.url));
const STRATEGIES_README = fileURLToPath(new URL('../../strategies/README.md', import.meta.url));
const run = promisify(execFile);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

describe('the tradeloop command run from outside the repository', () => {
  it('compiles with the project\'s settings and reports a bad config by field, exit code 1', async () => {
    const dir = tempDir('tradeloop-cwd-');
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

  it('loads the README\'s example strategy from a folder with no package.json, by path from a config', async () => {
    const source = /```ts\n([\s\S]*?)```/.exec(readFileSync(STRATEGIES_README, 'utf8'))?.[1];
    expect(source).toContain('export default plugin');
    expect(source).toContain("from 'tradeloop'");
    // With no node_modules/tradeloop to resolve, the entry is imported from where it is checked out.
    const dir = tempDir('tradeloop-outside-strategy-');
    mkdirSync(path.join(dir, 'bots'));
    writeFileSync(path.join(dir, 'bots', 'dip-buyer.ts'), source!.replaceAll("from 'tradeloop'", `from '${ENTRY}'`));
    expect(existsSync(path.join(dir, 'package.json'))).toBe(false);
    writeFileSync(path.join(dir, 'bot.yaml'), 'bot: { id: dip1 }\nstrategy: { name: ./bots/dip-buyer.ts, symbols: [BTCUSDT] }\n');
    const out = path.join(dir, 'report');
    const result = await run(process.execPath, [BIN, 'backtest', '--config', 'bot.yaml', '--out', out, '--quiet'], { cwd: dir })
      .catch((e: { code: number; stderr: string }) => e);
    expect(result).toMatchObject({ stderr: '' });
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { meta: { strategy: string }; metrics: { pnlByCurrency: Record<string, string> } };
    expect(summary.meta.strategy).toBe('./bots/dip-buyer.ts');
    // The strategy ran: it buys its default quantity once, on the sample's first dip.
    expect(summary.metrics.pnlByCurrency['BTC']).toBe('0.01');
  }, 60_000);
});
