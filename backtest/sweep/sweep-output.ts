import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toCsv } from '../report/csv.js';
import { SWEEP_METRICS, type SweepMetric } from './sweep-metrics.js';
import type { SweepReport } from './run-sweep.js';

/**
 * The sweep as CSV, best first: `rank, combination` (grid index), one column per grid key, `events`,
 * then every sweep metric. Only deterministic figures: no wall times, so equal sweeps give equal files.
 */
export function sweepCsv(report: SweepReport): string {
  const headers = ['rank', 'combination', ...report.paramKeys, 'events', ...SWEEP_METRICS];
  const rows = report.rows.map((row, i) => [
    String(i + 1), String(row.index), ...report.paramKeys.map((k) => String(row.params[k] ?? '')), String(row.events),
    ...SWEEP_METRICS.map((m) => row.metrics[m]),
  ]);
  return toCsv(headers, rows);
}

/** Writes `<outDir>/sweep.csv` (creating the folder) and returns its path. */
export async function writeSweepCsv(report: SweepReport, outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const file = path.join(outDir, 'sweep.csv');
  await writeFile(file, sweepCsv(report), 'utf8');
  return file;
}

/** Columns of the console table besides the grid keys and the ranking metric. */
const TABLE_METRICS: readonly SweepMetric[] = ['pnlQuote', 'feesQuote', 'fills', 'sharpe', 'maxDrawdown'];

/**
 * The `top` best rows as an aligned text table: rank, grid values, the ranking metric, then a few
 * headline metrics (floats to 4 significant digits; money as computed).
 */
export function formatSweepTable(report: SweepReport, top = 20): string {
  const metrics = [report.spec.rankBy, ...TABLE_METRICS.filter((m) => m !== report.spec.rankBy)];
  const headers = ['#', ...report.paramKeys, ...metrics];
  const cells = report.rows.slice(0, top).map((row, i) => [
    String(i + 1), ...report.paramKeys.map((k) => String(row.params[k] ?? '')), ...metrics.map((m) => shortNumber(row.metrics[m])),
  ]);
  const widths = headers.map((h, c) => Math.max(h.length, ...cells.map((r) => r[c]!.length)));
  const line = (values: readonly string[]): string => values.map((v, c) => v.padStart(widths[c]!)).join('  ');
  const shown = cells.length < report.rows.length ? ` (top ${cells.length} of ${report.rows.length})` : '';
  return [`ranked by ${report.spec.rankBy}${shown}`, line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** Long float text shortened for a terminal; exact decimals with few digits stay as they are. */
function shortNumber(text: string): string {
  if (text === '' || text.length <= 12) return text === '' ? '-' : text;
  const n = Number(text);
  return Number.isFinite(n) ? String(Number(n.toPrecision(6))) : text;
}
