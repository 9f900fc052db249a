import { describe, expect, it } from 'vitest';
import type { SweepReport } from '../../../backtest/sweep/run-sweep.js';
import { SWEEP_METRICS, type PlainMetrics, type SweepRow } from '../../../backtest/sweep/sweep-metrics.js';
import { formatSweepTable, sweepCsv } from '../../../backtest/sweep/sweep-output.js';

function row(index: number, pnl: string): SweepRow {
  const metrics = Object.fromEntries(SWEEP_METRICS.map((m) => [m, ''])) as Record<string, string>;
  metrics['pnlQuote'] = pnl;
  metrics['sharpe'] = '1.23456789012345';
  return { index, params: { halfSpreadBps: String(index), label: `a,"b"` }, events: 10, metrics: metrics as PlainMetrics };
}

function report(count: number): SweepReport {
  return {
    spec: { config: '/c.yaml', recordings: ['/r.jsonl'], grid: {}, rankBy: 'pnlQuote' },
    strategy: 'market-maker', paramKeys: ['halfSpreadBps', 'label'], workers: 1,
    rows: Array.from({ length: count }, (_, i) => row(i, String(count - i))),
  };
}

describe('sweepCsv', () => {
  it('writes rank, combination, params, events and every metric, quoting as RFC 4180 says', () => {
    const lines = sweepCsv(report(2)).split('\r\n');
    expect(lines[0]).toBe(['rank', 'combination', 'halfSpreadBps', 'label', 'events', ...SWEEP_METRICS].join(','));
    expect(lines[1]!.startsWith('1,0,0,"a,""b""",10,2,')).toBe(true);
    expect(lines[2]!.startsWith('2,1,1,"a,""b""",10,1,')).toBe(true);
    expect(lines[3]).toBe('');
  });
});

describe('formatSweepTable', () => {
  it('shows the top rows only, with the ranking metric first and long floats shortened', () => {
    const text = formatSweepTable(report(25), 20);
    const lines = text.split('\n');
    expect(lines[0]).toBe('ranked by pnlQuote (top 20 of 25)');
    expect(lines[1]).toMatch(/^ *# +halfSpreadBps +label +pnlQuote +feesQuote +fills +sharpe +maxDrawdown$/);
    expect(lines).toHaveLength(3 + 20);
    expect(lines[3]).toMatch(/ 1\.23457 +-$/);
    expect(lines[22]).toMatch(/^20 /);
  });

  it('says nothing about a cut when every row fits', () => {
    expect(formatSweepTable(report(3)).split('\n')[0]).toBe('ranked by pnlQuote');
  });
});
