import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { LockstepDriver } from '../../../backtest/sandbox/lockstep-driver.js';
import type { AdvanceMessage } from '../../../framework/live/lockstep-protocol.js';

/** The driver's control socket, played by the test: what the driver sent, and a way to answer. */
class FakeControl extends EventEmitter {
  readonly sent: AdvanceMessage[] = [];
  private read = 0;
  private waiting: (() => void) | undefined;

  send(text: string): void {
    this.sent.push(JSON.parse(text) as AdvanceMessage);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  close(): void {}
  terminate(): void {}

  /** The next advance the driver sent or sends, in order. */
  async nextAdvance(): Promise<AdvanceMessage> {
    if (this.read >= this.sent.length) await new Promise<void>((resolve) => (this.waiting = resolve));
    return this.sent[this.read++]!;
  }

  say(message: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(message)));
  }
}

function driverWithBot(start: number): { driver: LockstepDriver; control: FakeControl; times: number[] } {
  const times: number[] = [];
  const driver = new LockstepDriver(start, (time) => times.push(time));
  const control = new FakeControl();
  driver.accept(control as unknown as WebSocket);
  return { driver, control, times };
}

describe('LockstepDriver', () => {
  it('waits for the bot to say hello before the first frame', async () => {
    const { driver, control } = driverWithBot(1_000);
    let released = false;
    const first = driver.beforeFrame(1_000).then(() => (released = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(false);
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await first;
    expect(released).toBe(true);
    // Nothing was sent to the bot and its clock is at the frame's time: no round was needed.
    expect(control.sent).toEqual([]);
  });

  it('moves a quiet bot to the next frame in one round: advance to now, then on to the frame', async () => {
    const { driver, control } = driverWithBot(1_000);
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1; // the frame at 1 000 went out
    const next = driver.beforeFrame(1_250);
    const advance = await control.nextAdvance();
    expect(advance).toEqual({ type: 'advance', time: 1_000, then: 1_250, public: 1, trading: 0 });
    control.say({ type: 'ready', time: 1_250, requests: 0, nextTimer: null });
    await next;
    expect(control.sent).toHaveLength(1);
  });

  it('runs a request only once the report that counts it has come, at the market time of that report', async () => {
    const { driver, control, times } = driverWithBot(1_000);
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1;
    const ran: number[] = [];
    const next = driver.beforeFrame(2_000);
    await control.nextAdvance();
    // The request arrives before the report (another socket): it waits.
    driver.gate(() => {
      ran.push(driver.time);
      driver.tradingSent.value++; // its answer
    });
    expect(ran).toEqual([]);
    const second = control.nextAdvance();
    control.say({ type: 'ready', time: 1_000, requests: 1, nextTimer: null });
    // The answer went out: the bot must take it at the same instant before the clock moves on.
    expect(await second).toEqual({ type: 'advance', time: 1_000, then: 2_000, public: 1, trading: 1 });
    expect(ran).toEqual([1_000]);
    expect(times).toContain(1_000);
    control.say({ type: 'ready', time: 2_000, requests: 1, nextTimer: null });
    await next;
  });

  it('runs held work due before a frame first, in time order, and keeps later work for later', async () => {
    const { driver, control } = driverWithBot(1_000);
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    const order: string[] = [];
    driver.hold(700, () => order.push(`b@${driver.time}`));
    driver.hold(300, () => order.push(`a@${driver.time}`));
    driver.hold(5_000, () => order.push(`c@${driver.time}`));
    const next = driver.beforeFrame(2_000);
    // The bot is brought to each held item's time before it runs (it could have a timer there).
    let advance = await control.nextAdvance();
    expect(advance.then).toBe(1_300);
    control.say({ type: 'ready', time: 1_300, requests: 0, nextTimer: null });
    advance = await control.nextAdvance();
    expect(advance).toMatchObject({ time: 1_300, then: 1_700 });
    control.say({ type: 'ready', time: 1_700, requests: 0, nextTimer: null });
    advance = await control.nextAdvance();
    expect(advance).toMatchObject({ time: 1_700, then: 2_000 });
    control.say({ type: 'ready', time: 2_000, requests: 0, nextTimer: null });
    await next;
    expect(order).toEqual(['a@1300', 'b@1700']);
    await driver.finish();
    expect(order).toEqual(['a@1300', 'b@1700', 'c@6000']);
  });

  it("stops at the bot's timer when it comes before the frame", async () => {
    const { driver, control } = driverWithBot(1_000);
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1;
    const ran: number[] = [];
    const next = driver.beforeFrame(3_000);
    await control.nextAdvance();
    // The bot went on to its timer at 1 500 only, which sent a request.
    driver.gate(() => ran.push(driver.time));
    const again = control.nextAdvance();
    control.say({ type: 'ready', time: 1_500, requests: 1, nextTimer: null });
    expect(await again).toMatchObject({ time: 1_500, then: 3_000 });
    expect(ran).toEqual([1_500]);
    control.say({ type: 'ready', time: 3_000, requests: 1, nextTimer: null });
    await next;
  });
});
