import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/bot-harness.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const RECORDING = path.join(REPO, 'test', 'fixtures', 'synthetic-eth-cut.v3.jsonl.gz');

let dir: string | undefined;
let child: ChildProcess | undefined;

afterEach(() => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Data lines of a CSV file written by the report (CRLF ends), without the header. */
function dataLines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\r\n').slice(1).filter((l) => l.length > 0);
}

describe('tradeloop paper --out', () => {
  it('streams fills while running and, cut by SIGTERM, leaves the complete folder a backtest writes', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-paper-out-'));
    const configFile = path.join(dir, 'bot.yaml');
    writeFileSync(configFile, [
      'bot: { id: po1 }',
      'strategy:',
      '  name: market-maker',
      '  symbols: [ETHUSDT]',
      '  params: { halfSpreadBps: "1", orderQuantity: "0.05", maxInventory: "0.2", requoteBps: "1", minRequoteIntervalMs: 200 }',
      'risk: { priceBand: "0.05" }',
      'execution: { onShutdown: cancel }',
      'journal: { dir: ./journal }',
      'logging: { level: info, console: "off", file: ./bot.jsonl }',
      'status: { intervalMs: 0 }',
      'paper: { balances: { USDT: "10000", ETH: "1" } }',
    ].join('\n'));
    const out = path.join(dir, 'report');
    child = spawn(process.execPath, [path.join(REPO, 'bin', 'tradeloop.mjs'), 'paper', '--config', configFile, '--recording', RECORDING, '--recorded-time', '--out', out], {
      cwd: dir, env: { ...process.env, TRADELOOP_SOURCES: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    // Rows reach fills.csv while the bot runs (the recording lasts about a minute in real time).
    await until(() => dataLines(path.join(out, 'fills.csv')).length >= 1 || undefined, 45_000, `a fill row while running (output: ${output})`);
    expect(existsSync(path.join(out, 'summary.json'))).toBe(false);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    for (const name of ['fills.csv', 'orders.csv', 'equity.csv', 'summary.json', 'run.json', 'report.html']) expect(existsSync(path.join(out, name))).toBe(true);
    const fills = dataLines(path.join(out, 'fills.csv'));
    const orders = dataLines(path.join(out, 'orders.csv'));
    expect(readFileSync(path.join(out, 'fills.csv'), 'utf8').split('\r\n')[0]).toBe(
      'time,time_iso,symbol,side,price,quantity,fee,fee_currency,liquidity,client_order_id,trade_id,intent_id,strategy_id,cause,'
      + 'decision_symbol,decision_received_at,decision_exchange_time,decision_sequence,decision_frame,liquidation');
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { meta: { strategy: string; symbols: string[] }; metrics: { fills: number; orders: number } };
    expect(summary.meta).toMatchObject({ strategy: 'market-maker', symbols: ['ETHUSDT'] });
    expect(summary.metrics.fills).toBe(fills.length);
    expect(summary.metrics.orders).toBe(orders.length);
    // Every fill names its intent and the frame behind the decision, and its time is the recording's (market time).
    const header = readFileSync(path.join(out, 'fills.csv'), 'utf8').split('\r\n')[0]!.split(',');
    const first = Object.fromEntries(fills[0]!.split(',').map((cell, i) => [header[i]!, cell]));
    expect(first['intent_id']).toMatch(/^market-maker-\d+$/);
    expect(first['decision_symbol']).toBe('ETHUSDT');
    expect(Number(first['decision_sequence'])).toBeGreaterThan(0);
    const recorded = [1_795_387_821_227, 1_795_387_878_213];
    expect(Number(first['time'])).toBeGreaterThanOrEqual(recorded[0]!);
    expect(Number(first['time'])).toBeLessThanOrEqual(recorded[1]! + 1_000);
    // The shutdown canceled what was open: no order of the folder is left live.
    const statusColumn = 8;
    expect(orders.map((l) => l.split(',')[statusColumn]).filter((s) => s === 'new' || s === 'partiallyFilled')).toEqual([]);
    expect(dataLines(path.join(out, 'equity.csv')).length).toBeGreaterThanOrEqual(1);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('<html');
  }, 90_000);
});
