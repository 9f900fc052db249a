import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';

/**
 * `cli-progress` (and the terminal-width packages it brings) is loaded when a bar is drawn, on an
 * interactive terminal only: a quiet or piped run does not pay for loading it. By a require of its
 * own name, which the bundler leaves to run time.
 */
const loadWhenDrawn = createRequire(import.meta.url);

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** Work to do (recording bytes, or events) when known: shows a bar, percentage and ETA. */
  readonly total?: number;
  /** Off when false; also off when the stream is not a TTY or the environment says CI. */
  readonly enabled: boolean;
  /** Defaults to `process.stderr`, so reports printed to stdout stay clean. */
  readonly stream?: NodeJS.WriteStream;
  /** What `done` and `total` count; bytes are shown in MiB. Default `events`. */
  readonly unit?: 'events' | 'bytes';
  /** Environment consulted for `CI`; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Extra figures shown next to the bar. */
export interface ProgressPayload {
  /** Replayed events per second of wall time. */
  readonly rate?: number;
}

/** A progress display; every method is a no-op when disabled. */
export interface Progress {
  /** True when something is drawn. */
  readonly active: boolean;
  /** Sets the work done so far (bytes read or events replayed) and, optionally, the rate. */
  update(done: number, payload?: ProgressPayload): void;
  /** Draws the final state and releases the line. */
  stop(): void;
}

const MIB = 1024 * 1024;

/** `CI` set to anything but empty, `0` or `false` counts as a CI run (GitHub, GitLab and others set `true`). */
function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

const NOOP: Progress = { active: false, update: () => {}, stop: () => {} };

/**
 * A replay progress bar over `cli-progress`: done/total with percentage and ETA when the total is
 * known (bytes of a gzip recording read so far work as well as events), events/s from the payload.
 * Drawn only on an interactive terminal: disabled, non-TTY or CI runs get a silent no-op so logs
 * and pipes never fill with redraws.
 */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (!options.enabled || stream.isTTY !== true || isCi(options.env ?? process.env)) return NOOP;
  const bytes = options.unit === 'bytes';
  const known = options.total !== undefined && options.total > 0;
  const amount = bytes ? '{value}/{total} MiB' : '{value}/{total} events';
  const format = known
    ? `replay [{bar}] {percentage}% | ${amount} | {rate} ev/s | ETA {eta_formatted}`
    : `replay ${bytes ? '{value} MiB' : '{value} events'} | {rate} ev/s | {duration_formatted}`;
  const cliProgress = loadWhenDrawn('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar({
    format,
    stream,
    hideCursor: true,
    // The finished bar is erased: the summary printed next starts on a clean line.
    clearOnComplete: true,
    etaBuffer: 50,
    fps: 5,
    formatValue: (value: number, _options: unknown, type: string) =>
      bytes && (type === 'value' || type === 'total') ? (value / MIB).toFixed(1) : String(value),
  }, cliProgress.Presets.shades_classic);
  bar.start(known ? options.total! : 0, 0, { rate: '-' });
  let stopped = false;
  return {
    active: true,
    update(done, payload) {
      if (stopped) return;
      const rate = payload?.rate;
      bar.update(done, rate === undefined || !Number.isFinite(rate) ? {} : { rate: Math.round(rate) });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
