import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeFrameBatches, readFrameBatches, type ReplayFrame } from '../../../backtest/recording/frame-batches.js';
import { FrameQueue } from '../../../backtest/replay/frame-queue.js';
import { mergeRecordings } from '../../../backtest/replay/merge-recordings.js';
import type { RecordedFrame } from '../../../backtest/recording/recording-format.js';
import { RecordingReadLog } from '../../../backtest/recording/recording-read-log.js';
import { book, trades, writeRecording } from '../replay/support/replay-fixture.js';

async function flat(batches: AsyncIterable<ReplayFrame[]>): Promise<ReplayFrame[]> {
  const out: ReplayFrame[] = [];
  for await (const batch of batches) out.push(...batch);
  return out;
}

async function collect(frames: AsyncIterable<RecordedFrame>): Promise<RecordedFrame[]> {
  const out: RecordedFrame[] = [];
  for await (const frame of frames) out.push(frame);
  return out;
}

describe('readFrameBatches / mergeFrameBatches', () => {
  it('merges recordings in the same order as mergeRecordings (receive time, then path order, then file order)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 25 }), { minLength: 1, maxLength: 3 }), async (files) => {
      const paths = files.map((steps, f) => {
        let t = 1_000;
        return writeRecording(steps.map((step, i) => trades((t += step), f * 1_000 + i, [['1', '1', 'buy']])));
      });
      // The batches' general-path frames also carry their file's rules and line.
      const batched = (await flat(mergeFrameBatches(paths))).map(({ t, src, msg }) => ({ t, src, msg }));
      expect(batched).toEqual(await collect(mergeRecordings(paths)));
    }), { numRuns: 25 });
  });

  it('reads gzip like the recording reader, skipping bad lines (reported) when asked, and throwing otherwise', async () => {
    const plain = writeRecording([trades(1, 1, [['1', '1', 'buy']]), trades(2, 2, [['2', '1', 'sell']])]);
    const text = readFileSync(plain, 'utf8').replace('\n', '\n{"t":"x"}\r\nnot json\n\n');
    const gz = `${plain}.gz`;
    writeFileSync(gz, gzipSync(text));
    const log = new RecordingReadLog();
    const frames = await flat(readFrameBatches(gz, { onError: 'skip', log }));
    expect(frames.map((f) => f.t)).toEqual([1, 2]);
    expect(log.reports()[0]!.malformedLines.first.map((n) => [n.line, n.reason])).toEqual([
      [2, expect.stringContaining('t: must be a number')], [3, expect.stringContaining('not valid JSON')],
    ]);
    await expect(flat(readFrameBatches(gz))).rejects.toThrow(/line 2: t: must be a number/);
  });

  it('reads lines longer than a read chunk, and lines cut by chunk boundaries anywhere', async () => {
    // A snapshot of 140,000 levels (a line of over 2 MiB, longer than two read chunks), then lines of
    // all sizes, cut by the chunk boundaries wherever they fall.
    const levels = (n: number, from: number): [string, string][] => Array.from({ length: n }, (_, i) => [`${from + i}.25`, `${i % 7}.5`]);
    const frames = [book(1, 1, levels(70_000, 100), levels(70_000, 100_000), true), trades(2, 1, [['1', '1', 'buy']])];
    for (let i = 0; i < 60; i++) frames.push(book(3 + i, 2 + i, levels(50 + 97 * i, 200), levels(3, 200_000)));
    const file = writeRecording(frames);
    try {
      const batched = (await flat(readFrameBatches(file))).map(({ t, src, msg }) => ({ t, src, msg }));
      expect(batched).toEqual(await collect(mergeRecordings([file])));
      expect(batched).toHaveLength(frames.length);
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('rejects an empty file', async () => {
    const empty = writeRecording([]);
    writeFileSync(empty, '');
    await expect(flat(readFrameBatches(empty))).rejects.toThrow(/empty/);
  });
});

describe('FrameQueue', () => {
  it('takes frames in order and peeks ahead across batch boundaries', async () => {
    const frame = (t: number): RecordedFrame => ({ t, src: 'ws/public', msg: {} });
    async function* batches(): AsyncGenerator<RecordedFrame[]> {
      yield [frame(1), frame(2)];
      yield [frame(3)];
      yield [frame(4), frame(5)];
    }
    const queue = new FrameQueue(batches());
    expect(await queue.fill(1)).toBe(true);
    expect(queue.shift()?.t).toBe(1);
    expect(await queue.fill(3)).toBe(true);
    expect([queue.peek(0)?.t, queue.peek(1)?.t, queue.peek(2)?.t]).toEqual([2, 3, 4]);
    expect(queue.buffered().map((f) => f.t)).toEqual([2, 3, 4, 5]);
    expect(await queue.fill(10)).toBe(false);
    const rest: number[] = [];
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) rest.push(f.t);
    expect(rest).toEqual([2, 3, 4, 5]);
    expect(queue.available).toBe(0);
  });
});
