import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { LatencySample } from '../execution/venue-gateway.js';

/** Buffered text that goes to the file at once. */
const FLUSH_BYTES = 16 * 1024;
/** Longest a line waits in the buffer (wall time). */
const FLUSH_AFTER_MS = 1_000;

/**
 * The bot's measured order latency, one JSON line per answered request (`t`, `entryMs`,
 * `responseMs`), appended beside the journal as `<bot>.latency.jsonl`: the series a backtest
 * replays with `backtest.latency: <that file>` (interpolated in time). Lines are gathered and
 * written through a stream in chunks (every {@link FLUSH_BYTES} or {@link FLUSH_AFTER_MS}): a
 * sample costs the bot neither a disk wait nor a write of its own (a paper replay answers
 * thousands of requests a second); lines not yet written when the process is killed are lost,
 * which leaves the series shorter, never wrong.
 */
export class LatencyLog {
  private stream: WriteStream | undefined;
  private pending = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly file: string) {}

  record(sample: LatencySample): void {
    this.pending += `{"t":${sample.t},"entryMs":${round(sample.entryMs)},"responseMs":${round(sample.responseMs)}}\n`;
    if (this.pending.length >= FLUSH_BYTES) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  /** Flushes and closes the file (nothing to do when nothing was recorded). */
  async close(): Promise<void> {
    this.flush();
    const stream = this.stream;
    if (stream === undefined) return;
    this.stream = undefined;
    stream.end();
    await once(stream, 'close');
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    this.stream ??= createWriteStream(this.file, { flags: 'a' });
    this.stream.write(this.pending);
    this.pending = '';
  }
}

/** Microseconds: what the clocks resolve. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
