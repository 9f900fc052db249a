import { SyntheticMarket } from '../venue/synthetic/synthetic-market.js';
import type { SyntheticFuturesOptions } from '../venue/synthetic/synthetic-futures.js';
import type { MarketSource } from './sandbox-config.js';

/** Symbols of the sandbox's synthetic market. */
export const SYNTHETIC_SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;

const DAY_MS = 86_400_000;
/** 1970-01-01 was a Thursday: Fridays are 1 day after a multiple of 7 days from the epoch. */
const FRIDAY_OFFSET_MS = DAY_MS;
const EIGHT_HOURS_MS = 8 * 3_600_000;

/**
 * The futures contracts beside the spot pairs: `BTCUSDT_PERP`, a perpetual (funding 0.01 % every
 * 8 hours), and a cash-settled `BTCUSDT_<YYMMDD>` (10 USDT above spot) expiring on the first
 * Friday at 08:00 UTC at least 7 days after `start`; both follow BTCUSDT (see `FuturesMirror`).
 */
export function syntheticFutures(start: number): SyntheticFuturesOptions[] {
  const week = 7 * DAY_MS;
  let expiry = Math.ceil((start + week - FRIDAY_OFFSET_MS - EIGHT_HOURS_MS) / week) * week + FRIDAY_OFFSET_MS + EIGHT_HOURS_MS;
  if (expiry < start + week) expiry += week;
  const code = new Date(expiry).toISOString().slice(2, 10).replace(/-/g, '');
  return [
    { symbol: 'BTCUSDT_PERP', underlying: 'BTCUSDT' },
    { symbol: `BTCUSDT_${code}`, underlying: 'BTCUSDT', contractType: 'cash_settled', expiry, basisTicks: 1000 },
  ];
}

/**
 * The sandbox's market source for the seeded synthetic market, starting now: the same seed gives
 * the same prices and sizes (times follow the start). Spot BTCUSDT and ETHUSDT, and the futures
 * contracts of {@link syntheticFutures} with their futures info.
 */
export function syntheticMarketSource(seed: number, start = Date.now()): MarketSource {
  const market = new SyntheticMarket({ seed, symbols: [...SYNTHETIC_SYMBOLS], futures: syntheticFutures(start) });
  return { kind: 'frames', symbols: market.symbolInfos(), startTime: start, frames: () => market.frames({ start }) };
}
