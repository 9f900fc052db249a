import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { SubscriberWrites, type Subscriber } from '../../../backtest/sandbox/subscriber-writes.js';

interface Loopback {
  readonly subscriber: Subscriber;
  readonly client: WebSocket;
  readonly received: string[];
  close(): Promise<void>;
}

/** A server-side WebSocket with its transport and a `ws` client reading it, over 127.0.0.1. */
async function loopback(): Promise<Loopback> {
  const http: Server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  const accepted = new Promise<Subscriber>((resolve) => {
    http.on('upgrade', (req, socket: Duplex, head) => wss.handleUpgrade(req, socket, head, (ws) => resolve({ socket: ws, transport: socket })));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
  const received: string[] = [];
  client.on('message', (data, isBinary) => received.push(isBinary ? `binary:${data.toString()}` : data.toString()));
  await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
  const subscriber = await accepted;
  return {
    subscriber, client, received,
    close: async () => {
      client.terminate();
      subscriber.socket.terminate();
      wss.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('SubscriberWrites', () => {
  let open: Loopback | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('delivers messages sent in one task as the same text messages, in order, across every frame length form', async () => {
    open = await loopback();
    const writes = new SubscriberWrites();
    // Payload lengths around the 7-bit, 16-bit and 64-bit length forms, in text and in bytes, with multi-byte UTF-8.
    // Each message is exactly that many UTF-8 bytes long.
    const sizes = [0, 1, 125, 126, 127, 65_535, 65_536, 70_000];
    const sent = sizes.flatMap((n) => ['x'.repeat(n), n >= 5 ? `é€${'y'.repeat(n - 5)}` : 'y'.repeat(n)]);
    for (const [i, message] of sent.entries()) writes.send(open.subscriber, i % 2 === 0 ? message : Buffer.from(message, 'utf8'));
    await until(() => open!.received.length >= sent.length);
    // One more write later: a stray byte after the batch would have broken the stream before it.
    writes.send(open.subscriber, 'end');
    await until(() => open!.received.length > sent.length || open!.client.readyState !== WebSocket.OPEN);
    expect(open.received).toEqual([...sent, 'end']);
  });

  it('any run of messages arrives as sent, whatever tasks they are sent in', async () => {
    open = await loopback();
    const conn = open;
    const writes = new SubscriberWrites();
    let expected: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { maxLength: 20 }), { maxLength: 5 }), async (tasks) => {
        conn.received.length = 0;
        expected = tasks.flat();
        for (const task of tasks) {
          for (const message of task) writes.send(conn.subscriber, message);
          await new Promise((resolve) => setImmediate(resolve));
        }
        await until(() => conn.received.length >= expected.length);
        expect(conn.received).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('sends nothing once the socket is closing', async () => {
    open = await loopback();
    const writes = new SubscriberWrites();
    writes.send(open.subscriber, 'before');
    await until(() => open!.received.length === 1);
    const closed = new Promise((resolve) => open!.client.once('close', resolve));
    open.subscriber.socket.close();
    writes.send(open.subscriber, 'after');
    await closed;
    expect(open.received).toEqual(['before']);
  });
});
