import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBacktest, type BacktestOptions } from '../../../../backtest/replay/backtest-runner.js';
import type { BacktestResult } from '../../../../backtest/report/backtest-result.js';
import type { Strategy, StrategyPlugin } from '../../../../framework/runtime/strategy.js';

/** The one symbol of the test recordings: tick 0.01, quantity step 0.001, 0.1 % fees. */
export const SYMBOL = 'XUSDT';

/** A minute boundary, so candle periods line up with the frames' times. */
export const T0 = 1_699_999_980_000;

/** The header of the test recordings. */
export const FIXTURE_HEADER = {
  format: 'tradeloop.recording', version: 1, venue: 'test', symbols: {
    [SYMBOL]: {
      type: 'spot', expiry: null, base_currency: 'X', quote_currency: 'USDT', status: 'working', quantity_increment: '0.001',
      tick_size: '0.01', take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT', margin_trading: false,
    },
  },
};

/** A public frame of a test recording: local receive time and the message. */
export interface TestFrame {
  readonly t: number;
  readonly msg: unknown;
}

/** Writes a recording (plain JSON Lines) of `frames` to a fresh temp directory; returns its path. */
export function writeRecording(frames: readonly TestFrame[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-replay-test-'));
  const file = path.join(dir, 'test.v3.jsonl');
  const lines = [JSON.stringify(FIXTURE_HEADER), ...frames.map((f) => JSON.stringify({ t: f.t, src: 'ws/public', msg: f.msg }))];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** An `orderbook/full` frame of {@link SYMBOL}. */
export function book(t: number, sequence: number, bids: [string, string][], asks: [string, string][], snapshot = false): TestFrame {
  return { t, msg: { ch: 'orderbook/full', [snapshot ? 'snapshot' : 'update']: { [SYMBOL]: { t, s: sequence, b: bids, a: asks } } } };
}

/** A `trades` frame of {@link SYMBOL}: [price, quantity, aggressor side] per trade. */
export function trades(t: number, firstId: number, list: [string, string, 'buy' | 'sell'][]): TestFrame {
  return { t, msg: { ch: 'trades', update: { [SYMBOL]: list.map(([p, q, s], i) => ({ t, i: firstId + i, p, q, s })) } } };
}

/** A `candles/M1` frame holding one candle, received when its minute has ended (a closed candle). */
export function candle(start: number, o: string, h: string, l: string, c: string): TestFrame {
  return { t: start + 60_000, msg: { ch: 'candles/M1', update: { [SYMBOL]: [{ t: start, o, h, l, c, v: '10', q: '1000' }] } } };
}

/** A plugin whose strategy is made by `make` (a fresh one per run). */
export function plugin(make: () => Strategy): StrategyPlugin {
  return { name: 'test', description: 'test strategy', parseParams: () => ({}), create: () => make() };
}

/** Backtests `strategy` on `recording` with 10000 USDT and 10 X, seed 1, unless `options` say otherwise. */
export function backtest(recording: string, make: () => Strategy, options: Partial<BacktestOptions> = {}): Promise<BacktestResult> {
  return runBacktest({
    strategyRef: 'test', plugin: plugin(make), params: {}, symbols: [SYMBOL], recordings: [recording],
    balances: { USDT: '10000', X: '10' }, ...options,
  });
}
