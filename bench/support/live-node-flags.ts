import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const LIVE_NODE_FLAGS = fileURLToPath(new URL('../../bin/live-node-flags', import.meta.url));

/**
 * The node flags `tradeloop live` and `paper` start node with (bin/live-node-flags, read by
 * bin/tradeloop): a bench that runs a bot process on its own gives it the same.
 */
export function liveNodeFlags(): string[] {
  return readFileSync(LIVE_NODE_FLAGS, 'utf8').split(/\s+/).filter((flag) => flag.length > 0);
}
