import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

// The compiled code (dist/tradeloop.cjs) is JavaScript; the sources, run under tsx or vitest, are TypeScript.
const COMPILED = !import.meta.url.endsWith('.ts');

/**
 * The folder of tradeloop's package.json: found by walking up from this module, so files shipped
 * beside the code (config/, samples, the schema) are found the same from the TypeScript sources
 * and from the compiled tree in dist/.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'tradeloop') return (root = dir);
    if (path.dirname(dir) === dir) throw new Error('tradeloop: package.json not found above its own code');
  }
}

/** A file of the package, by its path from the package root. */
export function packageFile(...segments: string[]): string {
  return path.join(packageRoot(), ...segments);
}

/**
 * A file of the package's code by its path in the sources (`strategies`,
 * `backtest/sweep/sweep-worker.mjs`): the source tree when the sources run, its twin under dist/
 * when the compiled code runs. The compiled modules are bundled into one file, so a module
 * cannot find its neighbours from its own location.
 */
export function codeFile(...segments: string[]): string {
  return COMPILED ? path.join(packageRoot(), 'dist', ...segments) : path.join(packageRoot(), ...segments);
}
