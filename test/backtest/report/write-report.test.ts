import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../../backtest/report/write-report.js';
import { meta, point, sampleResult } from './result-fixture.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tradeloop-report-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const NAMES = ['report.html', 'fills.csv', 'orders.csv', 'equity.csv', 'summary.json', 'run.json'];

describe('writeReport', () => {
  it('writes every file and returns their paths, creating the folder', async () => {
    const out = join(await tempDir(), 'nested', 'run-1');
    const written = await writeReport(sampleResult(), out);
    expect(written.html).toBe(join(out, 'report.html'));
    expect(written.files).toEqual(NAMES.map((n) => join(out, n)));
    expect((await readdir(out)).sort()).toEqual([...NAMES].sort());
  });

  it('gives byte-identical files for identical results; only run.json carries the wall time', async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    await writeReport(sampleResult(), a);
    await writeReport(sampleResult({ meta: meta({ wallMs: 987_654_321 }) }), b);
    for (const name of NAMES.filter((n) => n !== 'run.json')) {
      const [bytesA, bytesB] = [await readFile(join(a, name)), await readFile(join(b, name))];
      expect([name, bytesB.equals(bytesA)]).toEqual([name, true]);
      const text = await readFile(join(b, name), 'utf8');
      expect([name, text.includes('wallMs'), text.includes('987654321')]).toEqual([name, false, false]);
    }
    expect(JSON.parse(await readFile(join(b, 'run.json'), 'utf8'))).toEqual({
      wallMs: 987_654_321, events: 1234, eventsPerSecond: 0,
    });
  });

  it('writes exact decimals and RFC 4180 quoting in the CSVs', async () => {
    const dir = await tempDir();
    await writeReport(sampleResult(), dir);
    const fills = await readFile(join(dir, 'fills.csv'), 'utf8');
    expect(fills.split('\r\n')[0]).toBe(
      'time,time_iso,symbol,side,price,quantity,fee,fee_currency,liquidity,client_order_id,trade_id,intent_id,strategy_id,cause,'
      + 'decision_symbol,decision_received_at,decision_exchange_time,decision_sequence,decision_frame,liquidation');
    expect(fills).toContain('65500,1970-01-01T00:01:05.500Z,BTCUSDT,buy,100,1,0.1,USDT,maker,o65500,t65500,i1,,,,,,,,\r\n');
    expect(fills).toContain(',taker,"o,""quoted""\nline",t190000,,,,,,,,,\r\n');
    const orders = await readFile(join(dir, 'orders.csv'), 'utf8');
    expect(orders).toContain('"o,""quoted""\nline",,BTCUSDT,sell,market,,1,1,filled,0,1000\r\n');
    const equity = (await readFile(join(dir, 'equity.csv'), 'utf8')).split('\r\n');
    expect(equity[0]).toBe('time,time_iso,equity_USDT,position_BTCUSDT');
    expect(equity[3]).toBe('65500,1970-01-01T00:01:05.500Z,999.9,1');
  });

  it('puts meta and metrics in summary.json with decimals as strings and undefined as null', async () => {
    const dir = await tempDir();
    await writeReport(sampleResult({ fills: [] }), dir);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as {
      meta: Record<string, unknown>; metrics: Record<string, unknown>;
    };
    expect(Object.keys(summary)).toEqual(['meta', 'metrics']);
    expect(summary.meta['strategy']).toBe('grid');
    expect(summary.meta).not.toHaveProperty('wallMs');
    expect(summary.metrics['pnlQuote']).toBe('9.8');
    expect(summary.metrics['pnlByCurrency']).toEqual({ BTC: '0', USDT: '9.8' });
    expect(summary.metrics['winRate']).toBeNull();
    expect(summary.metrics['periodMs']).toBe(60_000);
    expect(summary.metrics['sharpe']).toBeNull();
    expect(summary.metrics['sharpeUnavailable']).toBe('5 returns, fewer than the 30 needed');
  });

  it('rounds the figures of the page summary while summary.json keeps them exact', async () => {
    const dir = await tempDir();
    // Equity 1000 -> 1009.876543 USDT: the page's summary table shows cents, summary.json every digit.
    const result = sampleResult({ equity: [point(0, '1000'), point(60_000, '1009.876543')] });
    await writeReport(result, dir);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as { metrics: Record<string, unknown> };
    expect(summary.metrics['pnlQuote']).toBe('9.876543');
    expect(summary.metrics['returnFraction']).toBe(0.009876543);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<tr><td>Net PnL</td><td>9.88 USDT (0.99%)</td></tr>');
  });
});
