import type { WebSocket } from 'ws';
import { EXCHANGE_ERRORS } from '../../framework/exchange/errors.js';
import { noteSent } from './lockstep-driver.js';

/**
 * Replies as the real API v3 stream sends them: `jsonrpc` is set, and `id` is present only when the
 * request had one (exchange-notes.md: a reply to a request without id carries no id key at all).
 */
export function sendResult(socket: WebSocket, id: unknown, result: unknown): void {
  send(socket, resultText(id, result));
}

/** The text of the reply {@link sendResult} sends. */
export function resultText(id: unknown, result: unknown): string {
  return JSON.stringify(id === undefined ? { jsonrpc: '2.0', result } : { jsonrpc: '2.0', result, id });
}

/** An error reply `{ error: { code, message, description }, id }` with the table's message for the code. */
export function sendError(socket: WebSocket, id: unknown, code: number, description = ''): void {
  send(socket, errorText(id, code, description));
}

/** The text of the error reply {@link sendError} sends. */
export function errorText(id: unknown, code: number, description = ''): string {
  const message = EXCHANGE_ERRORS.get(code)?.message ?? 'Error';
  const error = { code, message, description };
  return JSON.stringify(id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', error, id });
}

/**
 * Sends a JSON frame (an object, its text, or its UTF-8 bytes, sent as a text message) if the
 * socket is still open; a closed socket is not an error for a broadcaster.
 */
export function send(socket: WebSocket, frame: unknown): void {
  if (socket.readyState !== socket.OPEN) return;
  noteSent(socket);
  if (typeof frame === 'string') socket.send(frame);
  else if (Buffer.isBuffer(frame)) socket.send(frame, { binary: false });
  else socket.send(JSON.stringify(frame));
}
