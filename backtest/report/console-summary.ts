import type { BacktestResult } from './backtest-result.js';
import type { BacktestMetrics } from './metrics.js';
import { summaryRows } from './summary-rows.js';

/**
 * The key figures of a run as an aligned two-column text table (labels padded to the longest),
 * for a terminal. No colours or trailing spaces, so it also reads well in logs and files.
 */
export function formatSummary(result: BacktestResult, metrics: BacktestMetrics): string {
  const rows = summaryRows(result, metrics);
  const width = Math.max(...rows.map((r) => r.label.length));
  const rule = '-'.repeat(width + 2 + Math.max(...rows.map((r) => r.value.length)));
  const lines = rows.map((r) => `${r.label.padEnd(width)}  ${r.value}`);
  return [`Backtest ${result.meta.strategy}`, rule, ...lines, rule].join('\n') + '\n';
}
