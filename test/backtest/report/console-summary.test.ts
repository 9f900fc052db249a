import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../backtest/report/console-summary.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { formatDuration, formatMoney, formatPercent, formatRatio } from '../../../backtest/report/summary-rows.js';
import { dec } from '../../../framework/model/decimal.js';
import { order, sampleResult } from './result-fixture.js';

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
    expect(lines).toContain(`${'Net PnL'.padEnd(30)}  9.80 USDT (0.98%)`);
    expect(lines).toContain(`${'Equity start -> end'.padEnd(30)}  1000.00 -> 1009.80 USDT`);
    expect(text).toMatch(/Max drawdown\s+0\.50% \(5\.00 USDT\), 2m 00s/);
    expect(text).toMatch(/Win rate\s+100\.00%/);
    expect(text).toMatch(/Round trips \(won\)\s+1 \(1\)\n/);
    expect(text).toMatch(/Orders never filled\s+0\n/);
    // 5 one-minute returns: too few for an annualised ratio, and the line says so.
    expect(lines).toContain(`${'Sharpe / Sortino'.padEnd(30)}  n/a / n/a (1m 00s returns, annualised; n/a: 5 returns, fewer than the 30 needed)`);
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

  it('rounds money to the cent in cent currencies, to 8 significant digits in others', () => {
    expect(formatMoney(dec('1').dividedBy(3), 'USDT')).toBe('0.33');
    expect(formatMoney(dec('-12.5000'), 'USDT')).toBe('-12.50');
    expect(formatMoney(dec('10123.455'), 'USD')).toBe('10123.46');
    expect(formatMoney(dec('-0.125'), 'EUR')).toBe('-0.13');
    expect(formatMoney(dec('0'), 'USDT')).toBe('0.00');
    // Under a cent: 2 significant digits rather than a misleading 0.00.
    expect(formatMoney(dec('0.0043217'), 'USDT')).toBe('0.0043');
    expect(formatMoney(dec('-0.000125'), 'USDT')).toBe('-0.00013');
    expect(formatMoney(dec('1').dividedBy(3))).toBe('0.33333333');
    expect(formatMoney(dec('0.0123456789'), 'BTC')).toBe('0.012345679');
    expect(formatMoney(dec('123456.789123'), 'ETH')).toBe('123456.79');
    expect(formatMoney(dec('0.00000001'), 'BTC')).toBe('0.00000001');
    expect(formatMoney(dec('0'), 'BTC')).toBe('0');
  });

  it('formats ratios to 2 decimals and percentages to 2 decimals, n/a when undefined', () => {
    expect(formatPercent(0.12345)).toBe('12.35%');
    expect(formatPercent(undefined)).toBe('n/a');
    expect(formatRatio(1.23456)).toBe('1.23');
    expect(formatRatio(-0.005)).toBe('-0.01');
    expect(formatRatio(undefined)).toBe('n/a');
  });

  it('counts orders that never filled by final status', () => {
    const result = sampleResult({
      orders: [order('a'), order('b', { filledQuantity: dec('0'), status: 'expired' }), order('c', { filledQuantity: dec('0'), status: 'canceled' })],
    });
    expect(formatSummary(result, computeMetrics(result))).toMatch(/Orders never filled\s+2 \(expired 1, canceled 1\)\n/);
  });
});
