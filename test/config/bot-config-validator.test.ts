import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseBotConfig } from '../../framework/config/bot-config.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const COMPILED_ENTRY = pathToFileURL(`${REPO}dist/framework/index.js`).href;
const run = promisify(execFile);

/** Configs that break the schema in the ways users do, and good ones whose defaults the schema fills. */
const CASES: readonly unknown[] = [
  { bot: { id: 'a', acount: 'spot' }, strategy: { name: 'market-maker', symbols: ['ETHUSDT'], errorPolicy: 'haltt' } },
  { bot: { id: 7 }, strategy: { name: '', symbols: 'ETHUSDT' } },
  { bot: { id: 'a', account: 'spot' }, strategy: { name: 'x', symbols: ['ETHUSDT'], candles: 'M7' }, backtest: { balances: { USDT: '-1' }, seed: -2 } },
  { bot: { id: 'a' }, strategy: { name: 'x', symbols: [] }, risk: { unknownLimit: 1 }, logging: { level: 'loud' } },
  { strategy: { name: 'x', symbols: ['ETHUSDT'] } },
  [1, 2],
  { bot: { id: 'a', account: 'spot' }, strategy: { name: 'market-maker', symbols: ['ETHUSDT'] } },
  { bot: { id: 'b', account: 'futures', leverage: { ETHUSDT_PERP: '5' } }, strategy: { name: 'x', symbols: ['ETHUSDT_PERP'], candles: 'M1' }, backtest: { balances: { USDT: 1000 }, seed: 3 } },
];

/**
 * What a config parse gives: the config (amounts as text) or every error's message. Plain
 * JavaScript, so that the child process running the compiled package reads it as it is.
 */
const OUTCOME = `(parseBotConfig) => (raw) => {
  try {
    return { config: JSON.parse(JSON.stringify(parseBotConfig(raw, '/configs', {}))) };
  } catch (error) {
    return { error: error.name + ': ' + error.message };
  }
}`;

describe('the bot config validator compiled at build time', () => {
  it('accepts, fills and refuses exactly as the schema compiled at run time does', async () => {
    // The compiled package (dist/, built by the test setup) carries ajv's standalone code of the
    // schema; the sources compile the schema with ajv when first used. Both are asked the same.
    const script = `
      const { parseBotConfig } = await import(${JSON.stringify(COMPILED_ENTRY)});
      const outcome = (${OUTCOME})(parseBotConfig);
      console.log(JSON.stringify(${JSON.stringify(CASES)}.map(outcome)));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    const compiled = JSON.parse(stdout) as unknown[];
    const outcome = (new Function(`return ${OUTCOME}`)() as (parse: typeof parseBotConfig) => (raw: unknown) => unknown)(parseBotConfig);
    const fromSources = CASES.map(outcome);
    expect(fromSources.filter((o) => 'config' in (o as object))).toHaveLength(2);
    expect(fromSources.filter((o) => String((o as { error?: string }).error).startsWith('ValidationErrors: '))).toHaveLength(4);
    expect(compiled).toEqual(fromSources);
  });
});
