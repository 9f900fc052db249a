import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBacktest } from '../backtest/replay/backtest-runner.js';
import { writeReport } from '../backtest/report/write-report.js';
import type { BacktestResult } from '../backtest/report/backtest-result.js';
import { loadStrategy } from '../framework/runtime/plugin-loader.js';
import { backtestMarketMaker } from './replay-backtest.js';
import { CANDLE_SYMBOL, writeCandleRecording } from './support/candle-recording.js';
import { repoRoot } from './support/paths.js';
import { checkReportInBrowser, chromiumAvailable, CHROMIUM, type BrowserCheck } from './support/report-browser.js';
import { printTable } from './support/report.js';

const SAMPLE = path.join(repoRoot, 'backtest', 'samples', 'synthetic-btc-eth.v3.jsonl.gz');
/** Where the screenshots and reports stay for a look (reports/ is not versioned). */
const OUT = path.join(repoRoot, 'reports', 'report-screenshot');
/** A day of M1 candles, from a minute boundary. */
const CANDLE_START = Date.UTC(2026, 0, 5);
const CANDLE_MINUTES = 1_440;

async function maCrossoverOnCandles(recording: string): Promise<BacktestResult> {
  const params = { average: 'sma', fastPeriod: 10, slowPeriod: 30, orderQuantity: '0.01' };
  const { plugin, params: parsed } = await loadStrategy('ma-crossover', params, { baseDir: repoRoot });
  return runBacktest({
    strategyRef: 'ma-crossover', plugin, params: parsed, symbols: [CANDLE_SYMBOL], recordings: [recording],
    balances: { USDT: '10000' }, seed: 1, botId: 'mac1', candles: 'M1',
    risk: { priceBand: '0.05', defaultLimits: { maxOrderNotional: '1000', maxPosition: '0.02' } },
  });
}

function problems(check: BrowserCheck, fills: number): string[] {
  const out = [...check.consoleErrors.map((e) => `console error: ${e}`), ...check.networkRequests.map((u) => `network request: ${u}`)];
  if (check.charts.length === 0) out.push('no chart on the page');
  for (const chart of check.charts) {
    if (chart.canvases === 0) out.push(`chart ${chart.id}: no canvas`);
    else if (chart.colours < 3) out.push(`chart ${chart.id}: blank (${chart.colours} colours)`);
  }
  if (check.legends < check.charts.length) out.push(`${check.legends} legends for ${check.charts.length} charts`);
  for (const el of check.overflowing) out.push(`wider than the 1280 px viewport: ${el}`);
  if (fills > 0 && check.fillTooltip === undefined) out.push('no fill tooltip when hovering the price chart');
  if (check.fillTooltip !== undefined && !/^(BUY|SELL) \S+ @ \S+ {2}fee /.test(check.fillTooltip)) out.push(`fill tooltip reads "${check.fillTooltip}"`);
  return out;
}

/**
 * The HTML report in a real browser: backtests the market-maker example on the shipped sample
 * (a book run) and ma-crossover on a generated day of M1 candles (a candles run), writes both
 * reports, opens each in headless Chromium at 1280x800 and fails on console errors, network
 * requests, charts without a drawn canvas, charts without a legend, or elements wider than the
 * viewport. Screenshots and reports stay in reports/report-screenshot/ to be looked at.
 */
export async function run(): Promise<void> {
  if (!chromiumAvailable()) {
    console.log(`skipped: ${CHROMIUM} is absent`);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-report-bench-'));
  try {
    const recording = path.join(dir, 'btcusdt-m1.v3.jsonl');
    writeCandleRecording(recording, CANDLE_START, CANDLE_MINUTES);
    const runs: [string, () => Promise<BacktestResult>][] = [
      ['market-maker', () => backtestMarketMaker(SAMPLE)],
      ['ma-crossover', () => maCrossoverOnCandles(recording)],
    ];
    const rows: Record<string, string | number>[] = [];
    const failures: string[] = [];
    for (const [name, backtest] of runs) {
      const result = await backtest();
      const written = await writeReport(result, path.join(OUT, name));
      const png = path.join(OUT, `${name}.png`);
      const started = performance.now();
      const check = await checkReportInBrowser(written.html, png);
      const found = problems(check, result.fills.length);
      failures.push(...found.map((p) => `${name}: ${p}`));
      rows.push({
        report: name, fills: result.fills.length, 'html KiB': Math.round(statSync(written.html).size / 1024), charts: check.charts.length,
        legends: check.legends, 'console errors': check.consoleErrors.length, 'browser s': ((performance.now() - started) / 1000).toFixed(1),
        tooltip: check.fillTooltip === undefined ? '-' : 'yes', screenshot: path.relative(repoRoot, png),
      });
    }
    printTable('report in headless Chromium (1280x800)', rows);
    if (failures.length > 0) throw new Error(`the report does not render cleanly:\n${failures.join('\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
