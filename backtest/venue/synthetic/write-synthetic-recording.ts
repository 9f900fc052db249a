import { ValidationError } from '../../../framework/model/errors.js';
import { RecordingWriter, type RecordingWriterOptions } from '../../recording/recording-writer.js';
import type { RecordedFrame } from '../../recording/recording-format.js';
import type { SyntheticSymbolOptions } from './synthetic-config.js';
import type { SyntheticFuturesOptions } from './synthetic-futures.js';
import { SyntheticMarket } from './synthetic-market.js';

/** Options of {@link writeSyntheticRecording}. */
export interface SyntheticRecordingOptions extends RecordingWriterOptions {
  readonly seed: number;
  /** Symbol codes or per-symbol options; default `['BTCUSDT']`. */
  readonly symbols?: readonly (string | SyntheticSymbolOptions)[];
  /** Virtual time to simulate, ms. */
  readonly durationMs: number;
  /**
   * Virtual start time, UNIX ms; default 2024-01-01T00:00:00Z, a fixed value so the same seed
   * always writes the same file.
   */
  readonly start?: number;
  readonly stepMs?: number;
  readonly latencyMs?: number;
  /** Futures contracts following spot symbols (see `SyntheticMarketOptions.futures`). */
  readonly futures?: readonly SyntheticFuturesOptions[];
  /**
   * The symbols written (their frames, their futures info and their header entries), as a recorder
   * subscribed to those alone would have captured them; default every symbol.
   */
  readonly keep?: readonly string[];
  /** The header's note; default the market's. */
  readonly note?: string;
}

/** What {@link writeSyntheticRecording} wrote. */
export interface SyntheticRecordingResult {
  readonly frames: number;
  readonly paths: readonly string[];
}

/** 2024-01-01T00:00:00Z. */
const DEFAULT_START = 1_704_067_200_000;

/**
 * Writes a recording of the seeded {@link SyntheticMarket} to `path` (gzip when it ends in `.gz`):
 * the CLI-facing way to make sample data when no real capture is at hand. This is the file edge
 * of the otherwise pure synthetic market.
 */
export async function writeSyntheticRecording(path: string, options: SyntheticRecordingOptions): Promise<SyntheticRecordingResult> {
  const { seed, symbols, futures, keep, note, durationMs, start = DEFAULT_START, stepMs, latencyMs, rotateBytes, rotateMs } = options;
  if (!(Number.isFinite(durationMs) && durationMs > 0)) throw new ValidationError('durationMs', 'must be a positive number of ms', durationMs);
  const market = new SyntheticMarket({ seed, symbols, stepMs, latencyMs, futures });
  const header = market.header();
  const known = Object.keys(header.symbols);
  for (const [i, symbol] of (keep ?? []).entries()) {
    if (!known.includes(symbol)) throw new ValidationError(`keep[${i}]`, `must be a symbol of the market (${known.join(', ')})`, symbol);
  }
  const kept = keep === undefined ? undefined : new Set(keep);
  const frames = keptFrames(market.frames({ start, durationMs }), kept);
  // The first step validates the frame options, before any file is created.
  let next = frames.next();
  const writer = new RecordingWriter(path, {
    ...header,
    symbols: kept === undefined ? header.symbols : Object.fromEntries(Object.entries(header.symbols).filter(([s]) => kept.has(s))),
    ...(note === undefined ? {} : { note }),
  }, { rotateBytes, rotateMs });
  let count = 0;
  try {
    for (; next.done !== true; next = frames.next()) {
      await writer.write(next.value);
      count++;
    }
  } finally {
    await writer.close();
  }
  return { frames: count, paths: [...writer.paths] };
}

/** The frames that concern a kept symbol (a frame names one symbol: its payload's or its futures info's key). */
function* keptFrames(frames: Iterable<RecordedFrame>, kept: ReadonlySet<string> | undefined): Generator<RecordedFrame> {
  for (const frame of frames) {
    if (kept === undefined) {
      yield frame;
      continue;
    }
    const msg = frame.msg as { snapshot?: object; update?: object; body?: object };
    const payload = msg.snapshot ?? msg.update ?? msg.body ?? {};
    if (Object.keys(payload).some((s) => kept.has(s))) yield frame;
  }
}
