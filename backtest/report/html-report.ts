import type { BacktestResult, FillRecord } from './backtest-result.js';
import { chartLibrarySource } from './chart-library.js';
import { escapeHtml, jsonForScript, scriptText } from './html-escape.js';
import type { BacktestMetrics } from './metrics.js';
import { buildReportData } from './report-data.js';
import { plain } from './plain-json.js';
import { REPORT_PAGE_SCRIPT } from './report-page-script.js';
import { recordingNotesHtml } from './recording-notes.js';
import { formatDuration, formatTime, summaryRows } from './summary-rows.js';

/** Fills listed in the page; the rest are only in fills.csv, which keeps the page light. */
export const HTML_FILL_ROWS = 500;

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fafafa}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f0f0f0}
.chart{height:380px;background:#fff;border:1px solid #ddd}.chart.tall{height:460px}.chart.short{height:260px}
pre{background:#fff;border:1px solid #ddd;padding:8px;overflow:auto;max-height:300px}
.note{color:#666}footer{margin-top:32px;color:#888;font-size:12px}`;

function table(headers: readonly string[], rows: readonly (readonly string[])[], numeric: ReadonlySet<number> = new Set()): string {
  const head = `<tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = rows.map((row) =>
    `<tr>${row.map((cell, i) => `<td${numeric.has(i) ? ' class="n"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`);
  return `<table>${head}\n${body.join('\n')}</table>`;
}

function fillsSection(fills: readonly FillRecord[]): string {
  const shown = fills.slice(0, HTML_FILL_ROWS).map((f) => [
    formatTime(f.time), f.symbol, f.side, f.price.toFixed(), f.quantity.toFixed(), f.fee.toFixed(), f.feeCurrency,
    f.liquidity, f.clientOrderId, f.tradeId, f.intentId ?? '',
  ]);
  const note = fills.length > HTML_FILL_ROWS
    ? `<p class="note">First ${HTML_FILL_ROWS} of ${fills.length} fills; all of them are in fills.csv.</p>`
    : `<p class="note">${fills.length} fills.</p>`;
  return `${note}\n${table(
    ['time', 'symbol', 'side', 'price', 'quantity', 'fee', 'fee currency', 'liquidity', 'client order id', 'trade id', 'intent'],
    shown, new Set([3, 4, 5]),
  )}`;
}

function metaSection(result: BacktestResult, metrics: BacktestMetrics): string {
  const { meta } = result;
  const rows = [
    ['Strategy', meta.strategy],
    ['Symbols', meta.symbols.join(', ')],
    ['Recordings', meta.recordings.join(', ')],
    ['Seed', String(meta.seed)],
    ['Mode', meta.mode],
    ['Virtual time', `${formatTime(meta.startTime)} .. ${formatTime(meta.endTime)}`],
    ['Events replayed', String(meta.events)],
    ['Quote currency', meta.quoteCurrency],
    ['Sharpe/Sortino period', `${formatDuration(metrics.periodMs)} (${metrics.periodMs} ms), annualised by sqrt(365 d / period)`],
  ];
  const params = JSON.stringify(plain(meta.params), null, 2);
  return `${table(['field', 'value'], rows)}\n<h3>Parameters</h3>\n<pre>${escapeHtml(params)}</pre>`;
}

function resyncSection(result: BacktestResult): string {
  const resyncs = result.meta.bookResyncs;
  if (resyncs.length === 0) return '<p class="note">No order book resyncs.</p>';
  return table(['time', 'symbol', 'reason'], resyncs.map((r) => [formatTime(r.time), r.symbol, r.reason]));
}

/**
 * One self-contained HTML page for a run: the lightweight-charts build and the chart data are
 * inlined (data as JSON, decimals as strings), so the file opens offline and references no network
 * resource. Shows per-symbol price bars with buy/sell fill markers, equity with its drawdown, the
 * position per symbol, the metrics, the run's meta and parameters, book resyncs and the first
 * {@link HTML_FILL_ROWS} fills. All text from the result is escaped. The output depends only on its
 * arguments (no clock), so identical results give identical bytes.
 */
export function renderHtmlReport(result: BacktestResult, metrics: BacktestMetrics): string {
  const data = buildReportData(result);
  const title = `Backtest: ${result.meta.strategy} on ${result.meta.symbols.join(', ')}`;
  const priceCharts = data.symbols.map((symbol, i) => {
    const bars = data.prices[symbol]?.bars.length ?? 0;
    return `<h3>${escapeHtml(symbol)}</h3>\n${bars > 0 ? `<div class="chart" id="price-${i}"></div>` : '<p class="note">No price bars.</p>'}`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${recordingNotesHtml(result)}
<h2>Summary</h2>
${table(['figure', 'value'], summaryRows(result, metrics).map((r) => [r.label, r.value]))}
<h2>Prices and fills</h2>
${priceCharts.join('\n')}
<h2>Equity (${escapeHtml(result.meta.quoteCurrency)}) and drawdown</h2>
<div class="chart tall" id="equity"></div>
<h2>Positions</h2>
<div class="chart short" id="positions"></div>
<h2>Run</h2>
${metaSection(result, metrics)}
<h2>Order book resyncs</h2>
${resyncSection(result)}
<h2>Fills</h2>
${fillsSection(result.fills)}
<footer>Charts drawn with TradingView Lightweight Charts (Apache License 2.0), inlined.</footer>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${scriptText(chartLibrarySource())}</script>
<script>${REPORT_PAGE_SCRIPT}</script>
</body>
</html>
`;
}
