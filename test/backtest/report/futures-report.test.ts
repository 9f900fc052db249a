import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../framework/model/decimal.js';
import type { ClearingRecord } from '../../../framework/model/resources/clearing.js';
import type { PositionHistoryRecord } from '../../../framework/model/resources/position-history.js';
import type { TradeHistoryRecord } from '../../../framework/model/resources/trade-history.js';
import { futuresPositionRows } from '../../../backtest/report/futures-positions.js';
import { futuresMarginCsv, futuresPositionsCsv, type FuturesReport } from '../../../backtest/report/futures-report.js';
import { renderHtmlReport } from '../../../backtest/report/html-report.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { writeReport } from '../../../backtest/report/write-report.js';
import { meta, sampleResult } from './result-fixture.js';

const d = (v: string) => new Decimal(v);
let id = 0;
function trade(position: string, side: 'buy' | 'sell', quantity: string, price: string, fee: string, pnl: string, timestamp: number, extra: Partial<TradeHistoryRecord> = {}): TradeHistoryRecord {
  id++;
  return {
    id: String(id), order_id: String(id), client_order_id: `c${id}`, symbol: 'BTCUSDT_PERP', side, quantity: d(quantity), price: d(price),
    fee: d(fee), timestamp, taker: false, position_id: position, pnl: d(pnl), ...extra,
  };
}
const funding = (position: string, amount: string): ClearingRecord => ({ timestamp: 0n, position_id: position, type: 'funding', currency: 'USDT', amount: d(amount) });
const history = (position: string, state: string): PositionHistoryRecord =>
  ({ id: position, symbol: 'BTCUSDT_PERP', margin_mode: 'isolated', state, quantity: d('0'), create_timestamp: 0n, update_timestamp: 0n }) as PositionHistoryRecord;

describe('futuresPositionRows', () => {
  it('gives each position its entry and exit averages, realized PnL, fees, funding and net, a flip split at zero', () => {
    // Newest first, as the venue lists them: the function orders by time.
    const trades = [
      trade('2', 'buy', '1', '95', '0.05', '0', 5_000),
      // Closes 2 and opens 1 short; the pnl is the venue's booking (20), plus 5 to show it is summed as given.
      trade('1', 'sell', '3', '110', '0.2', '25', 3_000),
      trade('1', 'buy', '1', '105', '0.1', '0', 2_000),
      trade('1', 'buy', '1', '95', '0.1', '0', 1_000),
    ];
    const rows = futuresPositionRows(trades, [funding('1', '-0.3'), funding('1', '0.05'), funding('2', '-0.01')], [history('1', 'active'), history('2', 'active')]);
    expect(rows.map((r) => ({ ...r, maxQuantity: r.maxQuantity.toFixed(), entryPrice: r.entryPrice.toFixed(), exitPrice: r.exitPrice?.toFixed(), realized: r.realized.toFixed(), fees: r.fees.toFixed(), funding: r.funding.toFixed(), net: r.net.toFixed() }))).toEqual([
      // Opened by buys 1 @ 95 and 1 @ 105, then the sell of 3 @ 110 closes 2 and opens 1 short @ 110:
      // opening fills 95 x 1 + 105 x 1 + 110 x 1 over 3 -> 103.333... (12 places), exit 110; max size 2.
      {
        symbol: 'BTCUSDT_PERP', positionId: '1', side: 'long', state: 'active', openedAt: 1_000, maxQuantity: '2',
        entryPrice: '103.333333333333', exitPrice: '110', realized: '25', fees: '0.4', funding: '-0.25', net: '24.35',
      },
      { symbol: 'BTCUSDT_PERP', positionId: '2', side: 'long', state: 'active', openedAt: 5_000, maxQuantity: '1', entryPrice: '95', exitPrice: undefined, realized: '0', fees: '0.05', funding: '-0.01', net: '-0.06' },
    ]);
  });

  it('marks closed and liquidated positions with the time of their last execution and leaves spot executions out', () => {
    const trades = [
      trade('7', 'sell', '2', '50', '0.01', '0', 10),
      trade('7', 'buy', '2', '40', '0.02', '20', 20, { liquidation: true }),
      { ...trade('x', 'buy', '1', '1', '0', '0', 15), position_id: undefined },
    ];
    const [row, ...rest] = futuresPositionRows(trades, [], [history('7', 'liquidated')]);
    expect(rest).toEqual([]);
    expect([row?.side, row?.state, row?.openedAt, row?.closedAt, row?.exitPrice?.toFixed(), row?.net.toFixed()]).toEqual(['short', 'liquidated', 10, 20, '40', '19.97']);
  });
});

const REPORT: FuturesReport = {
  currency: 'USDT',
  margin: [
    { time: 60_000, marginBalance: d('1000'), positionMargin: d('50'), orderMargin: d('10'), available: d('940'), notional: d('150') },
    { time: 120_000, marginBalance: d('0'), positionMargin: d('0'), orderMargin: d('0'), available: d('0'), notional: d('0') },
  ],
  positions: [{
    symbol: 'BTCUSDT_PERP', positionId: '1', side: 'short', state: 'closed', openedAt: 60_000, closedAt: 90_000, maxQuantity: d('0.5'),
    entryPrice: d('100'), exitPrice: d('90'), realized: d('5'), fees: d('0.1'), funding: d('0.02'), net: d('4.92'),
  }],
};

describe('futures report files', () => {
  it('futures-margin.csv: leverage = notional / margin balance, margin use = (position + order margin) / margin balance, empty when no balance', () => {
    expect(futuresMarginCsv(REPORT).split('\r\n')).toEqual([
      'time,time_iso,currency,margin_balance,position_margin,order_margin,available,notional,leverage,margin_use',
      '60000,1970-01-01T00:01:00.000Z,USDT,1000,50,10,940,150,0.150000000000,0.060000000000',
      '120000,1970-01-01T00:02:00.000Z,USDT,0,0,0,0,0,,',
      '',
    ]);
  });

  it('futures-positions.csv: one exact row per position', () => {
    expect(futuresPositionsCsv(REPORT).split('\r\n')[1]).toBe('BTCUSDT_PERP,1,short,closed,60000,1970-01-01T00:01:00.000Z,90000,1970-01-01T00:01:30.000Z,0.5,100,90,5,0.1,0.02,4.92');
  });

  it('the page gets the futures sections and chart for a futures run only; a spot page is unchanged by them', () => {
    const spot = sampleResult();
    const futures = sampleResult({ futures: REPORT, meta: meta({ futures: { fundingPaid: {}, fundingReceived: {}, liquidations: [
      { symbol: 'BTCUSDT_PERP', time: 90_000, quantity: d('-0.5'), price: d('90'), realized: d('5') },
    ] } }) });
    const spotHtml = renderHtmlReport(spot, computeMetrics(spot));
    const html = renderHtmlReport(futures, computeMetrics(futures));
    expect(spotHtml).not.toContain('futures-margin');
    expect(spotHtml).toContain('</section>\n<h2>Run</h2>');
    expect(html).toContain('<h2>Futures: leverage and margin use</h2>');
    expect(html).toContain('id="futures-data">{"points":[[60,"0.150000","6.0000"],[120,null,null]]}');
    expect(html).toMatch(/<td>BTCUSDT_PERP<\/td><td>1<\/td><td>short<\/td><td>closed<\/td>/);
    expect(html).toContain('<h2>Liquidations</h2>');
    expect(html).toMatch(/<td class="n">-0\.5<\/td><td class="n">90<\/td>/);
  });
});

describe('writeReport of a futures run', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('writes futures-margin.csv and futures-positions.csv beside the other files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'futures-report-'));
    dirs.push(dir);
    const { files } = await writeReport(sampleResult({ futures: REPORT }), dir);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
      'report.html', 'fills.csv', 'orders.csv', 'equity.csv', 'futures-margin.csv', 'futures-positions.csv', 'summary.json', 'run.json',
    ]);
    expect(await readFile(join(dir, 'futures-positions.csv'), 'utf8')).toBe(futuresPositionsCsv(REPORT));
  });
});
