import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCandles } from '../../../backtest/recording/candle-import.js';
import { runBacktest } from '../../../backtest/replay/backtest-runner.js';
import type { BacktestResult } from '../../../backtest/report/backtest-result.js';
import { dec } from '../../../framework/model/decimal.js';
import { plugin } from './support/replay-fixture.js';

const SYMBOL = 'BTCUSDT';
const T0 = 1_704_067_200; // 2024-01-01T00:00:00Z, in seconds as downloaded CSVs have it
/** Without a book the strategy side cannot price a market buy's reserve: the other checks run. */
const CANDLE_RISK = { checks: ['kill-switch', 'order-rate', 'instrument-status', 'grid'] };

/**
 * BTC-like minutes whose volume column carries float artefacts (17 significant digits): the
 * import once took its quantity increment from them (10^-11), a 1 BTC buy became 10^11 lots and
 * its cost in ticks x lots left the exact integer range, so the buy filled 0.00194 BTC.
 */
const CSV = [
  'timestamp,open,high,low,close,volume',
  `${T0},42283.58,42298.62,42261.02,42284.73,218102.59507500002`,
  `${T0 + 60},42284.73,42300.00,42280.10,42299.99,13.200000000000001`,
  `${T0 + 120},42299.99,42310.55,42290.00,42305.12,0.30000000000000004`,
  `${T0 + 180},42305.12,42305.12,42250.01,42260.50,7.1`,
  `${T0 + 240},42260.50,42270.00,42255.55,42266.66,2.5`,
].join('\n');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function imported(symbolInfo?: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-import-backtest-'));
  dirs.push(dir);
  const csvPath = path.join(dir, 'btc.csv');
  writeFileSync(csvPath, `${CSV}\n`);
  const outPath = path.join(dir, 'btc.jsonl.gz');
  await importCandles({ csvPath, outPath, symbol: SYMBOL, period: 'M1', ...(symbolInfo === undefined ? {} : { symbolInfo }) });
  return outPath;
}

/** Buys 1 BTC at market on the first closed candle and sells it on the second. */
function buyThenSell(recording: string): Promise<BacktestResult> {
  let closes = 0;
  return runBacktest({
    strategyRef: 'test', symbols: [SYMBOL], recordings: [recording], params: {},
    balances: { USDT: '100000', BTC: '0' }, risk: CANDLE_RISK,
    plugin: plugin(() => ({
      onCandle: (ctx, _event, closed) => {
        if (!closed) return [];
        closes++;
        if (closes === 1) return [ctx.place({ symbol: SYMBOL, side: 'buy', type: 'market', quantity: dec('1') })];
        if (closes === 2) return [ctx.place({ symbol: SYMBOL, side: 'sell', type: 'market', quantity: dec('1') })];
        return [];
      },
    })),
  });
}

describe('a backtest of imported candles whose volumes carry float artefacts', () => {
  it('fills a 1 BTC market buy and sell completely on the inferred grid', async () => {
    const result = await buyThenSell(await imported());
    expect(result.fills.map((f) => `${f.side} ${f.quantity.toFixed()}`)).toEqual(['buy 1', 'sell 1']);
  });

  it('fills them completely even on a grid as fine as the artefacts once made (10^-11 BTC)', async () => {
    const result = await buyThenSell(await imported({ quantity_increment: '0.00000000001' }));
    expect(result.fills.map((f) => `${f.side} ${f.quantity.toFixed()}`)).toEqual(['buy 1', 'sell 1']);
  });
});
