import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordingReadLog } from '../../../backtest/recording/recording-read-log.js';
import { RecordingReader, readLines } from '../../../backtest/recording/recording-reader.js';

const FIXTURE = new URL('../../fixtures/fmfw-public-excerpt.v3.jsonl', import.meta.url).pathname;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempFile(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-rec-'));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const HEADER = '{"format":"tradeloop.recording","version":1,"venue":"test","symbols":{"ETHUSDT":{"type":"spot","quote_currency":"USDT","tick_size":"0.01","quantity_increment":"0.0001","take_rate":"0.0025","make_rate":"0.001","fee_currency":"USDT"}},"future_field":1}';

describe('RecordingReader', () => {
  it('reads a header longer than the chunks it reads a header with (hundreds of symbols)', async () => {
    const info = { type: 'spot', quote_currency: 'USDT', tick_size: '0.01', quantity_increment: '0.0001', take_rate: '0.0025', make_rate: '0.001', fee_currency: 'USDT' };
    const symbols = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`SYM${i}USDT`, info]));
    const header = JSON.stringify({ format: 'tradeloop.recording', version: 1, venue: 'test', symbols });
    expect(header.length).toBeGreaterThan(64 * 1024);
    const path = tempFile('wide.v3.jsonl.gz', gzipSync(`${header}\n{"t":1,"src":"ws/public","msg":{}}\n`));
    expect(Object.keys((await new RecordingReader(path).readHeader()).symbols)).toHaveLength(600);
  });

  it('streams the real fixture: header first, every frame in non-decreasing local time', async () => {
    const reader = new RecordingReader(FIXTURE);
    const frames = await collect(reader.frames());
    expect(reader.header?.venue).toBe('fmfw.io');
    expect(frames.length).toBe(350);
    for (let i = 1; i < frames.length; i++) expect(frames[i]!.t).toBeGreaterThanOrEqual(frames[i - 1]!.t);
    expect(frames.every((f) => f.src === 'ws/public')).toBe(true);
  });

  it('reads gzip files and plain files the same way, tolerating unknown header fields', async () => {
    const body = `${HEADER}\n{"t":1.5,"src":"ws/public","msg":{"ch":"trades"}}\n{"t":2,"src":"rest","msg":{"method":"GET"}}\n`;
    const plain = await collect(new RecordingReader(tempFile('a.jsonl', body)).frames());
    const gz = new RecordingReader(tempFile('a.jsonl.gz', gzipSync(body)));
    expect(await collect(gz.frames())).toEqual(plain);
    expect(gz.header?.symbols.ETHUSDT?.tick_size.toFixed()).toBe('0.01');
    expect(plain.map((f) => f.t)).toEqual([1.5, 2]);
  });

  it('names the line and field of a malformed frame', async () => {
    const path = tempFile('bad.jsonl', `${HEADER}\n{"t":"x","src":"ws/public","msg":{}}\n`);
    await expect(collect(new RecordingReader(path).frames())).rejects.toThrow(/bad\.jsonl: line 2: t: must be a number/);
  });

  it('skips a truncated last line when asked, and reports it', async () => {
    const path = tempFile('cut.jsonl', `${HEADER}\n{"t":1,"src":"ws/public","msg":{}}\n{"t":2,"src":"ws/pu`);
    const log = new RecordingReadLog();
    const frames = await collect(new RecordingReader(path, { onError: 'skip', log }).frames());
    expect(frames).toHaveLength(1);
    expect(log.reports()[0]?.malformedLines).toEqual({ count: 1, first: [{ line: 3, reason: 'not valid JSON: line skipped' }] });
  });

  it('rejects a file that is not a recording', async () => {
    const path = tempFile('x.jsonl', '{"format":"other","version":1}\n');
    await expect(new RecordingReader(path).readHeader()).rejects.toThrow(/header\.format/);
  });

  it('throws the file system error of a missing file, gzip or not', async () => {
    const dir = tempFile('x', '').slice(0, -2);
    for (const name of ['missing.jsonl', 'missing.jsonl.gz']) await expect(collect(readLines(join(dir, name)))).rejects.toThrow(/ENOENT/);
  });

  it('splits lines across chunk boundaries and handles CRLF', async () => {
    const long = 'x'.repeat(3_000_000);
    const path = tempFile('lines.txt', `a\r\n${long}\nb`);
    expect((await collect(readLines(path))).map((l) => l.length)).toEqual([1, 3_000_000, 1]);
  });
});
