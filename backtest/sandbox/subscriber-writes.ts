import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** A subscriber as {@link SubscriberWrites} sees it: its WebSocket and the socket under it. */
export interface Subscriber {
  readonly socket: WebSocket;
  /** The connection the WebSocket was upgraded from; unknown for a WebSocket built elsewhere. */
  readonly transport: Duplex | undefined;
}

/** Bytes a subscriber may have queued before a replay at full speed waits for it to read. */
const HIGH_WATER_BYTES = 4 << 20;

/**
 * How market messages reach subscribers' sockets at full speed: batched (few socket writes) and
 * paced by the slowest reader (nothing dropped, memory bounded).
 */
export class SubscriberWrites {
  private corked = false;

  /**
   * Messages sent in the same task (a batch of the replay) leave in as few socket writes as
   * possible: every subscriber's socket is corked now and uncorked once the task's synchronous
   * work is over. A message sent alone (real-time replay) still leaves at once.
   */
  corkUntilTaskEnd(subscribers: Iterable<Subscriber>): void {
    if (this.corked) return;
    this.corked = true;
    const corked: Duplex[] = [];
    for (const { transport } of subscribers) {
      if (transport !== undefined && !transport.destroyed) {
        transport.cork();
        corked.push(transport);
      }
    }
    queueMicrotask(() => {
      this.corked = false;
      for (const transport of corked) transport.uncork();
    });
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
}
