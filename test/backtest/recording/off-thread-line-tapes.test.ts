import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readFrameBatches, type ReplayFrame } from '../../../backtest/recording/frame-batches.js';
import { LineTapeReader, LineTapeWriter, TAPE_BATCH_END, TAPE_BOOKS, TAPE_CANDLES, TAPE_EMPTY, TAPE_RAW, TAPE_TRADES, type DecodedLine } from '../../../backtest/recording/line-tape.js';
import type { BookScales } from '../../../backtest/recording/market-line-decoder.js';
import { offThreadLineTapes } from '../../../backtest/recording/off-thread-line-tapes.js';
import { RecordingReadLog } from '../../../backtest/recording/recording-read-log.js';
import type { ScaledOrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import { CANDLE_PERIODS } from '../../../framework/model/resources/candle.js';
import type { CandlesEvent, TradesEvent } from '../../../framework/model/stream/market-events.js';
import { SYMBOL, book, candle, trades, writeRecording, type TestFrame } from '../replay/support/replay-fixture.js';

const SCALES: ReadonlyMap<string, BookScales> = new Map([[SYMBOL, { priceScale: 2, quantityScale: 3 }]]);
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** `frames` as a gzipped recording, with `edit` applied to its text first. */
function gzRecording(frames: readonly TestFrame[], edit: (text: string) => string = (text) => text): string {
  const plain = writeRecording(frames);
  folders.push(path.dirname(plain));
  const gz = `${plain}.gz`;
  writeFileSync(gz, gzipSync(edit(readFileSync(plain, 'utf8'))));
  return gz;
}

/** Every frame of a read, and what its log noted. */
async function read(file: string, offThread: boolean, onError: 'skip' | 'throw' = 'skip'): Promise<{ frames: ReplayFrame[]; report: unknown }> {
  const log = new RecordingReadLog();
  const frames: ReplayFrame[] = [];
  for await (const batch of readFrameBatches(file, { decodeMarketLines: SCALES, offThread, onError, log })) frames.push(...batch);
  // The general path's frames name their file's line check: the same rules, another object.
  const comparable = frames.map((frame) => (frame.books === undefined ? { ...frame, origin: undefined } : frame));
  return { frames: comparable, report: log.reports() };
}

/** Levels of a side: `n` prices from `from` up, odd quantities. */
function levels(n: number, from: number): [string, string][] {
  return Array.from({ length: n }, (_, i) => [`${from + i}.25`, `${(i % 7) + 1}.5`]);
}

describe('reading a recording on a thread of its own', () => {
  it('gives the very frames and notes that reading on the replay\'s thread gives', async () => {
    const frames: TestFrame[] = [book(100_000, 1, levels(30_000, 100), levels(30_000, 100_000), true)];
    for (let i = 0; i < 400; i++) {
      const t = 100_001 + i;
      if (i % 50 === 7) frames.push(candle(t - 60_000, '1', '2', '0.5', '1.5'));
      else if (i % 3 === 0) frames.push(trades(t, 10 + i, [['101.25', '0.5', 'buy'], ['101.5', '1.25', 'sell']]));
      else frames.push(book(t, 2 + i, levels(1 + (i % 40), 90), levels(i % 9, 300)));
    }
    // A frame a little back in time (replayed later), one far back (skipped), CRLF, empty and malformed lines.
    const file = gzRecording(frames, (text) => {
      const lines = text.split('\n');
      lines[20] = JSON.stringify({ t: 100_010, src: 'ws/public', msg: book(100_010, 9_999, levels(2, 95), []).msg });
      lines[30] = JSON.stringify({ t: 10, src: 'ws/public', msg: trades(10, 1, [['1', '1', 'buy']]).msg });
      lines[40] = `${lines[40]}\r`;
      lines.splice(50, 0, '', 'not json', '{"t":"x"}');
      return lines.join('\n');
    });
    const here = await read(file, false);
    const there = await read(file, true);
    expect(there.frames).toEqual(here.frames);
    expect(there.report).toEqual(here.report);
    expect(here.frames.length).toBeGreaterThan(390);
    expect(here.frames.filter((f) => f.books !== undefined).length).toBeGreaterThan(300);
    // Candle lines are decoded too.
    expect(here.frames.filter((f) => f.books !== undefined && f.events[0]?.kind === 'candles').length).toBe(8);
  });

  it('stops at a cut gzip stream where reading here stops, and refuses it alike when strict', async () => {
    const frames = Array.from({ length: 3_000 }, (_, i) => book(1_000 + i, 1 + i, levels(5 + (i % 13), 100 + i), levels(3, 9_000)));
    const whole = readFileSync(gzRecording(frames));
    const cut = path.join(folders.at(-1)!, 'cut.v3.jsonl.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const here = await read(cut, false);
    const there = await read(cut, true);
    expect(there).toEqual(here);
    expect(here.frames.length).toBeGreaterThan(100);
    expect(here.frames.length).toBeLessThan(3_000);
    const strictly = (offThread: boolean): Promise<unknown> => read(cut, offThread, 'throw').then(() => 'read', (error: Error) => error.message);
    expect(await strictly(true)).toEqual(await strictly(false));
    expect(await strictly(true)).toMatch(/cut off/);
  });

  it('passes on an error of the file itself, as the file system gave it', async () => {
    const missing = path.join(path.dirname(gzRecording([])), 'missing.v3.jsonl.gz');
    const error = await (async () => {
      for await (const tape of offThreadLineTapes(missing, SCALES)) expect(tape).toBeUndefined();
    })().then(() => undefined, (e: unknown) => e as NodeJS.ErrnoException);
    expect(error?.code).toBe('ENOENT');
    expect(error?.message).toContain('missing.v3.jsonl.gz');
  });

  it('counts every byte of the file once for progress, though its thread reads the first chunk again', async () => {
    const file = gzRecording(Array.from({ length: 5_000 }, (_, i) => book(1_000 + i, 1 + i, levels(6, 100 + i), levels(6, 9_000))));
    const counted = async (offThread: boolean): Promise<number> => {
      let bytes = 0;
      for await (const batch of readFrameBatches(file, { decodeMarketLines: SCALES, offThread, onBytesRead: (n) => (bytes += n) })) expect(batch.length).toBeGreaterThan(0);
      return bytes;
    };
    const size = statSync(file).size;
    // More than one chunk of lines: the rest is read on a thread of its own, from the file's start.
    expect(gunzipSync(readFileSync(file)).length).toBeGreaterThan(600_000);
    expect(await counted(true)).toBe(size);
    expect(await counted(false)).toBe(size);
  });

  it('ends its thread when the replay stops reading early', async () => {
    const frames = Array.from({ length: 20_000 }, (_, i) => book(1_000 + i, 1 + i, levels(8, 100), levels(8, 900)));
    const file = gzRecording(frames);
    let first: ReplayFrame[] | undefined;
    for await (const batch of readFrameBatches(file, { decodeMarketLines: SCALES, offThread: true })) {
      first = batch;
      break;
    }
    expect(first?.length).toBeGreaterThan(0);
  });
});

const symbolIndex = fc.constantFrom('AUSDT', 'BUSDT');
const scaledValue = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const digits = fc.stringMatching(/^[0-9]{1,20}$/);
const decimal = fc.stringMatching(/^[0-9]{1,12}(\.[0-9]{1,12})?$/);
const time = fc.integer({ min: 0, max: 2 ** 45 }).map((n) => n / 8);

const bookLine: fc.Arbitrary<DecodedLine> = fc.tuple(time, fc.array(fc.record({
  symbol: symbolIndex, sequence: scaledValue, exchangeTime: scaledValue, snapshot: fc.boolean(),
  askLevels: fc.array(fc.tuple(scaledValue, scaledValue), { maxLength: 30 }), bidLevels: fc.array(fc.tuple(scaledValue, scaledValue), { maxLength: 30 }),
}), { minLength: 1, maxLength: 2 })).map(([t, books]) => ({
  t, src: 'ws/public' as const, events: [],
  books: books.map((b): ScaledOrderBookFrame => ({
    symbol: b.symbol, sequence: b.sequence, exchangeTime: b.exchangeTime, receivedAt: t, snapshot: b.snapshot,
    priceScale: b.symbol === 'AUSDT' ? 2 : 6, quantityScale: b.symbol === 'AUSDT' ? 4 : 0, askLevels: b.askLevels.flat(), bidLevels: b.bidLevels.flat(),
  })),
}));

const tradesLine: fc.Arbitrary<DecodedLine> = fc.tuple(time, fc.array(fc.record({
  symbol: symbolIndex, snapshot: fc.boolean(), exchangeTime: scaledValue,
  trades: fc.array(fc.record({ timestamp: scaledValue, id: digits, price: decimal, quantity: decimal, side: fc.constantFrom('buy' as const, 'sell' as const) }), { maxLength: 4 }),
}), { minLength: 1, maxLength: 2 })).map(([t, events]) => ({
  t, src: 'ws/public' as const, books: [],
  events: events.map((e): TradesEvent => ({ kind: 'trades', channel: 'trades', symbol: e.symbol, snapshot: e.snapshot, exchangeTime: e.exchangeTime, receivedAt: t, trades: e.trades as unknown as TradesEvent['trades'] })),
}));

const candlesLine: fc.Arbitrary<DecodedLine> = fc.tuple(time, fc.array(fc.record({
  symbol: symbolIndex, period: fc.constantFrom(...CANDLE_PERIODS), snapshot: fc.boolean(), exchangeTime: scaledValue,
  candles: fc.array(fc.record({ timestamp: scaledValue, open: decimal, close: decimal, high: decimal, low: decimal, volume: decimal, volumeQuote: decimal }), { maxLength: 3 }),
}), { minLength: 1, maxLength: 2 })).map(([t, events]) => ({
  t, src: 'ws/public' as const, books: [],
  events: events.map((e): CandlesEvent => ({
    kind: 'candles', channel: `candles/${e.period}`, symbol: e.symbol, snapshot: e.snapshot, exchangeTime: e.exchangeTime, receivedAt: t,
    period: e.period, candles: e.candles as unknown as CandlesEvent['candles'],
  })),
}));

type Entry = { kind: 'decoded'; line: DecodedLine } | { kind: 'raw'; text: string } | { kind: 'empty' } | { kind: 'batch' };

const entry: fc.Arbitrary<Entry> = fc.oneof(
  bookLine.map((line) => ({ kind: 'decoded' as const, line })),
  tradesLine.map((line) => ({ kind: 'decoded' as const, line })),
  candlesLine.map((line) => ({ kind: 'decoded' as const, line })),
  fc.string({ maxLength: 40 }).map((text) => ({ kind: 'raw' as const, text })),
  fc.constant({ kind: 'empty' as const }),
  fc.constant({ kind: 'batch' as const }),
);

describe('LineTapeWriter / LineTapeReader', () => {
  it('read back every record as written, over tapes of any size, in slots used again', () => {
    fc.assert(fc.property(fc.array(fc.array(entry, { maxLength: 25 }), { minLength: 1, maxLength: 6 }), (tapes) => {
      const symbols = ['AUSDT', 'BUSDT'];
      const writer = new LineTapeWriter(symbols);
      const reader = new LineTapeReader(symbols, [{ priceScale: 2, quantityScale: 4 }, { priceScale: 6, quantityScale: 0 }]);
      for (const entries of tapes) {
        for (const e of entries) {
          if (e.kind === 'decoded') writer.decoded(e.line);
          else if (e.kind === 'raw') writer.raw(Buffer.from(`>${e.text}<`), 1, 1 + Buffer.byteLength(e.text));
          else if (e.kind === 'empty') writer.empty();
          else writer.batchEnd();
        }
        const tape = writer.take(0);
        reader.load(tape);
        const back: Entry[] = [];
        for (let kind = reader.next(); kind >= 0; kind = reader.next()) {
          if (kind === TAPE_BOOKS || kind === TAPE_TRADES || kind === TAPE_CANDLES) back.push({ kind: 'decoded', line: reader.decodedLine() });
          else if (kind === TAPE_RAW) back.push({ kind: 'raw', text: reader.text.toString('utf8', reader.rawStart, reader.rawEnd) });
          else if (kind === TAPE_EMPTY) back.push({ kind: 'empty' });
          else if (kind === TAPE_BATCH_END) back.push({ kind: 'batch' });
        }
        expect(back).toEqual(entries);
        writer.release(tape.slot);
      }
      // Each tape was read before the next was written: two slots in turn, never more.
      expect(writer.slotsOut).toBe(1);
    }), { numRuns: 150 });
  });
});
