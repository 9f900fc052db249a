import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../framework/model/errors.js';
import { loadStrategy, loadStrategyPlugin } from '../../framework/runtime/plugin-loader.js';

const PLUGIN_SOURCE = `
import { ValidationError } from '${path.resolve('framework/model/errors.ts').replaceAll('\\', '/')}';
export default {
  name: 'tiny',
  description: 'quotes one level',
  parseParams(raw) {
    const levels = raw.levels ?? 3;
    if (!Number.isInteger(levels) || levels < 1) throw new ValidationError('levels', 'must be an integer >= 1', levels);
    return { levels };
  },
  create(params) {
    return { onStart: () => undefined, params };
  },
};
`;

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-plugin-'));
  mkdirSync(path.join(dir, 'strategies', 'tiny'), { recursive: true });
  writeFileSync(path.join(dir, 'strategies', 'tiny', 'tiny.strategy.ts'), PLUGIN_SOURCE);
  writeFileSync(path.join(dir, 'my-bot.mjs'), PLUGIN_SOURCE);
  writeFileSync(path.join(dir, 'no-default.mjs'), 'export const plugin = {};\n');
  writeFileSync(path.join(dir, 'half.mjs'), "export default { name: 'half', description: 'x', parseParams() {} };\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('loadStrategyPlugin', () => {
  it('loads by name from <strategiesDir>/<name>/<name>.strategy.ts', async () => {
    const { plugin, source } = await loadStrategyPlugin('tiny', { strategiesDir: path.join(dir, 'strategies') });
    expect(plugin.name).toBe('tiny');
    expect(source).toContain('tiny.strategy.ts');
  });

  it('loads by path outside the repository (relative to baseDir and absolute)', async () => {
    const relative = await loadStrategy('./my-bot.mjs', { levels: 5 }, { baseDir: dir });
    expect(relative.params).toEqual({ levels: 5 });
    const absolute = await loadStrategy(path.join(dir, 'my-bot.mjs'), undefined, { baseDir: '/' });
    expect(absolute.params).toEqual({ levels: 3 });
    expect(typeof absolute.plugin.create(absolute.params).onStart).toBe('function');
  });

  it('names the failing parameter', async () => {
    const error = await rejection(loadStrategy('./my-bot.mjs', { levels: 0 }, { baseDir: dir }));
    expect(error.field).toBe('params.levels');
    expect(error.message).toContain('must be an integer >= 1');
  });

  it('refuses unknown names, missing files and modules without a valid default export', async () => {
    const strategiesDir = path.join(dir, 'strategies');
    expect((await rejection(loadStrategyPlugin('nope', { strategiesDir, baseDir: dir }))).message).toContain('unknown strategy');
    expect((await rejection(loadStrategyPlugin('./missing.mjs', { baseDir: dir }))).message).toContain('no such plugin file');
    expect((await rejection(loadStrategyPlugin('./no-default.mjs', { baseDir: dir }))).message).toContain('default export');
    expect((await rejection(loadStrategyPlugin('./half.mjs', { baseDir: dir }))).message).toContain('`create`');
    expect((await rejection(loadStrategyPlugin('', {}))).field).toBe('strategy');
  });

  it('lists the available strategies for an unknown name, with the likely one of a typo', async () => {
    const message = (await rejection(loadStrategyPlugin('market-makr', { baseDir: dir }))).message;
    expect(message).toContain('did you mean market-maker?');
    expect(message).toMatch(/available: bracket, ma-crossover, market-maker/);
  });
});
