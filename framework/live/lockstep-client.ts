import WebSocket from 'ws';
import { ParseError } from '../model/errors.js';
import type { VirtualClockScheduler } from '../runtime/virtual-clock-scheduler.js';
import type { AdvanceMessage, LockstepToSandbox } from './lockstep-protocol.js';

/**
 * The bot's end of the lockstep control channel (protocol: lockstep-protocol.ts). The bot runs on
 * a {@link VirtualClockScheduler} (timers and the engine's drain) that only this client advances,
 * when the sandbox says so and once every message the sandbox has sent has arrived; after each
 * advance it reports the bot idle with its request count and next timer.
 *
 * The socket hooks ({@link onPublicReceived}, {@link onTradingReceived}, {@link onTradingSent})
 * go into the bot's public and trading sockets (ReconnectingSocket's `onReceived` / `onSent`).
 */
export class LockstepClient {
  private socket: WebSocket | undefined;
  private pending: AdvanceMessage | undefined;
  private publicReceived = 0;
  private tradingReceived = 0;
  private tradingSent = 0;
  private checkQueued = false;
  private released = false;

  constructor(private readonly scheduler: VirtualClockScheduler) {}

  readonly onPublicReceived = (): void => {
    this.publicReceived++;
    this.queueCheck();
  };

  readonly onTradingReceived = (): void => {
    this.tradingReceived++;
    this.queueCheck();
  };

  readonly onTradingSent = (): void => {
    this.tradingSent++;
  };

  /** Opens the control channel at `url` (the sandbox's `ws://host:port` + LOCKSTEP_PATH) and says hello. */
  async connect(url: string): Promise<void> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('error', () => undefined);
    socket.on('message', (data) => this.onControl(String(data)));
    this.send({ type: 'hello', time: this.scheduler.now(), requests: this.tradingSent });
  }

  /**
   * Ends the lockstep: the scheduler runs freely from now on (the stop's requests and answers go
   * as they come, as at the end of a backtest) and the channel closes. Call once the bot's stop
   * was asked for, so no strategy timer fires past the replay.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.pending = undefined;
    this.scheduler.runFreely();
    this.socket?.close();
  }

  private onControl(text: string): void {
    const message = JSON.parse(text) as Partial<AdvanceMessage>;
    if (message.type !== 'advance' || typeof message.time !== 'number' || typeof message.then !== 'number'
      || typeof message.public !== 'number' || typeof message.trading !== 'number') {
      throw new ParseError('lockstep message', 'must be an advance message', text);
    }
    this.pending = message as AdvanceMessage;
    this.queueCheck();
  }

  /**
   * Checks after the current I/O callbacks and every microtask they queued: a message is handled
   * (parsed, queued, its promise continuations run) before the clock may move past it.
   */
  private queueCheck(): void {
    if (this.checkQueued || this.released) return;
    this.checkQueued = true;
    setImmediate(() => {
      this.checkQueued = false;
      this.advanceIfDue();
    });
  }

  private advanceIfDue(): void {
    const advance = this.pending;
    if (advance === undefined || this.released) return;
    if (this.publicReceived < advance.public || this.tradingReceived < advance.trading) return;
    this.pending = undefined;
    const sentBefore = this.tradingSent;
    // The kernel is synchronous: a handler's requests are handed to the trading socket within the advance.
    this.scheduler.advanceTo(advance.time);
    if (this.tradingSent === sentBefore && advance.then > advance.time) {
      const timer = this.scheduler.nextDue();
      this.scheduler.advanceTo(timer === undefined ? advance.then : Math.min(timer, advance.then));
    }
    this.report();
  }

  private report(): void {
    if (this.released) return;
    const next = this.scheduler.nextDue();
    this.send({ type: 'ready', time: this.scheduler.now(), requests: this.tradingSent, nextTimer: next ?? null });
  }

  private send(message: LockstepToSandbox): void {
    this.socket?.send(JSON.stringify(message));
  }
}
