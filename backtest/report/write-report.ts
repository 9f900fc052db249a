import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BacktestResult } from './backtest-result.js';
import { renderHtmlReport } from './html-report.js';
import type { BacktestMetrics } from './metrics.js';
import { computeMetrics } from './metrics.js';
import { futuresMarginCsv, futuresPositionsCsv } from './futures-report.js';
import { equityCsv, fillsCsv, ordersCsv, runJson, summaryJson } from './report-files.js';

/** Where {@link writeReport} put things: the HTML page and every file written, in writing order. */
export interface WrittenReport {
  readonly html: string;
  readonly files: string[];
}

/**
 * Writes a run's report into `outDir` (created if missing): report.html, fills.csv, orders.csv,
 * equity.csv, summary.json and run.json (a futures run adds futures-margin.csv and futures-positions.csv). Every file but run.json depends only on the result, so
 * identical results give byte-identical files; run.json alone holds the wall-clock duration.
 * `metrics` defaults to `computeMetrics(result)`. A streamed result's CSV files are already
 * written (see {@link BacktestResult.streamed}): they stay as they are in their own folder, and
 * are copied into another.
 */
export async function writeReport(
  result: BacktestResult,
  outDir: string,
  metrics: BacktestMetrics = computeMetrics(result),
): Promise<WrittenReport> {
  await mkdir(outDir, { recursive: true });
  const rows: readonly (readonly [string, () => string])[] = [
    ['fills.csv', () => fillsCsv(result)],
    ['orders.csv', () => ordersCsv(result)],
    ['equity.csv', () => equityCsv(result)],
  ];
  const contents: readonly (readonly [string, (() => string) | undefined])[] = [
    ['report.html', () => renderHtmlReport(result, metrics)],
    ...rows.map(([name, text]) => [name, result.streamed === undefined ? text : undefined] as const),
    ...futuresFiles(result),
    ['summary.json', () => summaryJson(result, metrics)],
    ['run.json', () => runJson(result)],
  ];
  const files: string[] = [];
  for (const [name, text] of contents) {
    const path = join(outDir, name);
    if (text !== undefined) await writeFile(path, text(), 'utf8');
    else if (resolve(result.streamed!.dir, name) !== resolve(path)) await copyFile(join(result.streamed!.dir, name), path);
    files.push(path);
  }
  return { html: files[0]!, files };
}

/** A futures run's own files: margin and leverage over time, and its positions. */
function futuresFiles(result: BacktestResult): (readonly [string, () => string])[] {
  const futures = result.futures;
  if (futures === undefined) return [];
  return [['futures-margin.csv', () => futuresMarginCsv(futures)], ['futures-positions.csv', () => futuresPositionsCsv(futures)]];
}
