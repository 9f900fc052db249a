import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { noteSent } from './lockstep-driver.js';
import { inMicrotask } from '../../framework/time/microtask.js';

/** A subscriber as {@link SubscriberWrites} sees it: its WebSocket and the socket under it. */
export interface Subscriber {
  readonly socket: WebSocket;
  /** The connection the WebSocket was upgraded from; unknown for a WebSocket built elsewhere. */
  readonly transport: Duplex | undefined;
}

/** A message as it goes out: JSON text, or its UTF-8 bytes. */
export type OutgoingMessage = string | Buffer;

/** Bytes a subscriber may have queued before a replay at full speed waits for it to read. */
const HIGH_WATER_BYTES = 4 << 20;

/** First byte of an unfragmented text frame: FIN and opcode 1 (RFC 6455, 5.2). */
const FIN_TEXT = 0x81;
const LENGTH_16 = 126;
const LENGTH_64 = 127;

/**
 * How market messages reach subscribers' sockets at full speed: batched (one socket write per
 * subscriber and task) and paced by the slowest reader (nothing dropped, memory bounded).
 *
 * Messages sent in the same task (a batch of the replay) are framed together into one buffer and
 * leave in one write once the task's synchronous work is over; a message sent alone (real-time
 * replay) still leaves at once. Framing here rather than in `ws` saves its per-message header
 * buffer and the stream's per-chunk bookkeeping, the bulk of the cost of a small message. Frames
 * of a server are unmasked and this server negotiates no extension, so a text frame is its 2, 4 or
 * 10 header bytes and the payload; a socket with an extension (or without its transport) is
 * left to `ws`.
 */
export class SubscriberWrites {
  private readonly pending = new Map<Subscriber, OutgoingMessage[]>();
  private flushQueued = false;

  /** Queues `message` for `subscriber`: it leaves, in order, when the current task ends. */
  send(subscriber: Subscriber, message: OutgoingMessage): void {
    noteSent(subscriber.socket);
    let queue = this.pending.get(subscriber);
    if (queue === undefined) this.pending.set(subscriber, (queue = []));
    queue.push(message);
    if (this.flushQueued) return;
    this.flushQueued = true;
    inMicrotask(() => this.flush());
  }

  /**
   * Undefined while every subscriber keeps up; otherwise resolves once none has more than
   * {@link HIGH_WATER_BYTES} queued (or it is gone). Nothing is dropped: the market waits.
   */
  whenDrained(subscribers: Iterable<Subscriber>): Promise<void> | undefined {
    for (const { socket, transport } of subscribers) {
      if (transport === undefined || socket.bufferedAmount <= HIGH_WATER_BYTES || transport.destroyed) continue;
      return new Promise<void>((resolve) => {
        const done = (): void => {
          transport.off('drain', done);
          transport.off('close', done);
          resolve();
        };
        transport.on('drain', done);
        transport.on('close', done);
      }).then(() => this.whenDrained(subscribers));
    }
    return undefined;
  }

  private flush(): void {
    this.flushQueued = false;
    for (const [subscriber, messages] of this.pending) {
      const { socket, transport } = subscriber;
      // A closing socket has sent (or is sending) its close frame: nothing may follow it.
      if (socket.readyState !== socket.OPEN) continue;
      if (transport === undefined || transport.destroyed || socket.extensions !== '') {
        for (const message of messages) socket.send(message, { binary: false });
      } else {
        transport.write(framed(messages));
      }
    }
    this.pending.clear();
  }
}

/** `messages` as consecutive unmasked text frames in one buffer. */
function framed(messages: readonly OutgoingMessage[]): Buffer {
  const lengths = new Array<number>(messages.length);
  let size = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as OutgoingMessage;
    const length = typeof message === 'string' ? Buffer.byteLength(message, 'utf8') : message.length;
    lengths[i] = length;
    size += headerLength(length) + length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as OutgoingMessage;
    const length = lengths[i] as number;
    out[at++] = FIN_TEXT;
    if (length < LENGTH_16) {
      out[at++] = length;
    } else if (length <= 0xffff) {
      out[at++] = LENGTH_16;
      at = out.writeUInt16BE(length, at);
    } else {
      out[at++] = LENGTH_64;
      at = out.writeUInt32BE(Math.floor(length / 2 ** 32), at);
      at = out.writeUInt32BE(length >>> 0, at);
    }
    at += typeof message === 'string' ? out.write(message, at, 'utf8') : message.copy(out, at);
  }
  return out;
}

function headerLength(payload: number): number {
  if (payload < LENGTH_16) return 2;
  return payload <= 0xffff ? 4 : 10;
}
