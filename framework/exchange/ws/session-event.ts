import type { TradeloopError } from '../../model/errors.js';
import type { RpcEvent } from './rpc-connection.js';

/**
 * Events of a streaming session: the connection's own plus what the session did about them.
 * `resubscribed` follows every reconnect once per restored subscription, so that a consumer holding
 * state built from the stream (an order book, an order tracker) knows to rebuild it.
 */
export type SessionEvent =
  | RpcEvent
  | { readonly kind: 'logged-in'; readonly at: number }
  | { readonly kind: 'login-failed'; readonly at: number; readonly error: TradeloopError | Error }
  | { readonly kind: 'resubscribed'; readonly at: number; readonly ch: string; readonly symbols: readonly string[] }
  | {
      readonly kind: 'resubscribe-failed';
      readonly at: number;
      readonly ch: string;
      readonly symbols: readonly string[];
      readonly error: TradeloopError | Error;
    }
  | { readonly kind: 'parse-error'; readonly at: number; readonly ch: string; readonly error: Error };

/** One restored subscription, as announced on `resubscribed$`. */
export interface Resubscription {
  /** Channel (public) or subscribe method (trading, wallet). */
  readonly ch: string;
  readonly symbols: readonly string[];
  readonly at: number;
}
