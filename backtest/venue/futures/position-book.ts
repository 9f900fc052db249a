import type { FuturesAccounts } from './futures-accounts.js';
import type { LiquidationGate } from './liquidation.js';
import type { PositionHistory } from './position-history.js';

/**
 * One of the venue's two position-keeping sections, which follow the same money rules (margin,
 * positions, liquidation, position history): `futures` (futures contracts, margined per currency)
 * and `margin` (isolated margin accounts on spot symbols, margined per symbol). The modules under
 * `futures/` take a book so each rule is written once for both.
 */
export interface PositionBook {
  readonly name: 'futures' | 'margin';
  readonly accounts: FuturesAccounts;
  /** Closed positions of the section's accounts. */
  readonly history: PositionHistory;
  /** Skips the section's liquidation checks when nothing they read moved. */
  readonly gate: LiquidationGate;
}

/**
 * The reservation key of a book's pocket: `futures:USDT` (futures order margin of a currency) or
 * `margin:ETHUSDT` (order margin of an isolated margin account), so one reservation table keeps
 * spot funds (`USDT`, no colon) and both sections' order margins apart.
 */
export function pocketKey(book: PositionBook['name'], pocket: string): string {
  return `${book}:${pocket}`;
}

/** The book and pocket of a reservation key; undefined for a spot currency. */
export function parsePocketKey(key: string): { readonly book: PositionBook['name']; readonly pocket: string } | undefined {
  if (key.startsWith('futures:')) return { book: 'futures', pocket: key.slice(8) };
  if (key.startsWith('margin:')) return { book: 'margin', pocket: key.slice(7) };
  return undefined;
}
