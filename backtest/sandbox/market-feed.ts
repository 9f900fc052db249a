import type { SymbolInfo } from '../../framework/model/resources/symbol.js';
import type { RecordedFrame } from '../recording/recording-format.js';
import { RecordingReader } from '../recording/recording-reader.js';
import type { MarketSource } from './sandbox-config.js';

/** Options of {@link MarketFeed}. */
export interface MarketFeedOptions {
  readonly source: MarketSource;
  /** Multiple of real time; Infinity: as fast as possible (yielding to I/O every 256 frames). */
  readonly speed: number;
  readonly loop: boolean;
  /** Called with every `ws/public` frame at its (scaled) time. */
  readonly onFrame: (frame: RecordedFrame) => void;
}

/**
 * Replays a market source in real time (or a multiple of it): `ws/public` frames go to `onFrame`
 * when their recorded local time comes due. Looping restarts the source; times of later laps are
 * shifted so the market's clock keeps moving forward (the venue never goes back in time).
 */
export class MarketFeed {
  private stopped = false;
  private wakeStopped: () => void = () => undefined;
  /** Resolves on stop: a source waiting for its next frame must not hold up shutdown. */
  private readonly stopSignal = new Promise<IteratorResult<RecordedFrame>>((resolve) => {
    this.wakeStopped = () => resolve({ done: true, value: undefined });
  });

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

  /** Stops after the frame in progress. */
  stop(): void {
    this.stopped = true;
    this.wakeStopped();
  }

  /** Replays; resolves at the end of the source (never while looping, until stopped). */
  async run(): Promise<void> {
    const { speed } = this.options;
    let shift = 0;
    let lastT: number | undefined;
    do {
      let firstT: number | undefined;
      const startedAt = performance.now();
      let sinceYield = 0;
      let lapStart: number | undefined;
      const source = this.frames();
      const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync(source[Symbol.iterator]());
      for (;;) {
        const step = await Promise.race([iterator.next(), this.stopSignal]);
        if (this.stopped) {
          void iterator.return?.()?.catch(() => undefined);
          return;
        }
        if (step.done) break;
        const frame = step.value;
        if (frame.src !== 'ws/public') continue;
        lapStart ??= frame.t;
        if (lastT !== undefined && lapStart + shift <= lastT && firstT === undefined) shift = lastT - lapStart + 1;
        firstT ??= frame.t;
        if (Number.isFinite(speed)) {
          const wait = startedAt + (frame.t - firstT) / speed - performance.now();
          if (wait >= 1) await sleep(wait);
        } else if (++sinceYield >= 256) {
          sinceYield = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        if (this.stopped) return;
        const t = frame.t + shift;
        lastT = t;
        this.options.onFrame(shift === 0 ? frame : { ...frame, t });
      }
    } while (this.options.loop && !this.stopped);
  }

  private frames(): AsyncIterable<RecordedFrame> | Iterable<RecordedFrame> {
    const { source } = this.options;
    return source.kind === 'recording' ? new RecordingReader(source.path).frames() : source.frames();
  }
}

function toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return {
    next: () => Promise.resolve(iterator.next()),
    return: () => Promise.resolve(iterator.return?.() ?? { done: true, value: undefined }),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
