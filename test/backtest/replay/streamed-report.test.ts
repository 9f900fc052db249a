import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest, type BacktestOptions } from '../../../backtest/replay/backtest-runner.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { writeReport } from '../../../backtest/report/write-report.js';
import { loadBotConfig } from '../../../framework/config/bot-config.js';
import { dec } from '../../../framework/model/decimal.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { loadStrategyPlugin } from '../../../framework/runtime/plugin-loader.js';
import type { Strategy } from '../../../framework/runtime/strategy.js';
import { candle, plugin, SYMBOL, T0, writeRecording } from './support/replay-fixture.js';

const CONFIG_DIR = fileURLToPath(new URL('../../../config/', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url));
const FILES = ['fills.csv', 'orders.csv', 'equity.csv', 'report.html', 'summary.json'];

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-streamed-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `options` twice, rows in memory then rows streamed to a folder, writes both reports, and
 * returns the file texts of each (the in-memory report is the reference: its CSVs come from
 * whole lists, its figures from the whole result).
 */
async function bothWays(options: BacktestOptions): Promise<{ memory: Record<string, string>; streamed: Record<string, string>; streamedDir: string }> {
  const memoryDir = tempDir();
  const streamedDir = tempDir();
  const inMemory = await runBacktest(options);
  expect(inMemory.streamed).toBeUndefined();
  await writeReport(inMemory, memoryDir);
  const streamed = await runBacktest({ ...options, reportDir: streamedDir });
  expect([streamed.fills.length, streamed.orders.length, streamed.equity.length]).toEqual([0, 0, 0]);
  await writeReport(streamed, streamedDir);
  const read = (dir: string): Record<string, string> => Object.fromEntries(FILES.map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]));
  return { memory: read(memoryDir), streamed: read(streamedDir), streamedDir };
}

async function sampleOptions(name: string, symbols?: readonly string[], make?: () => Strategy): Promise<BacktestOptions> {
  const config = loadBotConfig(`${CONFIG_DIR}${name}.yaml`);
  const loaded = make === undefined ? (await loadStrategyPlugin(config.strategy.name)).plugin : plugin(make);
  return {
    strategyRef: name, plugin: loaded, params: loaded.parseParams(config.strategy.params), symbols: symbols ?? config.strategy.symbols,
    recordings: [SAMPLE], balances: config.backtest.balances, risk: config.risk, seed: config.backtest.seed, candles: config.strategy.candles,
    errorPolicy: config.strategy.errorPolicy, botId: config.bot.id,
  };
}

describe('a backtest streaming its rows to the report folder', () => {
  it('writes the files of the in-memory report, byte for byte (market maker: orders end out of creation order)', async () => {
    const { memory, streamed } = await bothWays(await sampleOptions('market-maker'));
    expect(memory['orders.csv']!.split('\r\n').length).toBeGreaterThan(20);
    expect(memory['fills.csv']!.split('\r\n').length).toBeGreaterThan(3);
    for (const name of FILES) expect([name, streamed[name] === memory[name]]).toEqual([name, true]);
  }, 60_000);

  it('leaves out the position column of a symbol that never traded, as the in-memory report does', async () => {
    // Buys 0.01 ETH at market on the 50th and 100th ETHUSDT book; BTCUSDT is only watched.
    const { memory, streamed } = await bothWays(await sampleOptions('market-maker', ['ETHUSDT', 'BTCUSDT'], () => {
      let sent = 0;
      return {
        onBook: (ctx, symbol) => {
          if (symbol !== 'ETHUSDT' || ++sent % 50 !== 0 || sent > 100) return [];
          return [ctx.place({ symbol, side: 'buy', type: 'market', quantity: dec('0.01') })];
        },
      };
    }));
    expect(memory['fills.csv']!.split('\r\n').length).toBe(4);
    expect(memory['equity.csv']!.split('\r\n')[0]).toBe('time,time_iso,equity_USDT,position_ETHUSDT');
    for (const name of FILES) expect([name, streamed[name] === memory[name]]).toEqual([name, true]);
  }, 60_000);

  it('writes a run without orders with no position column at all', async () => {
    const { memory, streamed } = await bothWays(await sampleOptions('market-maker', ['ETHUSDT'], () => ({})));
    expect(memory['equity.csv']!.split('\r\n')[0]).toBe('time,time_iso,equity_USDT');
    expect(memory['fills.csv']!.split('\r\n').length).toBe(2);
    for (const name of FILES) expect([name, streamed[name] === memory[name]]).toEqual([name, true]);
  }, 60_000);

  it('writes the files of the in-memory report for a candle run, and copies its CSVs into another folder', async () => {
    const M = 60_000;
    const closes = ['100', '101', '103', '102', '99', '98', '101', '104', '106', '103', '100', '97'];
    const recording = writeRecording(closes.map((c, i) => candle(T0 + i * M, i === 0 ? '100' : closes[i - 1]!, `${Number(c) + 1}`, `${Number(c) - 2}`, c)));
    dirs.push(path.dirname(recording));
    const options: BacktestOptions = {
      strategyRef: 'test', params: {}, symbols: [SYMBOL], recordings: [recording], balances: { USDT: '10000', X: '10' },
      risk: { checks: ['kill-switch', 'order-rate', 'instrument-status', 'grid'] },
      plugin: plugin(() => {
        let n = 0;
        return {
          onCandle: (ctx, _event, closed) => (closed && ++n % 3 === 0 ? [ctx.place({ symbol: SYMBOL, side: n % 2 === 0 ? 'buy' : 'sell', type: 'market', quantity: dec('1') })] : []),
        };
      }),
    };
    const { memory, streamed, streamedDir } = await bothWays(options);
    expect(memory['fills.csv']!.split('\r\n').length).toBeGreaterThan(3);
    for (const name of FILES) expect([name, streamed[name] === memory[name]]).toEqual([name, true]);

    const result = await runBacktest({ ...options, reportDir: tempDir() });
    const elsewhere = tempDir();
    await writeReport(result, elsewhere);
    for (const name of ['fills.csv', 'orders.csv', 'equity.csv']) {
      expect([name, readFileSync(path.join(elsewhere, name), 'utf8') === readFileSync(path.join(streamedDir, name), 'utf8')]).toEqual([name, true]);
    }
  }, 60_000);

  it('gives its figures for the period they were measured with and refuses another (the rows are on disk)', async () => {
    const options = await sampleOptions('market-maker', ['ETHUSDT'], () => ({}));
    const result = await runBacktest({ ...options, reportDir: tempDir() });
    expect(computeMetrics(result)).toBe(result.streamed!.metrics);
    expect(() => computeMetrics(result, { periodMs: 1_000 })).toThrow(ValidationError);
  }, 60_000);
});
