import { ValidationError } from '../../../framework/model/errors.js';
import { RecordingWriter, type RecordingWriterOptions } from '../../recording/recording-writer.js';
import type { SyntheticSymbolOptions } from './synthetic-config.js';
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
  const { seed, symbols, durationMs, start = DEFAULT_START, stepMs, latencyMs, rotateBytes, rotateMs } = options;
  if (!(Number.isFinite(durationMs) && durationMs > 0)) throw new ValidationError('durationMs', 'must be a positive number of ms', durationMs);
  const market = new SyntheticMarket({ seed, symbols, stepMs, latencyMs });
  const frames = market.frames({ start, durationMs });
  // The first step validates the frame options, before any file is created.
  let next = frames.next();
  const writer = new RecordingWriter(path, market.header(), { rotateBytes, rotateMs });
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
