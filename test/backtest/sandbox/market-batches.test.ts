import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketLineDecoder } from '../../../backtest/recording/market-line-decoder.js';
import { RecordingError } from '../../../backtest/recording/recording-error.js';
import { RecordingReader } from '../../../backtest/recording/recording-reader.js';
import { readMarketBatches, type FeedFrame } from '../../../backtest/sandbox/market-batches.js';

const HEADER = { format: 'tradeloop.recording', version: 1, venue: 'test', symbols: {} };

/** A recording of book and trades lines spanning several 256 KiB chunks, one book line longer than a chunk, and a few lines the decoder leaves to the general parser. */
function recordingText(): string {
  const lines = [JSON.stringify(HEADER)];
  const level = (i: number): string[] => [(1000 + i / 100).toFixed(2), (1 + i / 10_000).toFixed(4)];
  let t = 1_700_000_000_000;
  let s = 1;
  const book = (kind: 'snapshot' | 'update', levels: number): string =>
    JSON.stringify({ t: t++ + 0.25, src: 'ws/public', msg: { ch: 'orderbook/full', [kind]: { ETHUSDT: { t, s: s++, a: Array.from({ length: levels }, (_, i) => level(i)), b: Array.from({ length: levels }, (_, i) => level(-i - 1)) } } } });
  lines.push(book('snapshot', 12_000));
  for (let i = 0; i < 8000; i++) {
    if (i % 3 === 0) lines.push(JSON.stringify({ t: t++, src: 'ws/public', msg: { ch: 'trades', update: { ETHUSDT: [{ t, i: 1000 + i, p: '1000.01', q: '0.5000', s: i % 2 === 0 ? 'buy' : 'sell' }] } } }));
    else if (i % 1000 === 1) lines.push(JSON.stringify({ t: t++, src: 'ws/public', msg: { ch: 'ticker/1s', data: { ETHUSDT: { c: '1000.01' } } } }));
    else lines.push(book('update', 1 + (i % 7)));
  }
  return `${lines.join('\n')}\n`;
}

/** What the feed's consumer sees of a frame: its time and message (decoded frames are parsed from their bytes). */
function seen(frame: FeedFrame): unknown {
  return frame.text === undefined ? { t: frame.t, msg: frame.msg } : { t: frame.t, msg: JSON.parse(frame.text.toString('utf8')) as unknown };
}

describe('readMarketBatches', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'market-batches-'));
    const text = recordingText();
    await writeFile(path.join(dir, 'r.v3.jsonl'), text);
    const gzip = gzipSync(text);
    await writeFile(path.join(dir, 'r.v3.jsonl.gz'), gzip);
    await writeFile(path.join(dir, 'cut.v3.jsonl.gz'), gzip.subarray(0, Math.floor(gzip.length / 2)));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const name of ['r.v3.jsonl', 'r.v3.jsonl.gz']) {
    it(`yields every frame of ${name} as the general reader reads it, across chunk boundaries and lines longer than a chunk`, async () => {
      const file = path.join(dir, name);
      const expected: unknown[] = [];
      for await (const frame of new RecordingReader(file).frames()) expected.push({ t: frame.t, msg: frame.msg });
      const actual: unknown[] = [];
      let decoded = 0;
      let batches = 0;
      const decoder = new MarketLineDecoder(new Map([['ETHUSDT', { priceScale: 2, quantityScale: 4 }]]));
      for await (const batch of readMarketBatches(file, decoder)) {
        batches++;
        for (const frame of batch) {
          if (frame.text !== undefined) decoded++;
          actual.push(seen(frame));
        }
      }
      expect(batches).toBeGreaterThan(3);
      expect(decoded).toBeGreaterThan(expected.length - 20);
      expect(actual).toEqual(expected);
    });
  }

  it('stops on a gzip cut by a killed recorder with an error naming the file and the last line it served', async () => {
    const file = path.join(dir, 'cut.v3.jsonl.gz');
    const decoder = new MarketLineDecoder(new Map([['ETHUSDT', { priceScale: 2, quantityScale: 4 }]]));
    let frames = 0;
    const read = async (): Promise<void> => {
      for await (const batch of readMarketBatches(file, decoder)) frames += batch.length;
    };
    const error = await read().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(RecordingError);
    expect((error as RecordingError).file).toBe(file);
    expect((error as RecordingError).lastGoodLine).toBe(frames + 1);
  });
});
