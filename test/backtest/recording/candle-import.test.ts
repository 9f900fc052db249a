import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCandles } from '../../../backtest/recording/candle-import.js';
import { RecordingReader } from '../../../backtest/recording/recording-reader.js';
import { parseMarketNotification } from '../../../framework/model/stream/market-events.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function csv(content: string): { csvPath: string; outPath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-csv-'));
  dirs.push(dir);
  const csvPath = join(dir, 'in.csv');
  writeFileSync(csvPath, content);
  return { csvPath, outPath: join(dir, 'out.jsonl.gz') };
}

describe('importCandles', () => {
  it('writes one candles frame per row, stamped at the candle close, with an exact quote volume estimate', async () => {
    const paths = csv('timestamp,open,high,low,close,volume\n1704067200,2300.10,2301.50,2299.00,2300.75,12.5\n1704067260,2300.75,2302.00,2300.00,2301.00,3.0001\n');
    const result = await importCandles({ ...paths, symbol: 'ETHUSDT', period: 'M1' });
    expect(result.candles).toBe(2);
    expect(result.symbol.tick_size.toFixed()).toBe('0.01');
    // Highest price 2302.00: 10^-(3 + 4), one lot worth at most 10^-3 USDT (never the volume column's decimals).
    expect(result.symbol.quantity_increment.toFixed()).toBe('0.0000001');
    expect(result.symbol.quote_currency).toBe('USDT');
    const reader = new RecordingReader(paths.outPath);
    const frames = [];
    for await (const f of reader.frames()) frames.push(f);
    expect(frames.map((f) => f.t)).toEqual([1704067260000, 1704067320000]);
    const events = parseMarketNotification(frames[0]!.msg, frames[0]!.t);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    if (event.kind !== 'candles') throw new Error('expected candles');
    expect(event.channel).toBe('candles/M1');
    // q = 12.5 x (2301.50 + 2299.00 + 2300.75) / 3 = 12.5 x 2300.41666..., rounded to 2 + 7 decimals.
    expect(event.candles[0]).toMatchObject({ timestamp: 1704067200000, open: '2300.10', close: '2300.75', volumeQuote: '28755.208333333' });
    expect(reader.header?.note).toMatch(/stamped at their close/);
  });

  it('accepts milliseconds and ISO timestamps without a header row', async () => {
    const paths = csv('2024-01-01T00:00:00Z,1,2,0.5,1.5,10\n1704070800000,1.5,1.6,1.4,1.5,7\n');
    const result = await importCandles({ ...paths, symbol: 'XBTEUR', period: 'H1' });
    expect([result.first, result.last]).toEqual([1704067200000, 1704070800000]);
  });

  it.each([
    ['a row with five columns', '1704067200,1,2,0.5,1.5\n', /6 columns/],
    ['a negative price', '1704067200,-1,2,0.5,1.5,1\n', /in\.csv:1\.open: must be a non-negative decimal/],
    ['high below close', '1704067200,1,1.2,0.5,1.5,1\n', /high must be/],
    ['a time that does not start a candle', '1704067230,1,2,0.5,1.5,1\n', /timestamp: is not the start of a M1 candle/],
    ['rows out of order', '1704067260,1,2,0.5,1.5,1\n1704067200,1,2,0.5,1.5,1\n', /in\.csv:2\.timestamp: must be later/],
  ])('refuses %s, naming line and column', async (_name, content, message) => {
    await expect(importCandles({ ...csv(content), symbol: 'ETHUSDT', period: 'M1' })).rejects.toThrow(message);
  });

  it('asks for the quote currency when it cannot infer it', async () => {
    await expect(importCandles({ ...csv('1704067200,1,2,0.5,1.5,1\n'), symbol: 'FOOBAR', period: 'M1' })).rejects.toThrow(/quote_currency/);
  });

  it('infers the grid from prices only: float artefacts in prices and volumes never make a fine grid', async () => {
    const paths = csv([
      '1704067200,42283.58,42298.62,42261.02,42284.73,218102.59507500002',
      '1704067260,0.30000000000000004,42300.1,0.3,42299.99,0.30000000000000004',
    ].join('\n'));
    const result = await importCandles({ ...paths, symbol: 'BTCUSDT', period: 'M1' });
    expect(result.symbol.tick_size.toFixed()).toBe('0.01');
    // Highest price 42300.1: 10^-(4 + 4) capped at 10^-8.
    expect(result.symbol.quantity_increment.toFixed()).toBe('0.00000001');
    expect(result.inferred).toEqual({ tickSize: true, quantityIncrement: true, takeRate: true, makeRate: true });
    // The artefact price is written on the grid; the volume as it was.
    expect(result.roundedPrices).toBe(1);
    const reader = new RecordingReader(paths.outPath);
    const lines: unknown[] = [];
    for await (const f of reader.frames()) lines.push(f.msg);
    expect(JSON.stringify(lines[1])).toContain('"o":"0.3"');
    expect(JSON.stringify(lines[0])).toContain('"v":"218102.59507500002"');
  });

  it.each([
    ['0.00012', '1'],
    ['1.5', '0.0001'],
    ['3000', '0.0000001'],
    ['250000', '0.00000001'],
  ])('defaults the quantity increment for a highest price of %s to %s', async (high, increment) => {
    const result = await importCandles({ ...csv(`1704067200,${high},${high},${high},${high},1\n`), symbol: 'XUSDT', period: 'M1' });
    expect(result.symbol.quantity_increment.toFixed()).toBe(increment);
  });

  it('uses the given tick size, quantity increment and fees, and rounds prices onto a coarser given tick', async () => {
    const paths = csv('1704067200,100.25,100.75,100.10,100.50,1.5\n');
    const result = await importCandles({ ...paths, symbol: 'XUSDT', period: 'M1', symbolInfo: { tick_size: '0.5', quantity_increment: '0.001', take_rate: '0.002' } });
    expect([result.symbol.tick_size.toFixed(), result.symbol.quantity_increment.toFixed(), result.symbol.take_rate.toFixed()]).toEqual(['0.5', '0.001', '0.002']);
    expect(result.inferred).toEqual({ tickSize: false, quantityIncrement: false, takeRate: false, makeRate: true });
    // 100.25, 100.75 and 100.10 are off the 0.5 grid; 100.50 is on it.
    expect(result.roundedPrices).toBe(3);
  });

  it('refuses to infer a tick finer than 10^-12, naming where, and asks for --tick-size', async () => {
    await expect(importCandles({ ...csv('1704067200,0.0000000000001,0.0000000000001,0.0000000000001,0.0000000000001,1\n'), symbol: 'XUSDT', period: 'M1' }))
      .rejects.toThrow(/tick_size: cannot be inferred: .*in\.csv:1\.open has 13 decimals.*--tick-size/);
  });
});
