import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BacktestResult } from './backtest-result.js';
import { renderHtmlReport } from './html-report.js';
import type { BacktestMetrics } from './metrics.js';
import { computeMetrics } from './metrics.js';
import { equityCsv, fillsCsv, ordersCsv, runJson, summaryJson } from './report-files.js';

/** Where {@link writeReport} put things: the HTML page and every file written, in writing order. */
export interface WrittenReport {
  readonly html: string;
  readonly files: string[];
}

/**
 * Writes a run's report into `outDir` (created if missing): report.html, fills.csv, orders.csv,
 * equity.csv, summary.json and run.json. Every file but run.json depends only on the result, so
 * identical results give byte-identical files; run.json alone holds the wall-clock duration.
 * `metrics` defaults to `computeMetrics(result)`.
 */
export async function writeReport(
  result: BacktestResult,
  outDir: string,
  metrics: BacktestMetrics = computeMetrics(result),
): Promise<WrittenReport> {
  await mkdir(outDir, { recursive: true });
  const contents: readonly (readonly [string, string])[] = [
    ['report.html', renderHtmlReport(result, metrics)],
    ['fills.csv', fillsCsv(result)],
    ['orders.csv', ordersCsv(result)],
    ['equity.csv', equityCsv(result)],
    ['summary.json', summaryJson(result, metrics)],
    ['run.json', runJson(result)],
  ];
  const files: string[] = [];
  for (const [name, text] of contents) {
    const path = join(outDir, name);
    await writeFile(path, text, 'utf8');
    files.push(path);
  }
  return { html: files[0]!, files };
}
