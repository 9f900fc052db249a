import type { SymbolInfo } from '../../framework/model/resources/symbol.js';
import type { RecordedFrame } from '../recording/recording-format.js';
import { RecordingReader } from '../recording/recording-reader.js';
import type { MarketLineDecoder } from '../recording/market-line-decoder.js';
import { readFrameBatches } from '../recording/frame-batches.js';
import { shiftFrameTimes, shiftTradeTimes } from './frame-time-shift.js';
import { readMarketBatches, type FeedFrame } from './market-batches.js';
import type { MarketSource } from './sandbox-config.js';

/** Options of {@link MarketFeed}. */
export interface MarketFeedOptions {
  readonly source: MarketSource;
  /** Multiple of real time; Infinity: as fast as possible (yielding to I/O after every batch). */
  readonly speed: number;
  readonly loop: boolean;
  /** Called with every `ws/public` frame at its (scaled) time. */
  readonly onFrame: (frame: FeedFrame) => void;
  /**
   * Called with every recorded `rest` frame (a recorded answer, such as polled futures info) at its
   * (scaled) time, as recorded, with the shift its times take; such frames are skipped without it.
   */
  readonly onRestFrame?: (frame: RecordedFrame, shiftMs: number) => void;
  /**
   * Decodes a recording's book and trades lines from their bytes (frames then carry the message
   * as recorded); used while no time shift applies (a shift rewrites every message).
   */
  readonly decoder?: MarketLineDecoder;
  /**
   * Added to every time a frame carries (its receive time and the exchange times inside it):
   * a recording replayed "as if now". Default 0.
   */
  readonly shiftMs?: number;
  /**
   * Awaited between batches: resolves when the subscribers can take more (a slow reader holds the
   * market back instead of losing frames or filling memory). Default: always ready.
   */
  readonly ready?: () => Promise<void> | undefined;
  /** Called before each frame, with its (shifted) time, and awaited if it returns a promise: a lockstep replay's clock. */
  readonly beforeFrame?: (t: number) => Promise<void> | undefined;
  /** Awaited once the source has been replayed to its end (not when stopped). */
  readonly afterLast?: () => Promise<void>;
}

const STOPPED_STEP: IteratorResult<readonly FeedFrame[]> = { done: true, value: undefined };

/** Public frames of a recording read at start to learn which channels it carries. */
const SURVEYED_FRAMES = 2000;

/** Frames handed over between two yields to I/O when replaying as fast as possible. */
const SYNC_BATCH = 256;

/**
 * Replays a market source in real time (or a multiple of it): `ws/public` frames go to `onFrame`
 * when their recorded local time comes due. Looping restarts the source; times of later laps are
 * shifted so the market's clock keeps moving forward (the venue never goes back in time).
 * Recordings are read in batches (one await per chunk of the file, not per frame): at full speed
 * the feed's own cost is the frames', not the iteration's.
 */
export class MarketFeed {
  private stopped = false;
  /** Ends the wait in progress on stop: a source waiting for its next frame must not hold up shutdown. */
  private wakeStopped: () => void = () => undefined;

  constructor(private readonly options: MarketFeedOptions) {}

  /** The source's symbols (the recording header, or the frame producer's table). */
  static async symbols(source: MarketSource): Promise<Readonly<Record<string, SymbolInfo>>> {
    if (source.kind === 'frames') return source.symbols;
    return (await new RecordingReader(source.path).readHeader()).symbols;
  }

  /**
   * Where the venue's clock starts: the first `ws/public` frame's time of a recording, the frame
   * producer's `startTime`, else `now()`. Orders placed before the first frame then carry a real
   * time, not 0.
   */
  static async startTime(source: MarketSource, now: () => number): Promise<number> {
    if (source.kind === 'frames') return source.startTime ?? Math.floor(now());
    for await (const frame of new RecordingReader(source.path).frames()) {
      if (frame.src === 'ws/public') return frame.t;
    }
    return Math.floor(now());
  }

  /**
   * The public channels a recording carries, from its first {@link SURVEYED_FRAMES} public frames
   * (none for a frame producer): the sandbox serves these as recorded and derives only the others.
   */
  static async recordedChannels(source: MarketSource): Promise<string[]> {
    if (source.kind === 'frames') return [];
    const found = new Set<string>();
    let seen = 0;
    for await (const frame of new RecordingReader(source.path).frames()) {
      if (frame.src !== 'ws/public') continue;
      const ch = (frame.msg as { ch?: unknown } | null)?.ch;
      if (typeof ch === 'string') found.add(ch);
      if (++seen >= SURVEYED_FRAMES) break;
    }
    return [...found];
  }

  /** Stops after the frame in progress. */
  stop(): void {
    this.stopped = true;
    this.wakeStopped();
  }

  /** Replays; resolves at the end of the source (never while looping, until stopped). */
  async run(): Promise<void> {
    const { speed, onFrame, onRestFrame, ready } = this.options;
    const baseShift = this.options.shiftMs ?? 0;
    let lapShift = 0;
    let lastT: number | undefined;
    do {
      let firstT: number | undefined;
      let lapStart: number | undefined;
      const startedAt = performance.now();
      const iterator = this.batches()[Symbol.asyncIterator]();
      for (;;) {
        const step = await this.untilStopped(iterator.next(), STOPPED_STEP);
        if (this.stopped) {
          void iterator.return?.()?.catch(() => undefined);
          return;
        }
        if (step.done === true) break;
        for (const frame of step.value) {
          const rest = frame.src === 'rest' && onRestFrame !== undefined;
          if (frame.src !== 'ws/public' && !rest) continue;
          lapStart ??= frame.t;
          if (lastT !== undefined && firstT === undefined && lapStart + lapShift <= lastT) lapShift = lastT - lapStart + 1;
          firstT ??= frame.t;
          if (Number.isFinite(speed)) {
            const wait = startedAt + (frame.t - firstT) / speed - performance.now();
            if (wait >= 1) await sleep(wait);
            if (this.stopped) return;
          }
          const shift = baseShift + lapShift;
          const waiting = this.options.beforeFrame?.(frame.t + shift);
          if (waiting !== undefined) {
            await this.untilStopped(waiting, undefined);
            if (this.stopped) return;
          }
          lastT = frame.t + lapShift;
          if (rest) onRestFrame({ t: frame.t + shift, src: frame.src, msg: frame.msg }, shift);
          else if (shift === 0) onFrame(frame);
          else if (frame.text === undefined) onFrame(shiftFrameTimes(frame, shift));
          // A loop's later lap of a decoded frame: the market's clock, and the trades' times the venue matches by.
          else onFrame({ ...frame, t: frame.t + shift, events: shiftTradeTimes(frame.events, shift) });
        }
        if (!Number.isFinite(speed)) {
          // Between batches: let sockets and timers run, and wait for slow readers.
          await new Promise<void>((resolve) => setImmediate(resolve));
          const waiting = ready?.();
          if (waiting !== undefined) await this.untilStopped(waiting, undefined);
          if (this.stopped) return;
        }
      }
    } while (this.options.loop && !this.stopped);
    if (!this.stopped && this.options.afterLast !== undefined) await this.untilStopped(this.options.afterLast(), undefined);
  }

  /**
   * `work`'s outcome, or `onStop` once stopped. Not `Promise.race` with one long-lived stop
   * promise: every race leaves a reaction on it that holds the race's result (a whole batch of
   * frames) until stop, which kept every frame of a replay alive.
   */
  private untilStopped<T, S>(work: Promise<T>, onStop: S): Promise<T | S> {
    if (this.stopped) return Promise.resolve(onStop);
    return new Promise<T | S>((resolve, reject) => {
      this.wakeStopped = () => resolve(onStop);
      work.then(resolve, reject);
    });
  }

  private batches(): AsyncIterable<readonly FeedFrame[]> {
    const { source, decoder } = this.options;
    if (source.kind === 'recording' && decoder !== undefined && (this.options.shiftMs ?? 0) === 0) return readMarketBatches(source.path, decoder);
    if (source.kind === 'recording') return readFrameBatches(source.path) as AsyncIterable<RecordedFrame[]>;
    return inBatches(source.frames());
  }
}

/** A frame producer's frames in batches: a synchronous producer is cut every {@link SYNC_BATCH} frames. */
async function* inBatches(frames: AsyncIterable<RecordedFrame> | Iterable<RecordedFrame>): AsyncGenerator<readonly RecordedFrame[]> {
  if (Symbol.asyncIterator in frames) {
    for await (const frame of frames) yield [frame];
    return;
  }
  let batch: RecordedFrame[] = [];
  for (const frame of frames) {
    batch.push(frame);
    if (batch.length >= SYNC_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
