import type { Subscription } from 'rxjs';
import type { OrderBook } from '../../framework/exchange/book/order-book.js';
import { OrderBookKeeper } from '../../framework/exchange/book/order-book-keeper.js';
import { ORDER_BOOK_CHANNEL } from '../../framework/exchange/book/order-book-frame.js';
import type { PublicSession } from '../../framework/exchange/ws/public-session.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { RecordedFrame, RecordingHeader } from './recording-format.js';
import { RecordingWriter, type RecordingWriterOptions } from './recording-writer.js';

/** Options of {@link Recorder}. */
export interface RecorderOptions {
  readonly session: PublicSession;
  readonly out: string;
  readonly header: RecordingHeader;
  readonly channels: readonly string[];
  readonly symbols: readonly string[];
  readonly rotateBytes?: RecordingWriterOptions['rotateBytes'];
  readonly rotateMs?: RecordingWriterOptions['rotateMs'];
  /** How long `start` waits for the connection (the socket redials meanwhile), ms; the session's default when absent. */
  readonly connectTimeoutMs?: number;
  /** Told about a frame that could not be written (the recorder stops on it). */
  readonly onError?: (error: unknown) => void;
  /** REST answers to ask for again and again (futures info: marks, funding), each written as a `rest` frame. */
  readonly restPolls?: readonly RestPoll[];
  /** The local clock of the REST frames (the stream's frames carry their session's receive times); `Date.now` by default. */
  readonly now?: () => number;
}

/**
 * A REST answer a recorder polls: `path` (with its query) as recorded, every `everyMs`. `fetch`
 * resolves to the exchange's status and body (JSON as sent); a poll that fails writes nothing
 * (it is counted), and the next one is asked on time.
 */
export interface RestPoll {
  readonly path: string;
  readonly everyMs: number;
  fetch(): Promise<{ readonly status: number; readonly body: unknown }>;
}

/** What the recorder wrote so far. */
export interface RecorderStats {
  frames: number;
  reconnects: number;
  /** Polls of `restPolls` that failed (nothing written for them). */
  restFailures: number;
}

/**
 * Records a public stream to a recording file (recording-format.md): every notification exactly as
 * the exchange sent it, stamped with its local receive time.
 *
 * Reconnects leave a visible mark: a `{"method":"tradeloop.reconnected"}` frame (readers skip frames
 * they do not know); the resubscription that follows sends fresh book snapshots, which restart the
 * books on replay. When files rotate, each new file starts with the current `orderbook/full`
 * snapshots of the books the recorder keeps, so every file replays on its own.
 */
export class Recorder {
  readonly stats: RecorderStats = { frames: 0, reconnects: 0, restFailures: 0 };
  private readonly pollTimers: NodeJS.Timeout[] = [];
  private readonly writer: RecordingWriter;
  private readonly keeper: OrderBookKeeper;
  private readonly owned: Subscription[] = [];
  private queue: Promise<void> = Promise.resolve();
  private failed: unknown;
  private lastT = Number.NEGATIVE_INFINITY;
  private writtenT = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: RecorderOptions) {
    const instruments = new Map(Object.entries(options.header.symbols).map(([s, info]) => [s, new Instrument(s, info)]));
    // Books are kept only to write snapshots at the top of rotated files; gaps are the
    // recorded stream's business (the replay re-syncs as live would), so no resync is asked.
    this.keeper = new OrderBookKeeper({ resync: { resync: async () => undefined }, instrument: (s) => instruments.get(s) });
    this.writer = new RecordingWriter(options.out, options.header, {
      rotateBytes: options.rotateBytes,
      rotateMs: options.rotateMs,
      rotationPreamble: () => this.snapshots(),
    });
  }

  /** Files written so far, in order. */
  get paths(): readonly string[] {
    return this.writer.paths;
  }

  /**
   * Connects, subscribes the channels and starts writing. Rejects when the connection is not open
   * within `connectTimeoutMs` or a subscription fails; the caller then closes the session, which
   * ends the redialing.
   */
  async start(): Promise<void> {
    const { session } = this.options;
    let connections = 0;
    this.owned.push(
      session.notifications$.subscribe(({ frame, receivedAt }) => this.enqueue({ t: receivedAt, src: 'ws/public', msg: frame })),
      session.events$.subscribe((event) => {
        if (event.kind !== 'connected' || ++connections === 1) return;
        this.stats.reconnects++;
        this.enqueue({ t: event.at, src: 'ws/public', msg: { method: 'tradeloop.reconnected', params: { reconnects: this.stats.reconnects } } });
      }),
    );
    await session.connect(this.options.connectTimeoutMs);
    for (const ch of this.options.channels) await session.subscribe(ch, this.options.symbols);
    for (const poll of this.options.restPolls ?? []) {
      this.poll(poll);
      this.pollTimers.push(setInterval(() => this.poll(poll), poll.everyMs));
    }
  }

  /** One poll: its answer is written at its receive time; a failure is counted. */
  private poll(poll: RestPoll): void {
    const now = this.options.now ?? Date.now;
    poll.fetch().then(
      ({ status, body }) => this.enqueue({ t: now(), src: 'rest', msg: { method: 'GET', path: poll.path, status, body } }),
      () => void this.stats.restFailures++,
    );
  }

  /** Stops recording: unsubscribes the streams, then flushes, fsyncs and closes the file. */
  async stop(): Promise<void> {
    for (const timer of this.pollTimers.splice(0)) clearInterval(timer);
    for (const subscription of this.owned.splice(0)) subscription.unsubscribe();
    await this.queue;
    this.keeper.close();
    await this.writer.close();
    if (this.failed !== undefined) throw this.failed;
  }

  private enqueue(frame: RecordedFrame): void {
    // Receive times come from one clock but a reconnect mark is stamped separately: keep them ordered.
    const t = Math.max(frame.t, this.lastT);
    this.lastT = t;
    const stamped = t === frame.t ? frame : { ...frame, t };
    this.queue = this.queue.then(async () => {
      if (this.failed !== undefined) return;
      try {
        await this.writer.write(stamped);
        this.stats.frames++;
        this.writtenT = stamped.t;
        // The books follow what is written, not what is queued: a rotation preamble must describe
        // the book exactly at its place in the file.
        if ((stamped.msg as { ch?: unknown }).ch === ORDER_BOOK_CHANNEL) this.track(stamped);
      } catch (error) {
        this.failed = error;
        this.options.onError?.(error);
      }
    });
  }

  private track(frame: RecordedFrame): void {
    try {
      this.keeper.handleMessage(frame.msg, frame.t);
    } catch {
      // A malformed book frame is still recorded as received; the replay reports it.
    }
  }

  private *snapshots(): Iterable<RecordedFrame> {
    for (const symbol of this.keeper.symbols()) {
      const book = this.keeper.book(symbol);
      if (book?.valid) yield { t: this.writtenT, src: 'ws/public', msg: snapshotOf(book) };
    }
  }
}

function snapshotOf(book: OrderBook): Record<string, unknown> {
  const levels = (side: 'bid' | 'ask') => book.topN(side, book.size(side)).map((l) => [l.price, l.quantity]);
  return { ch: ORDER_BOOK_CHANNEL, snapshot: { [book.symbol]: { t: book.exchangeTime, s: book.sequence, a: levels('ask'), b: levels('bid') } } };
}
