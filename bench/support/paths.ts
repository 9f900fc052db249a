import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/support/../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A data file shared beside the checkout: `shared/data/<name>` in the nearest folder above the
 * repository that has one (a clone sits next to `shared/`, a git worktree one level deeper);
 * undefined when there is none.
 */
export function sharedData(name: string): string | undefined {
  for (let dir = path.dirname(repoRoot); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'data', name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * {@link sharedData}, or `fallback` (relative to the repository root) when it is absent:
 * benchmarks run on a fresh clone with the shipped fixtures.
 */
export function sharedDataOr(name: string, fallback: string): string {
  return sharedData(name) ?? path.resolve(repoRoot, fallback);
}
