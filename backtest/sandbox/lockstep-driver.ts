import type { RawData, WebSocket } from 'ws';
import { ParseError } from '../../framework/model/errors.js';
import type { AdvanceMessage, HelloMessage, ReadyMessage } from '../../framework/live/lockstep-protocol.js';
import type { LatencyKind, LatencyModel } from '../venue/matching/latency-model.js';

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

interface HeldWork {
  readonly due: number;
  readonly seq: number;
  readonly work: () => void;
}

/**
 * The sandbox's end of the lockstep control channel (protocol: framework/live/lockstep-protocol.ts):
 * owns the market time of a lockstep replay and releases the next item (a recorded frame, a held
 * request, a held answer) only once the bot is idle at its time with nothing in flight.
 *
 * Requests of the trading stream pass {@link gate}: during the replay each waits for the bot's
 * report that counts it, then runs at the report's market time (the time the bot decided), the
 * venue's clock brought there first, as a backtest's gateway brings its venue to the decision
 * time. Latency goes through {@link hold}: work due at a later market time waits its turn among
 * the frames, in (time, order held) order.
 */
export class LockstepDriver {
  /** The replay's market time: the time of the item being released. */
  time: number;
  readonly publicSent = new SentCount();
  readonly tradingSent = new SentCount();
  private botTime: number;
  private socket: WebSocket | undefined;
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
   * and draw no jitter, as a backtest's start-up reads do, so both runs draw the same delays.
   */
  latency(model: LatencyModel | undefined): LatencyModel | undefined {
    if (model === undefined) return undefined;
    return {
      entryDelayMs: (now: number, kind: LatencyKind) => (this.stepping && !this.free ? model.entryDelayMs(now, kind) : 0),
      responseDelayMs: (now: number, kind: LatencyKind) => (this.stepping && !this.free ? model.responseDelayMs(now, kind) : 0),
    };
  }

  /** Takes the bot's control connection (one at a time). */
  accept(socket: WebSocket): void {
    if (this.socket !== undefined) {
      socket.close(1008, 'a lockstep bot is already connected');
      return;
    }
    this.socket = socket;
    socket.on('message', (data: RawData) => this.onMessage(String(data)));
    socket.on('error', () => socket.terminate());
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
    const entry = { due: this.time + Math.max(0, ms), seq: this.heldSeq++, work };
    if (this.free) {
      setImmediate(() => {
        this.time = Math.max(this.time, entry.due);
        this.onTime(this.time);
        work();
      });
      return;
    }
    let i = this.held.length;
    while (i > 0 && (this.held[i - 1]!.due > entry.due)) i--;
    this.held.splice(i, 0, entry);
  }

  /** Waits for the bot, then brings everything due before the frame at `t` about; the bot's clock ends at `t`. */
  async beforeFrame(t: number): Promise<void> {
    if (!this.stepping) {
      await this.hello;
      this.stepping = true;
    }
    for (;;) {
      const heldDue = this.held[0]?.due;
      const next = heldDue === undefined ? t : Math.min(t, heldDue);
      if (this.dirty() || this.botTime < next) {
        await this.round(Math.max(next, this.time));
        continue;
      }
      this.time = Math.max(this.time, next);
      if (heldDue !== undefined && heldDue <= next) {
        this.runHeld(next);
        continue;
      }
      return;
    }
  }

  /**
   * After the last frame: settles its instant, then lets go. Held work runs at once, in order,
   * and requests go straight through (the bot's stop, at the end of the market, as a backtest
   * runs freely at its end).
   */
  async finish(): Promise<void> {
    if (this.stepping) {
      while (this.dirty()) await this.round(this.time);
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
    this.socket?.terminate();
  }

  /** Whether the sandbox sent the bot something since the last advance counted it. */
  private dirty(): boolean {
    return this.publicSent.value !== this.expectedPublic || this.tradingSent.value !== this.expectedTrading;
  }

  private async round(then: number): Promise<void> {
    this.expectedPublic = this.publicSent.value;
    this.expectedTrading = this.tradingSent.value;
    const advance: AdvanceMessage = { type: 'advance', time: this.time, then, public: this.expectedPublic, trading: this.expectedTrading };
    const ready = await new Promise<ReadyMessage>((resolve) => {
      this.waitingReady = resolve;
      this.socket?.send(JSON.stringify(advance));
    });
    this.rounds++;
    this.botTime = ready.time;
    this.time = Math.max(this.time, ready.time);
    if (this.requestsReceived < ready.requests) {
      await new Promise<void>((resolve) => (this.waitingRequests = { count: ready.requests, resolve }));
    }
    if (this.inbox.length === 0) return;
    this.onTime(this.time);
    for (const run of this.inbox.splice(0)) run();
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
