import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordingError } from '../../../backtest/recording/recording-error.js';
import type { RecordingReadReport } from '../../../backtest/recording/recording-line-check.js';
import { RecordingReadLog } from '../../../backtest/recording/recording-read-log.js';
import { RecordingReader } from '../../../backtest/recording/recording-reader.js';
import { readFrameBatches } from '../../../backtest/recording/frame-batches.js';

const SAMPLE = fileURLToPath(new URL('../../../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url));
const SAMPLE_GZ = readFileSync(SAMPLE);
/** The sample's lines, gunzipped here without the readers under test. */
const SAMPLE_LINES = gunzipSync(SAMPLE_GZ).toString('utf8').split('\n').slice(0, -1);
const HEADER = SAMPLE_LINES[0]!;

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-broken-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function file(name: string, content: string | Buffer): string {
  const path = join(dir, `${files++}-${name}`);
  writeFileSync(path, content);
  return path;
}

/** The complete lines zlib itself can decode from a (cut) gzip: what a reader may hand out. */
function readablePrefix(gz: Buffer): string[] {
  const text = gunzipSync(gz, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').slice(0, -1);
}

interface Read {
  readonly times: number[];
  readonly report: RecordingReadReport;
}

/** Reads `path` leniently with both readers; they must agree on the frames and on the report. */
async function readBoth(path: string, backwardsToleranceMs?: number): Promise<Read> {
  const batchLog = new RecordingReadLog();
  const batched: number[] = [];
  for await (const batch of readFrameBatches(path, { onError: 'skip', log: batchLog, backwardsToleranceMs })) for (const frame of batch) batched.push(frame.t);
  const streamLog = new RecordingReadLog();
  const streamed: number[] = [];
  for await (const frame of new RecordingReader(path, { onError: 'skip', log: streamLog, backwardsToleranceMs }).frames()) streamed.push(frame.t);
  expect(streamed).toEqual(batched);
  expect(streamLog.reports()).toEqual(batchLog.reports());
  return { times: batched, report: batchLog.reports()[0]! };
}

async function strictError(path: string, sameMessage = true): Promise<RecordingError> {
  const errors: unknown[] = [];
  try {
    for await (const _batch of readFrameBatches(path)) { /* drain */ }
  } catch (error) {
    errors.push(error);
  }
  try {
    for await (const _frame of new RecordingReader(path).frames()) { /* drain */ }
  } catch (error) {
    errors.push(error);
  }
  expect(errors).toHaveLength(2);
  expect(errors[0]).toBeInstanceOf(RecordingError);
  expect(errors[1]).toBeInstanceOf(RecordingError);
  if (sameMessage) expect((errors[1] as Error).message).toBe((errors[0] as Error).message);
  return errors[0] as RecordingError;
}

const frameTimes = (lines: readonly string[]): number[] => lines.slice(1).filter((l) => l.length > 0).map((l) => (JSON.parse(l) as { t: number }).t);

describe('a gzip recording cut off (a recorder killed with kill -9)', () => {
  const cuts = [Math.floor(SAMPLE_GZ.length * 0.37), Math.floor(SAMPLE_GZ.length * 0.81), SAMPLE_GZ.length - 4];

  it.each(cuts)('cut at compressed byte %i: the lines before the cut are read, the break named by file, offset and last good line', async (cut) => {
    const path = file('cut.v3.jsonl.gz', SAMPLE_GZ.subarray(0, cut));
    const prefix = readablePrefix(SAMPLE_GZ.subarray(0, cut));
    expect(prefix.length).toBeGreaterThan(1);

    const { times, report } = await readBoth(path);
    expect(times).toEqual(frameTimes(prefix));
    expect(report.lines).toBe(prefix.length);
    expect(report.stopped).toMatchObject({ problem: 'damaged', lastGoodLine: prefix.length, compressedOffset: cut });
    expect(report.stopped!.reason).toMatch(/cut off/);

    const error = await strictError(path);
    expect(error).toMatchObject({ file: path, problem: 'damaged', lastGoodLine: prefix.length, compressedOffset: cut });
    expect(error.message).toContain(`${path}: compressed byte ${cut}, after line ${prefix.length}: the gzip stream is cut off`);
  });

  it.each([5, 60])('cut at compressed byte %i, inside the header: nothing is readable, in every mode', async (cut) => {
    const path = file('cut-header.v3.jsonl.gz', SAMPLE_GZ.subarray(0, cut));
    for (const onError of ['skip', 'throw'] as const) {
      const read = async (): Promise<void> => {
        for await (const _batch of readFrameBatches(path, { onError })) { /* drain */ }
      };
      await expect(read()).rejects.toThrow(RecordingError);
      await expect(read()).rejects.toThrow(`${path}: compressed byte ${cut}, before the header line: the gzip stream is cut off`);
    }
    await expect(new RecordingReader(path).readHeader()).rejects.toMatchObject({ problem: 'no-header', lastGoodLine: 0, compressedOffset: cut });
  });
});

describe('files that are not gzip at all', () => {
  it('an empty .gz is refused, named empty', async () => {
    const path = file('empty.jsonl.gz', Buffer.alloc(0));
    await expect(new RecordingReader(path).readHeader()).rejects.toThrow(`${path}: compressed byte 0, before the header line: the file is empty`);
    await expect(strictError(path)).resolves.toMatchObject({ problem: 'no-header', compressedOffset: 0 });
  });

  it('plain text named .gz is refused as not gzip data', async () => {
    const path = file('plain.jsonl.gz', `${HEADER}\n${SAMPLE_LINES[1]}\n`);
    const error = await strictError(path);
    expect(error.message).toMatch(/compressed byte 0, before the header line: not gzip data \(zlib: incorrect header check\)/);
    await expect(new RecordingReader(path, { onError: 'skip' }).readHeader()).rejects.toThrow(RecordingError);
  });

  it('gzip with garbage after its end is read up to the break and says where zlib stopped', async () => {
    const path = file('garbage.jsonl.gz', Buffer.concat([SAMPLE_GZ, Buffer.from('not gzip')]));
    // zlib drops what its failing call decoded, so how much comes before the break depends on the
    // reader's chunk size: each reader hands out a prefix of the sample and names the break.
    const log = new RecordingReadLog();
    const times: number[] = [];
    for await (const batch of readFrameBatches(path, { onError: 'skip', log })) for (const frame of batch) times.push(frame.t);
    const report = log.reports()[0]!;
    expect(report.stopped).toMatchObject({ problem: 'damaged', lastGoodLine: times.length + 1 });
    expect(report.stopped!.reason).toMatch(/corrupt gzip data at or after this byte \(zlib: incorrect header check\)/);
    expect(report.stopped!.compressedOffset).toBeLessThanOrEqual(SAMPLE_GZ.length);
    expect(times.length).toBeGreaterThan(SAMPLE_LINES.length / 2);
    expect(times).toEqual(frameTimes(SAMPLE_LINES).slice(0, times.length));
    await expect(strictError(path, false)).resolves.toMatchObject({ problem: 'damaged' });
  });
});

describe('recordings joined end to end', () => {
  const half = Math.floor(SAMPLE_LINES.length / 2);
  const first = SAMPLE_LINES.slice(0, half);
  const second = [HEADER, ...SAMPLE_LINES.slice(half)];
  const gz = (lines: readonly string[]): Buffer => gzipSync(`${lines.join('\n')}\n`);

  it('cat a.gz b.gz (two gzip members) of consecutive files reads every frame and passes over the repeated header', async () => {
    const path = file('joined.jsonl.gz', Buffer.concat([gz(first), gz(second)]));
    const { times, report } = await readBoth(path);
    expect(times).toEqual(frameTimes(SAMPLE_LINES));
    expect(report.repeatedHeaders).toEqual({ count: 1, first: [{ line: half + 1, reason: expect.stringContaining('the header again') }] });
    expect(report.timeBackwards.count).toBe(0);
    expect(report.stopped).toBeUndefined();
    // Strict mode tolerates an identical header with time going on.
    let strictFrames = 0;
    for await (const _frame of new RecordingReader(path).frames()) strictFrames++;
    expect(strictFrames).toBe(times.length);
  });

  it('zcat a a | gzip: the copy goes back in time, so its frames are skipped (strict: refused at its first frame)', async () => {
    const lines = [...first, ...first];
    const path = file('twice.jsonl.gz', gz(lines));
    const tolerance = 5;
    const { times, report } = await readBoth(path, tolerance);
    // The rule, written out: a frame older than the newest so far by more than the tolerance is
    // skipped; within it, it is replayed at the newest time.
    const expected: number[] = [];
    const skipped: number[] = [];
    let newest = -Infinity;
    lines.forEach((line, i) => {
      if (i === 0 || i === half) return;
      const t = (JSON.parse(line) as { t: number }).t;
      if (t < newest - tolerance) skipped.push(i + 1);
      else expected.push((newest = Math.max(newest, t)));
    });
    expect(times).toEqual(expected);
    expect(report.timeBackwards.count).toBe(skipped.length);
    expect(report.timeBackwards.first.map((n) => n.line)).toEqual(skipped.slice(0, 5));
    expect(report.repeatedHeaders.count).toBe(1);

    const error = await strictError(path);
    expect(error).toMatchObject({ problem: 'time-backwards', line: skipped[0] });
    expect(error.message).toMatch(new RegExp(`twice\\.jsonl\\.gz: line ${skipped[0]}: time goes back [0-9.]+ ms .*beyond the 5 ms tolerance`));
  });

  it('a gzip member cut by kill -9 with a whole one after it (cat cut.gz b.gz) stops at the junction, naming the whole file size', async () => {
    const cut = SAMPLE_GZ.subarray(0, Math.floor(SAMPLE_GZ.length / 2));
    const path = file('cut-joined.jsonl.gz', Buffer.concat([cut, SAMPLE_GZ]));
    const log = new RecordingReadLog();
    const times: number[] = [];
    for await (const batch of readFrameBatches(path, { onError: 'skip', log })) for (const frame of batch) times.push(frame.t);
    const stopped = log.reports()[0]!.stopped!;
    expect(stopped).toMatchObject({ problem: 'damaged', lastGoodLine: times.length + 1 });
    expect(stopped.compressedOffset).toBeLessThanOrEqual(cut.length);
    expect(stopped.reason).toMatch(new RegExp(`corrupt gzip data at or after this byte .*; the file has ${cut.length + SAMPLE_GZ.length} bytes$`));
    expect(times).toEqual(frameTimes(SAMPLE_LINES).slice(0, times.length));
    // Never more than the cut member holds: nothing of the member after it, no garbage.
    expect(times.length).toBeLessThanOrEqual(readablePrefix(cut).length - 1);
  });

  it('a header of another recording ends the file there (strict: refused)', async () => {
    const other = HEADER.replace('"venue":"sandbox"', '"venue":"elsewhere"');
    const path = file('other.jsonl.gz', gz([...first, other, ...SAMPLE_LINES.slice(half)]));
    const { times, report } = await readBoth(path);
    expect(times).toEqual(frameTimes(first));
    expect(report.stopped).toMatchObject({ problem: 'other-header', line: half + 1 });
    await expect(strictError(path)).resolves.toMatchObject({ problem: 'other-header', line: half + 1 });
  });
});

describe('time and malformed lines', () => {
  const frame = (t: number): string => JSON.stringify({ t, src: 'ws/public', msg: { ch: 'trades', update: {} } });

  it('holds a frame a little older than the one before it at that time, and skips one much older', async () => {
    const path = file('times.jsonl', [HEADER, frame(1000), frame(1003), frame(1001), frame(990), frame(1010)].join('\n'));
    const { times, report } = await readBoth(path);
    expect(times).toEqual([1000, 1003, 1003, 1010]);
    expect(report.timeHeld).toMatchObject({ count: 1, first: [{ line: 4 }] });
    expect(report.timeBackwards).toMatchObject({ count: 1, first: [{ line: 5, reason: expect.stringContaining('time goes back 13 ms') }] });
    await expect(strictError(path)).resolves.toMatchObject({ problem: 'time-backwards', line: 5 });
  });

  it('counts every malformed line and names the first five with their reasons; strict refuses the first', async () => {
    const lines = [HEADER, frame(1)];
    for (let i = 0; i < 8; i++) lines.push(i % 2 === 0 ? '{"t":' : '{"t":"soon","src":"ws/public","msg":{}}', frame(2 + i));
    const path = file('bad-lines.jsonl', `${lines.join('\n')}\n`);
    const { times, report } = await readBoth(path);
    expect(times).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(report.malformedLines.count).toBe(8);
    expect(report.malformedLines.first).toEqual([
      { line: 3, reason: 'not valid JSON: line skipped' },
      { line: 5, reason: 't: must be a number (UNIX ms) (got "soon"): line skipped' },
      { line: 7, reason: 'not valid JSON: line skipped' },
      { line: 9, reason: 't: must be a number (UNIX ms) (got "soon"): line skipped' },
      { line: 11, reason: 'not valid JSON: line skipped' },
    ]);
    const error = await strictError(path);
    expect(error.message).toBe(`${path}: line 3: not valid JSON`);
  });

  it('warns of each problem as it goes, the first few of a kind only', async () => {
    const lines = [HEADER, frame(100)];
    for (let i = 0; i < 9; i++) lines.push('oops');
    const warnings: string[] = [];
    const path = file('warn.jsonl', `${lines.join('\n')}\n`);
    for await (const _batch of readFrameBatches(path, { onError: 'skip', log: new RecordingReadLog((m) => warnings.push(m)) })) { /* drain */ }
    expect(warnings).toEqual([3, 4, 5, 6, 7].map((n) => `${path}: line ${n}: not valid JSON: line skipped`));
  });
});
