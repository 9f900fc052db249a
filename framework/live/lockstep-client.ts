import WebSocket from 'ws';
import { ParseError } from '../model/errors.js';
import type { VirtualClockScheduler } from '../runtime/virtual-clock-scheduler.js';
import type { AdvanceMessage, AdvanceStep, LockstepToSandbox } from './lockstep-protocol.js';
import { inMicrotask } from '../time/microtask.js';

/** Messages of one stream that arrived but were not handed on yet. */
class HeldMessages {
  arrived = 0;
  handedOn = 0;
  private queue: (() => void)[] = [];
  private head = 0;

  hold(handOn: () => void): void {
    this.arrived++;
    this.queue.push(handOn);
  }

  /** Hands on every message up to the `count`-th one received. */
  handOnUpTo(count: number): void {
    while (this.handedOn < count && this.head < this.queue.length) {
      const handOn = this.queue[this.head]!;
      this.queue[this.head++] = NOOP;
      this.handedOn++;
      handOn();
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
  }

  /** Hands on everything held, and every later message at once. */
  releaseAll(): void {
    this.handOnUpTo(Infinity);
  }
}

const NOOP = (): void => undefined;

/**
 * The bot's end of the lockstep control channel (protocol: lockstep-protocol.ts). The bot runs on
 * a {@link VirtualClockScheduler} (timers and the engine's drain) that only this client advances,
 * step by step as the sandbox's rounds say; messages of the public and trading streams are held
 * from their arrival until their step, so each is handled at its own market time and a frame is
 * handled to the end (strategy run, intents sent) before the next one is handed on. After each
 * round it reports the bot idle with its request count, next timer and when each request went.
 *
 * The socket hooks ({@link deliverPublic}, {@link deliverTrading}, {@link onTradingSent}) go into
 * the bot's public and trading sockets (ReconnectingSocket's `deliver` / `onSent`).
 */
export class LockstepClient {
  /** Hands a message to the sandbox; closes the channel. */
  private link: { send(text: string): void; close(): void } | undefined;
  private readonly publicHeld = new HeldMessages();
  private readonly tradingHeld = new HeldMessages();
  private tradingSent = 0;
  /** Until the control channel opens, messages are handed on as they come (the bot's start-up). */
  private holding = false;
  private released = false;
  private round: AdvanceMessage | undefined;
  /** The step being worked on; -1 before the round's first. */
  private step = -1;
  /** Whether the step's messages were handed on (their continuations may still be running). */
  private handedOn = false;
  private sentInRound: number[] = [];
  private requestsAtRoundStart = 0;
  private checkQueued = false;
  private arrivalsQueued = false;

  constructor(private readonly scheduler: VirtualClockScheduler) {}

  readonly deliverPublic = (handOn: () => void): void => this.deliver(this.publicHeld, handOn);

  readonly deliverTrading = (handOn: () => void): void => this.deliver(this.tradingHeld, handOn);

  readonly onTradingSent = (): void => {
    this.tradingSent++;
    // Between rounds (a continuation that ran late): before the next round's first step.
    if (this.holding) this.sentInRound.push(this.scheduler.now(), this.round === undefined ? -1 : this.handedOn ? this.step : this.step - 1);
  };

  /** Opens the control channel at `url` (the sandbox's `ws://host:port` + LOCKSTEP_PATH) and says hello. */
  async connect(url: string): Promise<void> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('error', () => undefined);
    socket.on('message', (data) => this.onControl(String(data)));
    this.opened({ send: (text) => socket.send(text), close: () => socket.close() });
  }

  /**
   * Opens the channel to a sandbox in this process (its LockstepDriver's `acceptLocal`): the same
   * messages without a socket. `accept` takes the function that receives the sandbox's messages
   * and returns the one that takes the bot's.
   */
  connectLocal(accept: (toBot: (text: string) => void) => (text: string) => void): void {
    const toSandbox = accept((text) => this.onControl(text));
    this.opened({ send: toSandbox, close: () => undefined });
  }

  private opened(link: { send(text: string): void; close(): void }): void {
    this.link = link;
    this.holding = true;
    this.send({ type: 'hello', time: this.scheduler.now(), requests: this.tradingSent, nextTimer: this.scheduler.nextDue() ?? null });
  }

  /**
   * Ends the lockstep: the scheduler runs freely from now on (the stop's requests and answers go
   * as they come, as at the end of a backtest), held messages are handed on and the channel
   * closes. Call once the bot's stop was asked for, so no strategy timer fires past the replay.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.holding = false;
    this.round = undefined;
    this.scheduler.runFreely();
    this.tradingHeld.releaseAll();
    this.publicHeld.releaseAll();
    this.link?.close();
  }

  private deliver(held: HeldMessages, handOn: () => void): void {
    if (!this.holding) {
      held.arrived++;
      held.handedOn++;
      handOn();
      return;
    }
    held.hold(handOn);
    if (this.round !== undefined && !this.handedOn && !this.arrivalsQueued) {
      this.arrivalsQueued = true;
      inMicrotask(this.onArrivals);
    }
  }

  /** Once the socket's chunk has been read (every message in it held): the steps they complete. */
  private readonly onArrivals = (): void => {
    this.arrivalsQueued = false;
    // Handed on already: the step waits for its answers' continuations (queueCheck), not for messages.
    if (!this.handedOn) this.work();
  };

  private onControl(text: string): void {
    const message = JSON.parse(text) as Partial<AdvanceMessage>;
    if (message.type !== 'advance' || !Array.isArray(message.steps) || message.steps.length === 0 || typeof message.then !== 'number'
      || !message.steps.every(isStep)) {
      throw new ParseError('lockstep message', 'must be an advance message', text);
    }
    if (this.released) return;
    this.round = message as AdvanceMessage;
    this.step = 0;
    this.handedOn = false;
    this.requestsAtRoundStart = this.tradingSent - this.sentInRound.length / 2;
    this.work();
  }

  /**
   * Continues after the current I/O callbacks and every microtask they queued: a message is
   * handled (parsed, queued, its promise continuations run) before the clock may move past it.
   */
  private queueCheck(): void {
    if (this.checkQueued || this.released) return;
    this.checkQueued = true;
    setImmediate(() => {
      this.checkQueued = false;
      this.work();
    });
  }

  /** Works through the round's steps as far as the messages that arrived allow. */
  private work(): void {
    for (;;) {
      const round = this.round;
      if (round === undefined || this.released) return;
      const step = round.steps[this.step];
      if (step === undefined) {
        this.finishRound(round);
        return;
      }
      const [time, publicCount, tradingCount] = step;
      if (!this.handedOn) {
        if (this.publicHeld.arrived < publicCount || this.tradingHeld.arrived < tradingCount) return;
        // Timers due by the step's time fire before its messages, as they would before a frame of a backtest.
        this.scheduler.advanceTo(time);
        this.handedOn = true;
        const answers = this.tradingHeld.handedOn < tradingCount;
        this.tradingHeld.handOnUpTo(tradingCount);
        this.publicHeld.handOnUpTo(publicCount);
        // An answer resolves a promise whose continuations must run first; a market frame is handled synchronously.
        if (answers) {
          this.queueCheck();
          return;
        }
      }
      // The kernel is synchronous: a handler's requests are handed to the trading socket within the advance.
      this.scheduler.advanceTo(time);
      this.step++;
      this.handedOn = false;
    }
  }

  private finishRound(round: AdvanceMessage): void {
    if (this.tradingSent === this.requestsAtRoundStart && round.then > this.scheduler.now()) {
      const timer = this.scheduler.nextDue();
      this.scheduler.advanceTo(timer === undefined ? round.then : Math.min(timer, round.then));
    }
    this.round = undefined;
    const next = this.scheduler.nextDue();
    const sent = this.sentInRound;
    this.sentInRound = [];
    this.send({ type: 'ready', time: this.scheduler.now(), requests: this.tradingSent, nextTimer: next ?? null, sent });
  }

  private send(message: LockstepToSandbox): void {
    this.link?.send(JSON.stringify(message));
  }
}

function isStep(step: unknown): step is AdvanceStep {
  return Array.isArray(step) && step.length === 3 && step.every((n) => typeof n === 'number');
}
