/**
 * What a WebSocket connection reports besides data frames. Consumers log these and react (a book
 * drops its state on `disconnected`); none of them ever carries a payload that could hold secrets:
 * a malformed frame is described by its length only.
 */
export type SocketEvent =
  | { readonly kind: 'connected'; readonly at: number; readonly attempt: number }
  | { readonly kind: 'disconnected'; readonly at: number; readonly code: number; readonly reason: string }
  | { readonly kind: 'reconnect-scheduled'; readonly at: number; readonly attempt: number; readonly delayMs: number }
  | { readonly kind: 'connect-timeout'; readonly at: number; readonly timeoutMs: number }
  | { readonly kind: 'dead-connection'; readonly at: number; readonly silentMs: number }
  | { readonly kind: 'malformed-frame'; readonly at: number; readonly length: number; readonly error: Error }
  | { readonly kind: 'error'; readonly at: number; readonly error: Error }
  | { readonly kind: 'gave-up'; readonly at: number; readonly attempts: number };

/** Lifecycle of one logical connection. `closed` is final: only `close()` leads there. */
export type SocketState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** One parsed frame and the local time it arrived (the `ts_init` of every event built from it). */
export interface SocketFrame {
  readonly data: unknown;
  /** Local receive time, UNIX ms, from the injected Clock. */
  readonly receivedAt: number;
}

/**
 * Sees a received message first, as the bytes that arrived (before any text decoding or
 * `JSON.parse`): answers true when it took the message, which then goes nowhere else, and false
 * to leave it to the general way (parsed, then `frames$`). See ReconnectingSocket.takeRawMessages.
 */
export type RawMessageHandler = (bytes: Buffer, receivedAt: number) => boolean;
