import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/**
 * The source of the lightweight-charts standalone production build (defines the
 * `LightweightCharts` global), read once from the installed package so reports inline it and open
 * offline. The package exports only an ESM entry, so it is located through its `package.json`.
 */
export function chartLibrarySource(): string {
  if (cached === undefined) {
    const packageJson = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
    cached = readFileSync(join(dirname(packageJson), 'dist', 'lightweight-charts.standalone.production.js'), 'utf8');
  }
  return cached;
}
