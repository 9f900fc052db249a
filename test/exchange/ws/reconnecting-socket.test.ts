import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionStateError } from '../../../framework/exchange/errors.js';
import { ReconnectingSocket, type ReconnectingSocketOptions } from '../../../framework/exchange/ws/reconnecting-socket.js';
import type { SocketEvent, SocketFrame, SocketState } from '../../../framework/exchange/ws/socket-event.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { nextValue, until, WsTestServer } from '../../support/ws-test-server.js';

let server: WsTestServer;
const sockets: ReconnectingSocket[] = [];

function makeSocket(options: Partial<ReconnectingSocketOptions> = {}): ReconnectingSocket {
  const socket = new ReconnectingSocket({
    url: server.url(),
    clock: new VirtualClock(1_000),
    backoff: { initialMs: 20, maxMs: 200, factor: 2 },
    random: () => 0.5,
    pingIntervalMs: 0,
    ...options,
  });
  sockets.push(socket);
  return socket;
}

beforeEach(async () => {
  server = await WsTestServer.start();
});

afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
  await server.stop();
});

describe('ReconnectingSocket', () => {
  it('goes idle -> connecting -> open and delivers parsed frames stamped by the clock', async () => {
    const clock = new VirtualClock(5_000);
    const socket = makeSocket({ clock });
    const states: SocketState[] = [];
    socket.state$.subscribe((s) => states.push(s));
    const frames: SocketFrame[] = [];
    socket.frames$.subscribe((f) => frames.push(f));
    socket.start();
    await socket.whenOpen(2_000);
    const client = await server.nextConnection(true);
    clock.advanceTo(6_000);
    server.send(client, { ch: 'trades', update: {} });
    await until(() => frames.length === 1);
    expect(frames[0]).toEqual({ data: { ch: 'trades', update: {} }, receivedAt: 6_000 });
    expect(states).toEqual(['idle', 'connecting', 'open']);
  });

  it('reports a malformed frame with its length only, skips it and keeps delivering', async () => {
    const socket = makeSocket();
    const frames: unknown[] = [];
    const events: SocketEvent[] = [];
    socket.frames$.subscribe((f) => frames.push(f.data));
    socket.events$.subscribe((e) => events.push(e));
    socket.start();
    await socket.whenOpen(2_000);
    const client = await server.nextConnection(true);
    server.sendRaw(client, '{"secret":"abc"');
    server.send(client, { ok: 1 });
    await until(() => frames.length === 1);
    expect(frames).toEqual([{ ok: 1 }]);
    const malformed = events.find((e) => e.kind === 'malformed-frame');
    expect(malformed).toMatchObject({ kind: 'malformed-frame', length: 15 });
    expect(JSON.stringify(malformed)).not.toContain('secret');
  });

  it('hands each message\'s bytes to a raw-message handler first; what it declines is parsed and reported as without it', async () => {
    const clock = new VirtualClock(3_000);
    const socket = makeSocket({ clock });
    const taken: [string, number][] = [];
    const frames: unknown[] = [];
    const events: SocketEvent[] = [];
    let received = 0;
    socket.frames$.subscribe((f) => frames.push(f.data));
    socket.events$.subscribe((e) => events.push(e));
    socket.takeRawMessages((bytes, receivedAt) => {
      const text = bytes.toString('utf8');
      if (!text.startsWith('{"take"')) return false;
      taken.push([text, receivedAt]);
      return true;
    });
    const counted = makeSocket({ clock, onReceived: () => received++ });
    counted.takeRawMessages(() => true);
    socket.start();
    await socket.whenOpen(2_000);
    counted.start();
    await counted.whenOpen(2_000);
    server.sendRaw(server.clients[0]!, '{"take":1}');
    server.sendRaw(server.clients[0]!, '{"take":2');
    server.sendRaw(server.clients[0]!, '{"keep":1');
    server.sendRaw(server.clients[0]!, '{"keep":2}');
    server.sendRaw(server.clients[1]!, '{"keep":3}');
    await until(() => frames.length === 1 && received === 1);
    expect(taken).toEqual([['{"take":1}', 3_000], ['{"take":2', 3_000]]);
    expect(frames).toEqual([{ keep: 2 }]);
    expect(events.filter((e) => e.kind === 'malformed-frame')).toMatchObject([{ length: 9 }]);
    socket.takeRawMessages(undefined);
    server.sendRaw(server.clients[0]!, '{"take":3}');
    await until(() => frames.length === 2);
    expect(frames[1]).toEqual({ take: 3 });
  });

  it('sends only while open', async () => {
    const socket = makeSocket();
    expect(() => socket.send({ method: 'x' })).toThrow(ConnectionStateError);
    socket.start();
    await socket.whenOpen(2_000);
    socket.send({ method: 'hello' });
    const { message } = await server.nextMessage('hello');
    expect(message).toEqual({ method: 'hello' });
  });

  it('writes the messages of one turn in order, and before a close made in the same turn', async () => {
    const socket = makeSocket();
    socket.start();
    await socket.whenOpen(2_000);
    const client = await server.nextConnection(true);
    socket.send({ method: 'first' });
    socket.sendText('{"method":"second"}');
    socket.send({ method: 'third' });
    await socket.close();
    await until(() => client.received.length === 3);
    expect(client.received.map((m) => m.method)).toEqual(['first', 'second', 'third']);
  });

  it('never writes a message of a dropped connection on the next one', async () => {
    const socket = makeSocket();
    const events: SocketEvent[] = [];
    socket.events$.subscribe((e) => events.push(e));
    socket.start();
    await socket.whenOpen(2_000);
    const next = server.nextConnection();
    socket.send({ method: 'lost' });
    socket.dropConnection();
    const client = await next;
    await socket.whenOpen(2_000);
    socket.send({ method: 'after' });
    await until(() => client.received.length === 1);
    expect(client.received).toEqual([{ method: 'after' }]);
    // Dropped unwritten, not written into the dying socket (whose failure would be reported).
    expect(events.filter((e) => e.kind === 'error')).toEqual([]);
  });

  it('reconnects after a drop with growing jittered backoff until a stable period resets it', async () => {
    const socket = makeSocket({ stableAfterMs: 60_000 });
    const scheduled: Array<{ attempt: number; delayMs: number }> = [];
    socket.events$.subscribe((e) => {
      if (e.kind === 'reconnect-scheduled') scheduled.push({ attempt: e.attempt, delayMs: e.delayMs });
    });
    socket.start();
    await socket.whenOpen(2_000);
    for (let drop = 1; drop <= 3; drop++) {
      server.dropAll();
      await nextValue(socket.state$, (s) => s === 'reconnecting');
      await socket.whenOpen(2_000);
    }
    expect(server.connections).toBe(4);
    // random() = 0.5 gives half of the ceiling 20, 40, 80 ms.
    expect(scheduled).toEqual([
      { attempt: 1, delayMs: 10 },
      { attempt: 2, delayMs: 20 },
      { attempt: 3, delayMs: 40 },
    ]);
  });

  it('resets the backoff after the connection stayed open for stableAfterMs', async () => {
    let now = 0;
    const socket = makeSocket({ stableAfterMs: 1_000, monotonicNow: () => now });
    const delays: number[] = [];
    socket.events$.subscribe((e) => { if (e.kind === 'reconnect-scheduled') delays.push(e.delayMs); });
    socket.start();
    await socket.whenOpen(2_000);
    server.dropAll();
    await nextValue(socket.state$, (s) => s === 'reconnecting');
    await socket.whenOpen(2_000);
    now += 5_000;
    server.dropAll();
    await nextValue(socket.state$, (s) => s === 'reconnecting');
    await socket.whenOpen(2_000);
    expect(delays).toEqual([10, 10]);
  });

  it('terminates and redials a connection whose peer stops answering pings', async () => {
    const socket = makeSocket({ pingIntervalMs: 20, deadAfterMs: 250 });
    const events: SocketEvent[] = [];
    socket.events$.subscribe((e) => events.push(e));
    socket.start();
    await socket.whenOpen(2_000);
    // Healthy for a while: pongs keep it alive.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(events.some((e) => e.kind === 'dead-connection')).toBe(false);
    server.silent = true;
    const dead = await nextValue(socket.events$, (e) => e.kind === 'dead-connection');
    expect(dead.kind === 'dead-connection' && dead.silentMs).toBeGreaterThanOrEqual(250);
    server.silent = false;
    await nextValue(socket.events$, (e) => e.kind === 'connected');
    expect(server.connections).toBe(2);
  });

  it('gives up a handshake that does not complete within connectTimeoutMs', async () => {
    const held: Socket[] = [];
    const blackhole: Server = createServer((s) => held.push(s));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blackhole.address() as AddressInfo).port;
      const socket = makeSocket({ url: `ws://127.0.0.1:${port}/`, connectTimeoutMs: 50, maxReconnectAttempts: 1 });
      const events: SocketEvent[] = [];
      socket.events$.subscribe((e) => events.push(e));
      socket.start();
      await expect(socket.whenOpen()).rejects.toThrow(ConnectionStateError);
      expect(events.map((e) => e.kind)).toEqual(['connect-timeout', 'reconnect-scheduled', 'connect-timeout', 'gave-up']);
      expect(socket.state).toBe('closed');
    } finally {
      for (const s of held) s.destroy();
      await new Promise((resolve) => blackhole.close(resolve));
    }
  });

  it('close() stops for good: completes streams, leaves no timers and never redials', async () => {
    const timersBefore = activeTimers();
    const socket = makeSocket({ pingIntervalMs: 10 });
    let completed = 0;
    socket.frames$.subscribe({ complete: () => completed++ });
    socket.events$.subscribe({ complete: () => completed++ });
    socket.state$.subscribe({ complete: () => completed++ });
    socket.start();
    await socket.whenOpen(2_000);
    await socket.close();
    expect(socket.state).toBe('closed');
    expect(completed).toBe(3);
    expect(activeTimers()).toBe(timersBefore);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(server.connections).toBe(1);
    await expect(socket.whenOpen()).rejects.toThrow(ConnectionStateError);
    expect(() => socket.send({})).toThrow(ConnectionStateError);
  });

  it('close() while reconnecting cancels the pending redial', async () => {
    const socket = makeSocket({ backoff: { initialMs: 100, maxMs: 100, factor: 1 } });
    socket.start();
    await socket.whenOpen(2_000);
    server.dropAll();
    await nextValue(socket.state$, (s) => s === 'reconnecting');
    await socket.close();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(server.connections).toBe(1);
  });
});

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}
