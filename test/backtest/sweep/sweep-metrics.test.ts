import { describe, expect, it } from 'vitest';
import { plainMetrics, rankRows, SWEEP_METRICS, type PlainMetrics, type SweepRow } from '../../../backtest/sweep/sweep-metrics.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { sampleResult } from '../report/result-fixture.js';

function row(index: number, metrics: Partial<Record<string, string>>): SweepRow {
  const all = Object.fromEntries(SWEEP_METRICS.map((m) => [m, metrics[m] ?? ''])) as PlainMetrics;
  return { index, params: { k: index }, events: 1, metrics: all };
}

describe('rankRows', () => {
  it('orders by the metric descending, ties by combination index, missing values last', () => {
    const rows = [row(0, { pnlQuote: '1.5' }), row(1, {}), row(2, { pnlQuote: '-3' }), row(3, { pnlQuote: '1.5' }), row(4, { pnlQuote: '10' })];
    expect(rankRows(rows, 'pnlQuote').map((r) => r.index)).toEqual([4, 0, 3, 2, 1]);
  });

  it('compares exactly where floats would tie', () => {
    const rows = [row(0, { pnlQuote: '12345678901234567.1' }), row(1, { pnlQuote: '12345678901234567.2' })];
    expect(rankRows(rows, 'pnlQuote').map((r) => r.index)).toEqual([1, 0]);
  });

  it('does not depend on the input order', () => {
    const rows = [row(0, { sharpe: '2' }), row(1, { sharpe: '1e-7' }), row(2, { sharpe: '2' }), row(3, {})];
    const expected = rankRows(rows, 'sharpe').map((r) => r.index);
    expect(rankRows([...rows].reverse(), 'sharpe').map((r) => r.index)).toEqual(expected);
    expect(expected).toEqual([0, 2, 1, 3]);
  });
});

describe('plainMetrics', () => {
  it('renders every sweep metric as text: Decimals exact, undefined as empty', () => {
    const metrics = computeMetrics(sampleResult());
    const plain = plainMetrics(metrics);
    expect(Object.keys(plain)).toEqual([...SWEEP_METRICS]);
    expect(plain.pnlQuote).toBe(metrics.pnlQuote.toFixed());
    expect(plain.fills).toBe(String(metrics.fills));
    for (const value of Object.values(plain)) expect(typeof value).toBe('string');
  });
});
