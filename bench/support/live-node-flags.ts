import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const LIVE_NODE_FLAGS = fileURLToPath(new URL('../../bin/live-node-flags', import.meta.url));

/**
 * The node flags `tradeloop live` and `paper` start node with: bin/live-node-flags, and V8's pool
 * of helper threads fitted to the machine as bin/tradeloop fits it (one helper fewer than the
 * cores, one to four). A bench that runs a bot process on its own gives it the same.
 */
export function liveNodeFlags(): string[] {
  const helpers = Math.min(4, Math.max(1, availableParallelism() - 1));
  return [`--v8-pool-size=${helpers}`, ...readFileSync(LIVE_NODE_FLAGS, 'utf8').split(/\s+/).filter((flag) => flag.length > 0)];
}
