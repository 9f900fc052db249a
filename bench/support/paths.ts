import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/support/../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A data file shared beside the checkout (`../shared/data/<name>`), or `fallback` (relative to the
 * repository root) when it is absent: benchmarks run on a fresh clone with the shipped fixtures.
 */
export function sharedDataOr(name: string, fallback: string): string {
  const shared = path.resolve(repoRoot, '..', 'shared', 'data', name);
  return existsSync(shared) ? shared : path.resolve(repoRoot, fallback);
}
