import type { OrderBook } from './order-book.js';

/** Why a book stopped being trustworthy. */
export type StaleReason =
  /** `s` did not rise by exactly 1 (skip, duplicate, reorder or server reset). */
  | { readonly kind: 'gap'; readonly expected: number; readonly got: number }
  /** The book ended a message with best bid >= best ask. */
  | { readonly kind: 'crossed'; readonly sequence: number }
  /** A level could not be applied exactly (malformed or beyond the exact integer range). */
  | { readonly kind: 'invalid'; readonly sequence: number; readonly message: string }
  /** The resync request itself failed; the book stays stale until {@link OrderBookKeeper.resync}. */
  | { readonly kind: 'resync-failed'; readonly message: string };

/**
 * What the keeper tells its consumers, tagged by `kind`.
 * - `snapshot`: the first book of a symbol is ready;
 * - `update`: a book changed (one per applied message);
 * - `stale`: a book was dropped; do not trade on it until `resynced`;
 * - `resynced`: a fresh snapshot replaced a stale book.
 * `book` is the live object, valid until the next event for the symbol: read it, do not keep it.
 */
export type BookEvent =
  | { readonly kind: 'snapshot'; readonly symbol: string; readonly sequence: number; readonly book: OrderBook }
  | { readonly kind: 'update'; readonly symbol: string; readonly sequence: number; readonly book: OrderBook }
  | { readonly kind: 'stale'; readonly symbol: string; readonly reason: StaleReason }
  | { readonly kind: 'resynced'; readonly symbol: string; readonly sequence: number; readonly book: OrderBook };

/** The port the keeper asks for a fresh snapshot through (the public WebSocket session). */
export interface ResyncPort {
  /** Unsubscribes and resubscribes `symbols` on `channel`; a snapshot follows on the stream. */
  resync(channel: string, symbols: string[]): Promise<void>;
}
