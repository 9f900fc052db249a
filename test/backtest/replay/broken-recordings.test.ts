import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordingError } from '../../../backtest/recording/recording-error.js';
import { runBacktest, type BacktestOptions } from '../../../backtest/replay/backtest-runner.js';
import type { BacktestResult } from '../../../backtest/report/backtest-result.js';
import { writeReport } from '../../../backtest/report/write-report.js';
import { loadBotConfig } from '../../../framework/config/bot-config.js';
import { loadStrategyPlugin } from '../../../framework/runtime/plugin-loader.js';
import { backtest, book, FIXTURE_HEADER, T0, trades } from './support/replay-fixture.js';

const SAMPLE = fileURLToPath(new URL('../../../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url));
const SAMPLE_GZ = readFileSync(SAMPLE);
const config = loadBotConfig(fileURLToPath(new URL('../../../config/market-maker.yaml', import.meta.url)));

const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-broken-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: string | Buffer): string {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
}

async function marketMaker(recordings: string[], overrides: Partial<BacktestOptions> = {}): Promise<BacktestResult> {
  const { plugin } = await loadStrategyPlugin(config.strategy.name);
  return runBacktest({
    strategyRef: 'market-maker', plugin, params: plugin.parseParams(config.strategy.params), symbols: config.strategy.symbols, recordings,
    balances: config.backtest.balances, risk: config.risk, seed: config.backtest.seed, ...overrides,
  });
}

/** A result without what names the files read and how long it took: the trading itself. */
function trading(result: BacktestResult): string {
  const { meta: { wallMs: _wall, recordings: _files, recordingReads: _reads, ...meta }, ...rest } = result;
  return JSON.stringify({ meta, ...rest });
}

describe('a backtest over a gzip recording cut off by kill -9', () => {
  const cut = Math.floor(SAMPLE_GZ.length * 0.55);
  const cutFile = file('cut.v3.jsonl.gz', SAMPLE_GZ.subarray(0, cut));
  // The readable part, decoded by zlib itself and cut at its last complete line.
  const text = gunzipSync(SAMPLE_GZ.subarray(0, cut), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  const prefix = text.slice(0, text.lastIndexOf('\n') + 1);
  const prefixLines = prefix.split('\n').length - 1;
  const prefixFile = file('prefix.v3.jsonl', prefix);

  it('replays the readable lines, with the results of a backtest over just those lines, and reports where it stopped', async () => {
    const warnings: string[] = [];
    const logger = { log: (level: string, message: string) => void (level === 'warn' && warnings.push(message)) };
    const damaged = await marketMaker([cutFile], { logger });
    const whole = await marketMaker([prefixFile]);
    expect(damaged.fills.length).toBeGreaterThan(5);
    expect(trading(damaged)).toBe(trading(whole));
    expect(damaged.meta.events).toBe(prefixLines - 1);
    expect(damaged.meta.recordingReads).toEqual([expect.objectContaining({
      file: cutFile, lines: prefixLines, stopped: expect.objectContaining({ problem: 'damaged', lastGoodLine: prefixLines, compressedOffset: cut }),
    })]);
    expect(whole.meta.recordingReads?.[0]).toMatchObject({ lines: prefixLines, malformedLines: { count: 0 } });
    expect(whole.meta.recordingReads?.[0]?.stopped).toBeUndefined();
    expect(warnings[0]).toBe(`${cutFile}: compressed byte ${cut}, after line ${prefixLines}: the gzip stream is cut off: the file ends inside it, as a recorder killed or out of disk space leaves it (zlib: unexpected end of file); the file has ${cut} bytes`);
  }, 60_000);

  it('writes the stop into summary.json and the report page', async () => {
    const out = path.join(dir, 'report-cut');
    await writeReport(await marketMaker([cutFile]), out);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { meta: { recordingReads: { stopped: unknown }[] } };
    expect(summary.meta.recordingReads[0]!.stopped).toEqual({
      problem: 'damaged', lastGoodLine: prefixLines, compressedOffset: cut,
      reason: `compressed byte ${cut}, after line ${prefixLines}: the gzip stream is cut off: the file ends inside it, as a recorder killed or out of disk space leaves it (zlib: unexpected end of file); the file has ${cut} bytes`,
    });
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('Not every recording was replayed as recorded.');
    expect(html).toContain(`reading stopped, compressed byte ${cut}, after line ${prefixLines}: the gzip stream is cut off`);
  }, 60_000);

  it('refuses it in strict mode, naming the file, the offset and the last good line', async () => {
    const refused = marketMaker([cutFile], { strictRecordings: true });
    await expect(refused).rejects.toBeInstanceOf(RecordingError);
    await expect(marketMaker([cutFile], { strictRecordings: true })).rejects.toMatchObject({ file: cutFile, problem: 'damaged', compressedOffset: cut, lastGoodLine: prefixLines });
  }, 60_000);

  it('leaves out an empty file beside a good one (strict: refuses it)', async () => {
    const empty = file('empty.v3.jsonl.gz', Buffer.alloc(0));
    const result = await marketMaker([prefixFile, empty]);
    expect(trading(result)).toBe(trading(await marketMaker([prefixFile])));
    expect(result.meta.recordingReads?.[1]).toMatchObject({ file: empty, lines: 0, stopped: { problem: 'no-header', compressedOffset: 0 } });
    await expect(marketMaker([prefixFile, empty], { strictRecordings: true })).rejects.toThrow(`${empty}: compressed byte 0, before the header line: the file is empty`);
    await expect(marketMaker([empty])).rejects.toBeInstanceOf(RecordingError);
  }, 60_000);
});

describe('a backtest over a recording with bad lines and time going back', () => {
  const line = (f: { t: number; msg: unknown }): string => JSON.stringify({ t: f.t, src: 'ws/public', msg: f.msg });

  function recording(): { path: string; lines: string[] } {
    const base = JSON.stringify(FIXTURE_HEADER);
    const lines = [
      base,
      line(book(T0, 1, [['100.00', '5']], [['100.10', '5']], true)),
      line(trades(T0 + 100, 1, [['100.00', '0.5', 'sell']])),
      '{"t":', // line 4: cut JSON
      line(trades(T0 + 200, 2, [['100.00', '0.5', 'sell']])),
      line(trades(T0 + 198, 3, [['100.00', '0.5', 'sell']])), // line 6: 2 ms back: held at T0 + 200
      line(trades(T0 + 50, 4, [['100.00', '0.5', 'sell']])), // line 7: 150 ms back: skipped
      line(trades(T0 + 300, 5, [['abc', '0.5', 'sell']])), // line 8: refused by the trades parser
      base, // line 9: the header again
      line(trades(T0 + 400, 6, [['100.00', '0.5', 'sell']])),
    ];
    return { path: file(`bad-${lines.length}.v3.jsonl.gz`, gzipSync(`${lines.join('\n')}\n`)), lines };
  }

  it('never shows the strategy time going back, and counts each skip in summary.json', async () => {
    const { path: rec } = recording();
    const seen: { now: number; receivedAt: number }[] = [];
    const result = await backtest(rec, () => ({ onTrades: (ctx, event) => void seen.push({ now: ctx.now(), receivedAt: event.receivedAt }) }));
    expect(seen.map((s) => s.receivedAt)).toEqual([T0 + 100, T0 + 200, T0 + 200, T0 + 400]);
    for (const s of seen) expect(s.now).toBeGreaterThanOrEqual(s.receivedAt);

    const out = path.join(dir, 'report-bad');
    await writeReport(result, out);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { meta: { recordingReads: Record<string, { count: number; first: { line: number; reason: string }[] }>[] } };
    const read = summary.meta.recordingReads[0]!;
    expect(read.malformedLines!.count).toBe(2);
    expect(read.malformedLines!.first.map((n) => n.line)).toEqual([4, 8]);
    expect(read.malformedLines!.first[1]!.reason).toMatch(/^refused by the market parsers: .*line skipped$/);
    expect(read.timeHeld).toMatchObject({ count: 1, first: [{ line: 6 }] });
    expect(read.timeBackwards).toMatchObject({ count: 1, first: [{ line: 7 }] });
    expect(read.repeatedHeaders).toMatchObject({ count: 1, first: [{ line: 9 }] });
  });

  it('refuses the first problem in strict mode', async () => {
    const { path: rec } = recording();
    await expect(backtest(rec, () => ({}), { strictRecordings: true })).rejects.toThrow(`${rec}: line 4: not valid JSON`);
  });
});

