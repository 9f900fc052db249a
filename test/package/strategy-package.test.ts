import { execFile } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** A user's strategy: it imports only the package's public entry, never a path into the framework. */
const STRATEGY = `import { dec, decimalParam, defineParams, ValidationError, type StrategyPlugin } from 'tradeloop';

const schema = defineParams({
  quantity: decimalParam({ description: 'Base quantity bought once', default: '0.01', positive: true }),
});

function parseParams(raw: unknown) {
  const params = schema(raw);
  if (params.quantity.greaterThan(dec('1'))) throw new ValidationError('quantity', 'must be at most 1 in this example', params.quantity.toString());
  return params;
}

const plugin: StrategyPlugin<ReturnType<typeof parseParams>> = {
  name: 'buy-once',
  description: 'Buys a fixed quantity at market on the first book with an ask',
  parseParams,
  create: () => {
    let sent = false;
    return {
      onBook(ctx, symbol, book) {
        if (sent || book.bestAsk() === undefined) return;
        sent = true;
        return ctx.place({ symbol, side: 'buy', type: 'market', quantity: ctx.params.quantity }, 'once');
      },
    };
  },
};
export default plugin;
`;

/** A program embedding tradeloop: loads the strategy and backtests it through the entries, no CLI. */
const PROGRAM = `import { loadStrategy } from 'tradeloop';
import { computeMetrics, runBacktest, SAMPLE_RECORDING } from 'tradeloop/backtest';
import { createLiveContainer } from 'tradeloop/live';
import { RestClient } from 'tradeloop/exchange';
import { SandboxServer } from 'tradeloop/sandbox';

const { plugin, params } = await loadStrategy('./buy-once.strategy.ts', { quantity: '0.02' });
const result = await runBacktest({
  strategyRef: plugin.name, plugin, params, symbols: ['BTCUSDT'], recordings: [SAMPLE_RECORDING], balances: { USDT: '10000' },
});
const metrics = computeMetrics(result);
const entries = [createLiveContainer, RestClient, SandboxServer].map((f) => typeof f);
console.log(JSON.stringify({ fills: result.fills.length, btc: metrics.pnlByCurrency['BTC'], entries }));
`;

let dir: string;
let bin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-strategy-package-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'my-strategies',
    private: true,
    type: 'module',
    dependencies: { tradeloop: `file:${REPO}` },
  }));
  writeFileSync(path.join(dir, 'buy-once.strategy.ts'), STRATEGY);
  writeFileSync(path.join(dir, 'program.ts'), PROGRAM);
  // npm links a file: dependency (node_modules/tradeloop -> the checkout); nothing is fetched. Its cache
  // and logs stay in the temporary folder.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-update-notifier', '--cache', path.join(dir, '.npm-cache')], { cwd: dir });
  bin = path.join(dir, 'node_modules', 'tradeloop', 'bin', 'tradeloop.mjs');
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function backtest(config: string, out: string) {
  writeFileSync(path.join(dir, 'bot.yaml'), config);
  const recording = path.join(dir, 'node_modules', 'tradeloop', 'backtest', 'samples', 'synthetic-btc-eth.v3.jsonl.gz');
  return run(process.execPath, [bin, 'backtest', '--config', 'bot.yaml', '--recording', recording, '--out', out, '--quiet'], { cwd: dir })
    .catch((e: { code: number; stdout: string; stderr: string }) => e);
}

describe('a strategy package outside the repository, depending on tradeloop by file:', () => {
  it('is installed by npm as a link to the checkout', () => {
    const installed = path.join(dir, 'node_modules', 'tradeloop');
    expect(lstatSync(installed).isSymbolicLink()).toBe(true);
    expect(realpathSync(installed)).toBe(realpathSync(REPO));
  });

  it('backtests a strategy that imports only from tradeloop, through the package\'s tradeloop command', async () => {
    const out = path.join(dir, 'report');
    const result = await backtest('bot: { id: once1 }\nstrategy: { name: ./buy-once.strategy.ts, symbols: [BTCUSDT] }\n', out);
    expect(result).toMatchObject({ stderr: '' });
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { meta: { strategy: string }; metrics: { pnlByCurrency: Record<string, string> } };
    expect(summary.meta.strategy).toBe('./buy-once.strategy.ts');
    // It traded: the one market buy filled, in full.
    expect(summary.metrics.pnlByCurrency['BTC']).toBe('0.01');
    const fills = readFileSync(path.join(out, 'fills.csv'), 'utf8').trim().split('\n');
    expect(fills).toHaveLength(2);
  }, 60_000);

  it('runs a program that backtests the strategy through tradeloop and tradeloop/backtest, and imports the other entries', async () => {
    // The sources are TypeScript: tradeloop/register compiles them (and the program) as the package's own command does.
    const { stdout } = await run(process.execPath, ['--import', 'tradeloop/register', 'program.ts'], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({ fills: 1, btc: '0.02', entries: ['function', 'function', 'function'] });
  }, 60_000);

  it('reports the strategy\'s own ValidationError by field: the strategy and the command share one framework', async () => {
    const result = await backtest('bot: { id: once2 }\nstrategy: { name: ./buy-once.strategy.ts, symbols: [BTCUSDT], params: { quantity: "2" } }\n', path.join(dir, 'report2'));
    expect(result).toMatchObject({ code: 1 });
    expect((result as { stderr: string }).stderr).toMatch(/params\.quantity: must be at most 1 in this example/);
  }, 60_000);
});
