import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { inMicrotask } from '../../framework/time/microtask.js';

/** Messages the sandbox has handed to the sockets of one stream kind. */
export class SentCount {
  value = 0;
}

const SENT = new WeakMap<WebSocket, SentCount>();
const BY_TURN = new WeakMap<WebSocket, Duplex>();

/** Counts every message later handed to `socket` into `count` (lockstep: what the bot must have received). */
export function countSentOn(socket: WebSocket, count: SentCount): void {
  SENT.set(socket, count);
}

/**
 * The messages later sent to `socket` in one turn leave in one write of `transport` (the
 * connection under it), once the turn's synchronous work is over: a lockstep round answers
 * several requests and reports at once, and each write over loopback is a system call.
 */
export function writeByTurn(socket: WebSocket, transport: Duplex): void {
  BY_TURN.set(socket, transport);
}

/** Tells the count of `socket`, if it has one, that a message was handed to it (and holds the write to the turn's end, if asked). */
export function noteSent(socket: WebSocket): void {
  const count = SENT.get(socket);
  if (count !== undefined) count.value++;
  const transport = BY_TURN.get(socket);
  if (transport !== undefined && transport.writableCorked === 0 && !transport.destroyed) {
    transport.cork();
    inMicrotask(() => transport.uncork());
  }
}
