import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCandles } from '../../../backtest/recording/candle-import.js';
import { runBacktest } from '../../../backtest/replay/backtest-runner.js';
import type { BacktestResult } from '../../../backtest/report/backtest-result.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { Decimal } from '../../../framework/model/decimal.js';
import maCrossover from '../../../strategies/ma-crossover/ma-crossover.strategy.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/synthetic-solusdt-m1.csv', import.meta.url));
const SYMBOL = 'SOLUSDT';
const FAST = 10;
const SLOW = 30;
const QUANTITY = new Decimal(1);
const FEE_RATE = new Decimal('0.001');
const START_USDT = new Decimal(10_000);
const MINUTE = 60_000;

interface Bar {
  readonly start: number;
  readonly open: Decimal;
  readonly close: Decimal;
}

interface ExpectedFill {
  readonly time: number;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly quantity: string;
  readonly fee: string;
}

/** The CSV read the plain way: timestamp (UNIX seconds), open, high, low, close, volume. */
function readBars(file: string): Bar[] {
  const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => {
    const [ts, open, , , close] = line.split(',');
    return { start: Number(ts) * 1000, open: new Decimal(open!), close: new Decimal(close!) };
  });
}

function mean(values: readonly Decimal[]): Decimal {
  return values.reduce((s, v) => s.plus(v), new Decimal(0)).dividedBy(values.length);
}

/**
 * The rules, computed directly: SMA(10) and SMA(30) of the closes; from the bar where both exist,
 * the sign of their difference; a crossing where the last non-zero sign changes; long only, one
 * unit: a golden cross when flat buys, a death cross when long sells; the order fills at the next
 * bar's open, at the moment the signal bar closed, paying 0.1 % of the value; a signal on the last
 * bar has no next open and does not fill.
 */
function oracle(bars: readonly Bar[]): { fills: ExpectedFill[]; usdt: Decimal; base: Decimal; unfilledSignals: number } {
  const fills: ExpectedFill[] = [];
  let usdt = START_USDT;
  let base = new Decimal(0);
  let lastSign = 0;
  let unfilledSignals = 0;
  for (let n = SLOW - 1; n < bars.length; n++) {
    const closes = bars.slice(n + 1 - SLOW, n + 1).map((b) => b.close);
    const difference = mean(closes.slice(SLOW - FAST)).minus(mean(closes));
    const sign = difference.isZero() ? 0 : difference.isPositive() ? 1 : -1;
    if (sign === 0) continue;
    const previous = lastSign;
    lastSign = sign;
    if (previous === 0 || previous === sign) continue;
    const long = base.greaterThan(0);
    const side = sign > 0 ? (long ? undefined : 'buy') : (long ? 'sell' : undefined);
    if (side === undefined) continue;
    const next = bars[n + 1];
    if (next === undefined) {
      unfilledSignals++;
      continue;
    }
    const value = next.open.times(QUANTITY);
    const fee = value.times(FEE_RATE);
    if (side === 'buy') {
      usdt = usdt.minus(value).minus(fee);
      base = base.plus(QUANTITY);
    } else {
      usdt = usdt.plus(value).minus(fee);
      base = base.minus(QUANTITY);
    }
    fills.push({ time: bars[n]!.start + MINUTE, side, price: next.open.toFixed(), quantity: QUANTITY.toFixed(), fee: fee.toFixed() });
  }
  return { fills, usdt, base, unfilledSignals };
}

describe('candle-only backtest of an SMA(10)/SMA(30) crossover against an independent computation', () => {
  let dir: string;
  let result: BacktestResult;
  let parsedResult: BacktestResult;
  const bars = readBars(FIXTURE);
  const expected = oracle(bars);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-candle-oracle-'));
    const recording = path.join(dir, 'solusdt-m1.v3.jsonl.gz');
    // The fee rates of the rules, given rather than left to the import's defaults.
    const fees = { take_rate: FEE_RATE.toFixed(), make_rate: FEE_RATE.toFixed(), fee_currency: 'USDT' };
    await importCandles({ csvPath: FIXTURE, outPath: recording, symbol: SYMBOL, period: 'M1', symbolInfo: fees });
    const run = (decodeMarketLines: boolean): Promise<BacktestResult> => runBacktest({
      strategyRef: 'ma-crossover', plugin: maCrossover, symbols: [SYMBOL], recordings: [recording],
      params: maCrossover.parseParams({ average: 'sma', fastPeriod: FAST, slowPeriod: SLOW, orderQuantity: '1', allowShort: false }),
      balances: { USDT: START_USDT.toFixed() }, candles: 'M1', candleSlippageBps: 0, decodeMarketLines,
    });
    result = await run(true);
    parsedResult = await run(false);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships enough data for the comparison to mean something', () => {
    expect(bars.length).toBeGreaterThanOrEqual(2000);
    expect(expected.fills.filter((f) => f.side === 'sell').length).toBeGreaterThanOrEqual(10);
  });

  it('gives exactly the fills of the rules: time, side, price, quantity, fee', () => {
    expect(result.meta.mode).toBe('candles');
    const actual = result.fills.map((f) => ({
      time: f.time, side: f.side, price: f.price.toFixed(), quantity: f.quantity.toFixed(), fee: f.fee.toFixed(),
    }));
    expect(actual).toEqual(expected.fills);
    expect(result.fills.every((f) => f.liquidity === 'taker' && f.feeCurrency === 'USDT')).toBe(true);
  });

  it('ends with exactly the balances and the value of the rules', () => {
    expect(result.finalBalances['USDT']?.toFixed()).toBe(expected.usdt.toFixed());
    expect((result.finalBalances['SOL'] ?? new Decimal(0)).toFixed()).toBe(expected.base.toFixed());
    const lastClose = bars[bars.length - 1]!.close;
    const metrics = computeMetrics(result);
    expect(metrics.finalEquity.toFixed()).toBe(expected.usdt.plus(expected.base.times(lastClose)).toFixed());
    expect(metrics.roundTrips).toBe(expected.fills.filter((f) => f.side === 'sell').length);
  });

  it('gives the same result with the candle lines JSON-parsed as with them decoded from the bytes', () => {
    const withoutWallTime = ({ meta: { wallMs: _wall, ...meta }, ...rest }: BacktestResult): unknown => ({ meta, ...rest });
    expect(JSON.stringify(withoutWallTime(parsedResult))).toBe(JSON.stringify(withoutWallTime(result)));
  });

  it('places one order per acted-on signal; a signal on the last bar leaves its order unfilled', () => {
    expect(result.orders).toHaveLength(expected.fills.length + expected.unfilledSignals);
    const unfilled = result.orders.filter((o) => o.filledQuantity.isZero());
    expect(unfilled).toHaveLength(expected.unfilledSignals);
    expect(unfilled.every((o) => o.status === 'expired')).toBe(true);
  });
});
