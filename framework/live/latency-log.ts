import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { LatencySample } from '../execution/venue-gateway.js';

/**
 * The bot's measured order latency, one JSON line per answered request (`t`, `entryMs`,
 * `responseMs`), appended beside the journal as `<bot>.latency.jsonl`: the series a backtest
 * replays with `backtest.latency: <that file>` (interpolated in time). Written through a stream:
 * a sample costs the bot no disk wait; lines still buffered when the process is killed are lost,
 * which leaves the series shorter, never wrong.
 */
export class LatencyLog {
  private stream: WriteStream | undefined;

  constructor(readonly file: string) {}

  record(sample: LatencySample): void {
    this.stream ??= createWriteStream(this.file, { flags: 'a' });
    this.stream.write(`{"t":${sample.t},"entryMs":${round(sample.entryMs)},"responseMs":${round(sample.responseMs)}}\n`);
  }

  /** Flushes and closes the file (nothing to do when nothing was recorded). */
  async close(): Promise<void> {
    const stream = this.stream;
    if (stream === undefined) return;
    this.stream = undefined;
    stream.end();
    await once(stream, 'close');
  }
}

/** Microseconds: what the clocks resolve. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
