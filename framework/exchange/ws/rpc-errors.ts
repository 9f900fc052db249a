import { ConnectionStateError, NetworkError, TimeoutError } from '../errors.js';

/**
 * The connection dropped while a request was in flight. `outcomeUnknown` (from NetworkError) is true
 * when the request had been written to the socket: the exchange may have acted on it (an order may
 * exist), so the caller must reconcile instead of blindly repeating it.
 */
export class ConnectionLostError extends NetworkError {
  constructor(
    readonly method: string,
    outcomeUnknown: boolean,
  ) {
    super(`connection lost during ${method}${outcomeUnknown ? ' (request was sent: outcome unknown)' : ''}`, { outcomeUnknown });
  }
}

/** The session was closed by its owner while a request was in flight. */
export class SessionClosedError extends ConnectionStateError {
  constructor(
    readonly method: string,
    /** True when the request had been sent: the exchange may have acted on it. */
    readonly outcomeUnknown: boolean,
  ) {
    super(`session closed during ${method}${outcomeUnknown ? ' (request was sent: outcome unknown)' : ''}`);
  }
}

/** No reply within the request's deadline; the request was sent, so its outcome is unknown. */
export class RequestTimeoutError extends TimeoutError {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`no reply to ${method} within ${timeoutMs} ms (outcome unknown)`, { outcomeUnknown: true });
  }
}
