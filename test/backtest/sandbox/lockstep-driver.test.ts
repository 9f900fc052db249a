import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { LockstepDriver } from '../../../backtest/sandbox/lockstep-driver.js';
import { ConstantLatency, JitterLatency } from '../../../backtest/venue/matching/latency-model.js';
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
    const first = Promise.resolve(driver.beforeFrame(1_000)).then(() => (released = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(false);
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await first;
    expect(released).toBe(true);
    // Nothing was sent to the bot and its clock is at the frame's time: no round was needed.
    expect(control.sent).toEqual([]);
  });

  it('moves a quiet bot to the next frame in one round: the frame\'s step, then on to the next frame', async () => {
    const { driver, control } = driverWithBot(1_000);
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1; // the frame at 1 000 went out
    const next = driver.beforeFrame(1_250);
    const advance = await control.nextAdvance();
    expect(advance).toEqual({ type: 'advance', steps: [[1_000, 1, 0]], then: 1_250 });
    control.say({ type: 'ready', time: 1_250, requests: 0, nextTimer: null, sent: [] });
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
    control.say({ type: 'ready', time: 1_000, requests: 1, nextTimer: null, sent: [1_000, 0] });
    // The answer went out: the bot must take it at the same instant before the clock moves on.
    expect(await second).toEqual({ type: 'advance', steps: [[1_000, 1, 1]], then: 2_000 });
    expect(ran).toEqual([1_000]);
    expect(times).toContain(1_000);
    control.say({ type: 'ready', time: 2_000, requests: 1, nextTimer: null, sent: [] });
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
    control.say({ type: 'ready', time: 1_300, requests: 0, nextTimer: null, sent: [] });
    advance = await control.nextAdvance();
    expect(advance).toEqual({ type: 'advance', steps: [[1_300, 0, 0]], then: 1_700 });
    control.say({ type: 'ready', time: 1_700, requests: 0, nextTimer: null, sent: [] });
    advance = await control.nextAdvance();
    expect(advance).toEqual({ type: 'advance', steps: [[1_700, 0, 0]], then: 2_000 });
    control.say({ type: 'ready', time: 2_000, requests: 0, nextTimer: null, sent: [] });
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
    // The bot went on to its timer at 1 500 only, which sent a request and set another timer, at 2 000.
    driver.gate(() => ran.push(driver.time));
    const again = control.nextAdvance();
    control.say({ type: 'ready', time: 1_500, requests: 1, nextTimer: 2_000, sent: [1_500, 0] });
    expect(await again).toEqual({ type: 'advance', steps: [[1_500, 1, 0]], then: 3_000 });
    expect(ran).toEqual([1_500]);
    control.say({ type: 'ready', time: 2_000, requests: 1, nextTimer: null, sent: [] });
    // No timer left before the frame: the frame's round moves the bot there itself.
    await next;
    expect(control.sent).toHaveLength(2);
  });

  it('releases every frame before the first one plus the minimum entry latency in one round', async () => {
    const { driver, control } = driverWithBot(1_000);
    driver.latency(new JitterLatency({ seed: 1, entry: { baseMs: 1, jitterMs: 4 } }));
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1;
    // 1 000.5 and 1 000.9 are before 1 000 + 1: nothing the bot answers to 1 000 can reach the venue first.
    expect(driver.beforeFrame(1_000.5)).toBeUndefined();
    driver.publicSent.value = 2;
    expect(driver.beforeFrame(1_000.9)).toBeUndefined();
    driver.publicSent.value = 3;
    const next = driver.beforeFrame(1_001);
    expect(await control.nextAdvance()).toEqual({ type: 'advance', steps: [[1_000, 1, 0], [1_000.5, 2, 0], [1_000.9, 3, 0]], then: 1_001 });
    control.say({ type: 'ready', time: 1_001, requests: 0, nextTimer: null, sent: [] });
    await next;
    expect(control.sent).toHaveLength(1);
  });

  it('ends a round at the bot\'s next timer', async () => {
    const { driver, control } = driverWithBot(1_000);
    driver.latency(new ConstantLatency(50));
    control.say({ type: 'hello', time: 1_000, requests: 0, nextTimer: 1_030 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1;
    expect(driver.beforeFrame(1_010)).toBeUndefined();
    driver.publicSent.value = 2;
    expect(driver.beforeFrame(1_020)).toBeUndefined();
    driver.publicSent.value = 3;
    const next = driver.beforeFrame(1_030);
    expect(await control.nextAdvance()).toEqual({ type: 'advance', steps: [[1_000, 1, 0], [1_010, 2, 0], [1_020, 3, 0]], then: 1_030 });
    control.say({ type: 'ready', time: 1_030, requests: 0, nextTimer: null, sent: [] });
    await next;
  });

  it('with a minimum entry latency of 0, a round is one frame', async () => {
    const { driver, control } = driverWithBot(1_000);
    driver.latency(new JitterLatency({ seed: 1, entry: { baseMs: 0, jitterMs: 4 } }));
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1;
    const next = driver.beforeFrame(1_000);
    expect(await control.nextAdvance()).toEqual({ type: 'advance', steps: [[1_000, 1, 0]], then: 1_000 });
    control.say({ type: 'ready', time: 1_000, requests: 0, nextTimer: null, sent: [] });
    await next;
  });

  it('runs a request of a round at the time it was sent, before the work later steps held for the same time', async () => {
    const { driver, control } = driverWithBot(1_000);
    driver.latency(new ConstantLatency(2));
    control.say({ type: 'hello', time: 1_000, requests: 0 });
    await driver.beforeFrame(1_000);
    driver.publicSent.value = 1;
    const order: string[] = [];
    expect(driver.beforeFrame(1_001)).toBeUndefined();
    driver.publicSent.value = 2;
    // The frame at 1 001 makes the venue hold a report for 1 002.
    driver.hold(1, () => order.push(`report@${driver.time}`));
    const next = driver.beforeFrame(1_005);
    await control.nextAdvance();
    // The bot answered the frame at 1 000 (step 0) with a request, whose entry takes 2 ms: due at 1 002 too.
    driver.gate(() => driver.hold(2, () => order.push(`request@${driver.time}`)));
    control.say({ type: 'ready', time: 1_001, requests: 1, nextTimer: null, sent: [1_000, 0] });
    expect(await control.nextAdvance()).toEqual({ type: 'advance', steps: [[1_002, 2, 0]], then: 1_005 });
    expect(order).toEqual(['request@1002', 'report@1002']);
    control.say({ type: 'ready', time: 1_005, requests: 1, nextTimer: null, sent: [] });
    await next;
  });
});
