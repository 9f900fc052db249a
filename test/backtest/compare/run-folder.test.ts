import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRunFolder } from '../../../backtest/compare/run-folder.js';
import { ParseError, ValidationError } from '../../../framework/model/errors.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HEADER = 'time,time_iso,symbol,side,price,quantity,fee,fee_currency,liquidity,client_order_id,trade_id,intent_id,strategy_id,cause';

/** A run folder holding `fills` (lines after the header) and a summary with PnL 1.5. */
function folder(fills: readonly string[], header = HEADER): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'run-folder-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'fills.csv'), [header, ...fills, ''].join('\r\n'));
  writeFileSync(path.join(dir, 'orders.csv'), 'client_order_id,created_at\r\n"o,1",950\r\n');
  writeFileSync(path.join(dir, 'summary.json'), JSON.stringify({ meta: { strategy: 'mm', quoteCurrency: 'USDT' }, metrics: { pnlQuote: '1.5' } }));
  return dir;
}

describe('readRunFolder', () => {
  it('reads fills exactly, quoted fields included, with their order\'s arrival and no decision frame in an older folder', () => {
    const run = readRunFolder(folder(['1000.5,x,BTCUSDT,buy,0.1000000000000000055,2,-0.01,USDT,maker,"o,1",t1,mm-1,mm,']), 'A');
    expect(run).toMatchObject({ strategy: 'mm', quoteCurrency: 'USDT' });
    expect(run.pnl?.toFixed()).toBe('1.5');
    const [fill] = run.fills;
    expect(fill).toMatchObject({ row: 1, time: 1000.5, clientOrderId: 'o,1', intentId: 'mm-1', orderCreatedAt: 950, side: 'buy', liquidity: 'maker' });
    expect(fill!.price.toFixed()).toBe('0.1000000000000000055');
    expect(fill!.fee.toFixed()).toBe('-0.01');
    expect(fill!.decision).toBeUndefined();
  });

  it('reads the decision frame columns', () => {
    const run = readRunFolder(folder(
      ['1,x,BTCUSDT,sell,1,1,0,USDT,taker,o2,t,,,,BTCUSDT,900.25,890,77,12'],
      `${HEADER},decision_symbol,decision_received_at,decision_exchange_time,decision_sequence,decision_frame`,
    ), 'A');
    expect(run.fills[0]!.decision).toEqual({ symbol: 'BTCUSDT', receivedAt: 900.25, exchangeTime: 890, sequence: 77, index: 12 });
    expect(run.fills[0]!.intentId).toBeUndefined();
  });

  it('refuses a missing folder, a file, a folder without a run, and a malformed fill, naming where', () => {
    expect(() => readRunFolder('/nonexistent/run', 'A')).toThrow(new ValidationError('A', 'no such folder', '/nonexistent/run'));
    const dir = folder([]);
    expect(() => readRunFolder(path.join(dir, 'fills.csv'), 'B')).toThrow(/B: is a file/);
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    expect(() => readRunFolder(empty, 'B')).toThrow(/is not the output folder of a backtest, paper or live run \(no fills\.csv\)/);
    const bad = folder(['1,x,BTCUSDT,buy,1e,1,0,USDT,maker,o,t,,,']);
    expect(() => readRunFolder(bad, 'A')).toThrow(ParseError);
    expect(() => readRunFolder(bad, 'A')).toThrow(`${path.join(bad, 'fills.csv')}:2 price: must be a decimal number (got "1e")`);
    expect(() => readRunFolder(folder(['1,x,BTCUSDT,hold,1,1,0,USDT,maker,o,t,,,']), 'A')).toThrow(/side: must be buy or sell/);
    expect(() => readRunFolder(folder(['1,x']), 'A')).toThrow(/must have 14 fields/);
    expect(() => readRunFolder(folder([], 'time,symbol'), 'A')).toThrow(/lacks the column\(s\) side, price/);
  });
});
