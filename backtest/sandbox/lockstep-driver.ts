import type { RawData, WebSocket } from 'ws';
import { ParseError } from '../../framework/model/errors.js';
import type { AdvanceMessage, AdvanceStep, HelloMessage, ReadyMessage } from '../../framework/live/lockstep-protocol.js';
import type { LatencyKind, LatencyModel } from '../venue/matching/latency-model.js';
import { SentCount } from './sent-count.js';
import { inMicrotask } from '../../framework/time/microtask.js';

export { SentCount, countSentOn, noteSent } from './sent-count.js';

interface HeldWork {
  readonly due: number;
  /** Order among work due at the same time: the order it was held in (a request's, the order it would have been). */
  readonly seq: number;
  readonly work: () => void;
}

/** The round being put together: its steps and where the held work stood at each. */
interface OpenRound {
  /** Items before this time go in this round (the first one always does). */
  readonly end: number;
  readonly steps: AdvanceStep[];
  /** The held-work sequence number at the round's start, and after each step. */
  readonly seqAt: number[];
  /** Time of the step in progress (its counts are taken when it ends); undefined before the first. */
  stepTime: number | undefined;
}

/**
 * The sandbox's end of the lockstep control channel (protocol: framework/live/lockstep-protocol.ts):
 * owns the market time of a lockstep replay and releases the market in rounds, each once the bot
 * is idle at its time with nothing in flight: every item (a recorded frame, held work) before the
 * round's end, which the latency model's minimum entry delay and the bot's next timer bound.
 *
 * Requests of the trading stream pass {@link gate}: during the replay each waits for the bot's
 * report that counts it, then runs at the market time the bot sent it at (the report tells), as
 * a backtest's gateway takes a request at the decision time. Latency goes through {@link hold}:
 * work due at a later market time waits its turn among the frames, in (time, order held) order.
 */
export class LockstepDriver {
  /** The replay's market time: the time of the item being released. */
  time: number;
  readonly publicSent = new SentCount();
  readonly tradingSent = new SentCount();
  private botTime: number;
  private botNextTimer = Infinity;
  /** The bot's end of the control channel: a socket, or a bot in this process. */
  private link: { send(text: string): void; close(): void } | undefined;
  private hello: Promise<void>;
  private helloReceived: () => void = () => undefined;
  private waitingReady: ((ready: ReadyMessage) => void) | undefined;
  private waitingRequests: { count: number; resolve: () => void } | undefined;
  private expectedPublic = 0;
  private expectedTrading = 0;
  private requestsReceived = 0;
  private inbox: (() => void)[] = [];
  private held: HeldWork[] = [];
  private heldSeq = 0;
  /** The order the next held work takes, when it is not the next in line (a request of a past step). */
  private seqOverride: number | undefined;
  private minEntryMs = 0;
  private open: OpenRound | undefined;
  private stepping = false;
  private free = false;
  /** Rounds of the control channel so far (advance sent, ready received). */
  rounds = 0;

  constructor(start: number, private readonly onTime: (time: number) => void) {
    this.time = start;
    this.botTime = start;
    this.hello = new Promise<void>((resolve) => (this.helloReceived = resolve));
  }

  /**
   * `model` for the trading stream: during the replay only. The start-up's requests take no time
   * and draw no jitter, as a backtest's start-up reads do, so both runs draw the same delays. Its
   * minimum entry delay sizes the rounds (none: a round is one step).
   */
  latency(model: LatencyModel | undefined): LatencyModel | undefined {
    if (model === undefined) return undefined;
    this.minEntryMs = model.minEntryDelayMs ?? 0;
    return {
      entryDelayMs: (now: number, kind: LatencyKind) => (this.stepping && !this.free ? model.entryDelayMs(now, kind) : 0),
      responseDelayMs: (now: number, kind: LatencyKind) => (this.stepping && !this.free ? model.responseDelayMs(now, kind) : 0),
    };
  }

  /** Takes the bot's control connection (one at a time). */
  accept(socket: WebSocket): void {
    if (this.link !== undefined) {
      socket.close(1008, 'a lockstep bot is already connected');
      return;
    }
    this.link = { send: (text) => socket.send(text), close: () => socket.terminate() };
    socket.on('message', (data: RawData) => this.onMessage(String(data)));
    socket.on('error', () => socket.terminate());
  }

  /**
   * Takes a bot in this process (`paper --lockstep`): the same messages, handed over directly
   * instead of through a socket, each in a microtask of its own (never inside the sender's call).
   * `toBot` receives the sandbox's messages; the function returned takes the bot's.
   */
  acceptLocal(toBot: (text: string) => void): (text: string) => void {
    if (this.link !== undefined) throw new Error('a lockstep bot is already connected');
    this.link = { send: (text) => inMicrotask(() => toBot(text)), close: () => undefined };
    return (text) => inMicrotask(() => this.onMessage(text));
  }

  /** A trading-stream request: runs at once outside the replay, else when the bot's report counts it. */
  gate(run: () => void): void {
    this.requestsReceived++;
    if (!this.stepping || this.free) run();
    else this.inbox.push(run);
    const waiting = this.waitingRequests;
    if (waiting !== undefined && this.requestsReceived >= waiting.count) {
      this.waitingRequests = undefined;
      waiting.resolve();
    }
  }

  /**
   * Runs `work` `ms` of market time from now, among the frames; at once before the replay (the
   * start-up's reads take no market time, as in a backtest), soon once it is over.
   */
  hold(ms: number, work: () => void): void {
    if (!this.stepping) {
      work();
      return;
    }
    const seq = this.seqOverride ?? this.heldSeq++;
    this.seqOverride = undefined;
    const entry = { due: this.time + Math.max(0, ms), seq, work };
    if (this.free) {
      setImmediate(() => {
        this.time = Math.max(this.time, entry.due);
        this.onTime(this.time);
        work();
      });
      return;
    }
    let i = this.held.length;
    while (i > 0 && later(this.held[i - 1]!, entry)) i--;
    this.held.splice(i, 0, entry);
  }

  /**
   * Brings everything due before the frame at `t` about and opens the frame's step; waits for the
   * bot (undefined: no need, the frame goes in the round being put together).
   */
  beforeFrame(t: number): Promise<void> | undefined {
    if (!this.stepping) return this.start(t);
    for (;;) {
      const heldDue = this.held[0]?.due;
      const next = heldDue === undefined ? t : Math.min(t, heldDue);
      const open = this.open;
      if (open === undefined) {
        if (this.dirty()) {
          // What went out since the last round is its first step, at the current time; the bot may answer it from then on.
          this.open = { end: Math.min(this.time + this.minEntryMs, this.botNextTimer), steps: [], seqAt: [this.heldSeq], stepTime: this.time };
          continue;
        }
        // A timer of the bot's before the item: the bot goes there first, and what it sends there may come before the item.
        if (this.botTime < next && this.botNextTimer <= next) return this.catchUp(next).then(() => this.beforeFrame(t));
        // The bot is idle with nothing in flight and nothing due before the item: a round starts at the item.
        this.open = { end: Math.max(next, Math.min(next + this.minEntryMs, this.botNextTimer)), steps: [], seqAt: [this.heldSeq], stepTime: undefined };
        continue;
      }
      if (open.stepTime !== undefined && next >= open.end) return this.closeRound(next).then(() => this.beforeFrame(t));
      this.endStep(open);
      this.time = Math.max(this.time, next);
      open.stepTime = this.time;
      if (heldDue !== undefined && heldDue <= next) {
        this.runHeld(next);
        continue;
      }
      return undefined;
    }
  }

  /**
   * After the last frame: settles its instant, then lets go. Held work runs at once, in order,
   * and requests go straight through (the bot's stop, at the end of the market, as a backtest
   * runs freely at its end).
   */
  async finish(): Promise<void> {
    if (this.stepping) {
      // The last round, if it sent the bot anything; a round that sent nothing has nothing to settle.
      if (this.open !== undefined && this.dirty()) await this.closeRound(this.time);
      this.open = undefined;
      while (this.dirty()) await this.catchUp(this.time);
    }
    this.free = true;
    for (const run of this.inbox.splice(0)) run();
    const held = this.held.splice(0);
    for (const entry of held) {
      this.time = Math.max(this.time, entry.due);
      this.onTime(this.time);
      entry.work();
    }
  }

  /** Stops waiting (server closing): pending waits never resolve, requests go straight through. */
  close(): void {
    this.free = true;
    for (const run of this.inbox.splice(0)) run();
    this.link?.close();
  }

  private async start(t: number): Promise<void> {
    await this.hello;
    this.stepping = true;
    await this.beforeFrame(t);
  }

  /** Whether the sandbox sent the bot something since the last advance counted it. */
  private dirty(): boolean {
    return this.publicSent.value !== this.expectedPublic || this.tradingSent.value !== this.expectedTrading;
  }

  private endStep(open: OpenRound): void {
    if (open.stepTime === undefined) return;
    open.steps.push([open.stepTime, this.publicSent.value, this.tradingSent.value]);
    open.seqAt.push(this.heldSeq);
  }

  /** A round of one step at the current time: the bot takes what was sent and moves on to `then` (its next timer first). */
  private catchUp(then: number): Promise<void> {
    const open: OpenRound = { end: this.time, steps: [], seqAt: [this.heldSeq], stepTime: this.time };
    return this.exchange(open, Math.max(then, this.time));
  }

  private closeRound(then: number): Promise<void> {
    const open = this.open!;
    this.open = undefined;
    return this.exchange(open, Math.max(then, this.time));
  }

  private async exchange(open: OpenRound, then: number): Promise<void> {
    this.endStep(open);
    this.expectedPublic = this.publicSent.value;
    this.expectedTrading = this.tradingSent.value;
    const advance: AdvanceMessage = { type: 'advance', steps: open.steps, then };
    const ready = await new Promise<ReadyMessage>((resolve) => {
      this.waitingReady = resolve;
      // After the turn's market writes (queued for its end): the steps' messages go first.
      inMicrotask(() => this.link?.send(JSON.stringify(advance)));
    });
    this.rounds++;
    this.botTime = ready.time;
    this.botNextTimer = ready.nextTimer ?? Infinity;
    this.time = Math.max(this.time, ready.time);
    if (this.requestsReceived < ready.requests) {
      await new Promise<void>((resolve) => (this.waitingRequests = { count: ready.requests, resolve }));
    }
    if (this.inbox.length === 0) return;
    this.runRequests(open, ready);
  }

  /**
   * Runs the round's requests, each at the time the bot sent it and ordered among the held work
   * as if the round had stopped after its step (before the work later steps held).
   */
  private runRequests(open: OpenRound, ready: ReadyMessage): void {
    const runs = this.inbox.splice(0);
    const sent = Array.isArray(ready.sent) && ready.sent.length === 2 * runs.length ? ready.sent : undefined;
    const now = this.time;
    for (let k = 0; k < runs.length; k++) {
      const at = sent === undefined ? now : Math.min(now, sent[2 * k]!);
      const step = sent === undefined ? open.steps.length - 1 : sent[2 * k + 1]!;
      const seqAfter = open.seqAt[Math.min(Math.max(step + 1, 0), open.seqAt.length - 1)]!;
      this.time = at;
      this.onTime(at);
      this.seqOverride = seqAfter - 1 + (k + 1) / (runs.length + 1);
      runs[k]!();
      this.seqOverride = undefined;
    }
    this.time = now;
    // Later rounds' requests order after these even when no work was held in between.
    this.heldSeq++;
  }

  private runHeld(upTo: number): void {
    while (this.held.length > 0 && this.held[0]!.due <= upTo) {
      const entry = this.held.shift()!;
      this.time = Math.max(this.time, entry.due);
      this.onTime(this.time);
      entry.work();
    }
  }

  private onMessage(text: string): void {
    const message = JSON.parse(text) as Partial<ReadyMessage | HelloMessage>;
    if (message.type === 'hello' && typeof message.time === 'number') {
      this.botTime = message.time;
      this.botNextTimer = typeof message.nextTimer === 'number' ? message.nextTimer : Infinity;
      this.helloReceived();
      return;
    }
    if (message.type !== 'ready' || typeof message.time !== 'number' || typeof message.requests !== 'number') {
      throw new ParseError('lockstep message', 'must be a hello or ready message', text);
    }
    const waiting = this.waitingReady;
    this.waitingReady = undefined;
    waiting?.(message as ReadyMessage);
  }
}

/** Whether `a` runs after `b`: later due, or the same due and held later. */
function later(a: HeldWork, b: HeldWork): boolean {
  return a.due > b.due || (a.due === b.due && a.seq > b.seq);
}
