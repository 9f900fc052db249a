import { SyntheticMarket } from '../venue/synthetic/synthetic-market.js';
import type { MarketSource } from './sandbox-config.js';

/** Symbols of the sandbox's synthetic market. */
export const SYNTHETIC_SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;

/**
 * The sandbox's market source for the seeded synthetic market, starting now: the same seed gives
 * the same prices and sizes (times follow the start).
 */
export function syntheticMarketSource(seed: number, start = Date.now()): MarketSource {
  const market = new SyntheticMarket({ seed, symbols: [...SYNTHETIC_SYMBOLS] });
  return { kind: 'frames', symbols: market.symbolInfos(), startTime: start, frames: () => market.frames({ start }) };
}
