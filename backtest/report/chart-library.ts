import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The build of lightweight-charts that defines the `LightweightCharts` global. */
const STANDALONE = join('lightweight-charts', 'dist', 'lightweight-charts.standalone.production.js');

let cached: string | undefined;

/**
 * The source of the lightweight-charts standalone production build (defines the
 * `LightweightCharts` global), read once from the installed package so reports inline it and open
 * offline. The file is looked for in the folders Node would search for the package, nearest
 * first: the package exports only an ESM entry, and resolving through its exports map cost a
 * cold backtest ~6 ms of Node's resolver for one file path.
 */
export function chartLibrarySource(): string {
  if (cached === undefined) {
    const folders = createRequire(import.meta.url).resolve.paths('lightweight-charts') ?? [];
    const file = folders.map((folder) => join(folder, STANDALONE)).find((candidate) => existsSync(candidate));
    if (file === undefined) throw new Error(`tradeloop: ${STANDALONE} not found (is lightweight-charts installed?)`);
    cached = readFileSync(file, 'utf8');
  }
  return cached;
}
