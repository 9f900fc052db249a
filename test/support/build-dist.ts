import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: compiles the sources to dist/ once before the tests, so that the tests
 * which run the `tradeloop` command as a user does (a child process) run today's code.
 */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url))], { stdio: 'inherit' });
}
