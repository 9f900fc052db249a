import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachedDataVersionTag } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { tuneHeapForReplay } from '../../cli/replay-heap.js';

/** dist/, built by the tests' global setup (with its code cache). */
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * In a process of its own: loads the bundle through the loader in `folder`, runs `tradeloop help`
 * with it, saves the code cache as the command does, and answers how the start compiled the bundle
 * and the command's exit code (`used 0`).
 */
function start(folder: string): string {
  const loader = pathToFileURL(path.join(folder, 'bundle-loader.mjs')).href;
  const program = [
    `const { tradeloopBundle } = await import(${JSON.stringify(loader)});`,
    'const bundle = tradeloopBundle();',
    "const { main } = await bundle.load('cli/main.ts');",
    "const code = await main(['help']);",
    'bundle.saveCodeCache();',
    'process.stderr.write(`${bundle.codeCache} ${code}`);',
  ].join('\n');
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  expect(result.status).toBe(0);
  return result.stderr;
}

/**
 * A copy of the bundle and its loader, without a cache, in a temporary folder inside dist/ (where
 * the bundle finds the package's files and dependencies).
 */
function copiedBundle(): string {
  dir = mkdtempSync(path.join(DIST, '.bundle-test-'));
  for (const file of ['bundle-loader.mjs', 'tradeloop.cjs']) copyFileSync(path.join(DIST, file), path.join(dir, file));
  return dir;
}

describe('the compiled bundle and its code cache', () => {
  it('starts with the code cache the build wrote', () => {
    expect(readdirSync(path.join(DIST, 'code-cache')).filter((name) => name.endsWith(`-${cachedDataVersionTag()}.bin`))).toHaveLength(1);
    expect(start(DIST)).toBe('used 0');
  });

  it('is ASCII throughout, which the loader reads as latin1', () => {
    const bytes = readFileSync(path.join(DIST, 'tradeloop.cjs'));
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it('writes a cache after a run that had none, and uses it at the next start', () => {
    const folder = copiedBundle();
    expect(start(folder)).toBe('none 0');
    expect(readdirSync(path.join(folder, 'code-cache'))).toHaveLength(1);
    expect(start(folder)).toBe('used 0');
  });

  it('never uses the cache of another build of the bundle, even one of the same length', () => {
    const folder = copiedBundle();
    expect(start(folder)).toBe('none 0');
    const bundle = path.join(folder, 'tradeloop.cjs');
    const text = readFileSync(bundle, 'utf8');
    // Same length, other code: V8, which checks only the source's length, would take the old cache.
    writeFileSync(bundle, text.replace('tradeloop: no compiled entry', 'tradeloop: no compiled ENTRY'));
    expect(readFileSync(bundle, 'utf8')).not.toBe(text);
    expect(readFileSync(bundle, 'utf8').length).toBe(text.length);
    expect(start(folder)).toBe('none 0');
    expect(start(folder)).toBe('used 0');
  });

  it('keeps the V8 flags a cache is checked against: the heap settings a backtest tunes are put back', () => {
    const before = cachedDataVersionTag();
    const untune = tuneHeapForReplay();
    expect(cachedDataVersionTag()).not.toBe(before);
    untune();
    expect(cachedDataVersionTag()).toBe(before);
  });
});
