import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../backtest/report/console-summary.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { formatDuration, formatMoney, formatPercent, formatRatio } from '../../../backtest/report/summary-rows.js';
import { dec } from '../../../framework/model/decimal.js';
import { sampleResult } from './result-fixture.js';

describe('formatSummary', () => {
  const result = sampleResult();
  const text = formatSummary(result, computeMetrics(result));
  const lines = text.trimEnd().split('\n');

  it('aligns every value in one column after the longest label', () => {
    const rows = lines.slice(2, -1);
    const column = rows[0]!.indexOf('grid');
    expect(column).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row[column - 1]).toBe(' ');
      expect(row[column]).not.toBe(' ');
      expect(row.slice(0, column).trimEnd().length).toBeLessThan(column - 1);
    }
  });

  it('shows the key figures', () => {
    expect(lines).toContain(`${'Net PnL'.padEnd(30)}  9.8 USDT (0.98%)`);
    expect(text).toMatch(/Max drawdown\s+0\.50% \(5 USDT\), 2m 00s/);
    expect(text).toMatch(/Win rate\s+100\.00%/);
    expect(text).toMatch(/Sharpe \/ Sortino\s+[\d.]+ \/ [\d.]+ \(1m 00s returns, annualised\)/);
    expect(text.split('\n').some((l) => l.endsWith(' '))).toBe(false);
  });
});

describe('summary formatting', () => {
  it('formats durations from milliseconds to days', () => {
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(61_000)).toBe('1m 01s');
    expect(formatDuration(3_600_000)).toBe('1h 00m 00s');
    expect(formatDuration(2 * 86_400_000 + 3_723_000)).toBe('2d 01h 02m 03s');
  });

  it('formats money to 8 decimals and ratios with n/a for undefined', () => {
    expect(formatMoney(dec('1').dividedBy(3))).toBe('0.33333333');
    expect(formatMoney(dec('-12.5000'))).toBe('-12.5');
    expect(formatPercent(0.12345)).toBe('12.35%');
    expect(formatPercent(undefined)).toBe('n/a');
    expect(formatRatio(1.23456)).toBe('1.235');
    expect(formatRatio(undefined)).toBe('n/a');
  });
});
