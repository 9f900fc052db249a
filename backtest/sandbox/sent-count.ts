import type { WebSocket } from 'ws';

/** Messages the sandbox has handed to the sockets of one stream kind. */
export class SentCount {
  value = 0;
}

const SENT = new WeakMap<WebSocket, SentCount>();

/** Counts every message later handed to `socket` into `count` (lockstep: what the bot must have received). */
export function countSentOn(socket: WebSocket, count: SentCount): void {
  SENT.set(socket, count);
}

/** Tells the count of `socket`, if it has one, that a message was handed to it. */
export function noteSent(socket: WebSocket): void {
  const count = SENT.get(socket);
  if (count !== undefined) count.value++;
}
