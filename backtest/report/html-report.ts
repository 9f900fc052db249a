import type { BacktestResult, FillRecord } from './backtest-result.js';
import { chartLibrarySource } from './chart-library.js';
import { futuresReportHtml, futuresReportScript } from './futures-report-html.js';
import { escapeHtml, jsonForScript, scriptText } from './html-escape.js';
import type { BacktestMetrics } from './metrics.js';
import { buildReportData } from './report-data.js';
import { HTML_FILL_ROWS } from './row-digest.js';
import { plain } from './plain-json.js';
import { REPORT_PAGE_SCRIPT } from './report-page-script.js';
import { recordingNotesHtml } from './recording-notes.js';
import { formatDuration, formatTime, summaryRows } from './summary-rows.js';

export { HTML_FILL_ROWS } from './row-digest.js';

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px;color:#222;background:#fafafa}
h1{font-size:21px;margin:4px 0 8px}h2{font-size:17px;margin:22px 0 8px}h3{font-size:15px;margin:12px 0 4px}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:12px 24px;align-items:start}.cols table{width:100%}.cols td:first-child{white-space:nowrap}
@media (max-width:900px){.cols{grid-template-columns:1fr}}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f0f0f0}
.chart-wrap{position:relative}.chart{height:420px;background:#fff;border:1px solid #ddd}.chart.tall{height:400px}.chart.short{height:240px}
.legend{display:flex;flex-wrap:wrap;gap:2px 18px;font-size:12px;padding:4px 2px;min-height:18px}.legend b{font-weight:600;font-variant-numeric:tabular-nums}
.swatch{display:inline-block;margin-right:5px;vertical-align:middle}.swatch.line{width:16px;height:3px;background:currentColor}
.swatch.bar{width:7px;height:12px;background:currentColor}.swatch.dashed{width:16px;border-top:2px dashed currentColor}.swatch.up,.swatch.down{font-size:11px;line-height:1}
.tooltip{position:absolute;display:none;z-index:5;pointer-events:none;background:rgba(255,255,255,.96);border:1px solid #999;
border-radius:3px;padding:4px 6px;font:12px/1.5 ui-monospace,monospace;white-space:pre;box-shadow:0 1px 4px rgba(0,0,0,.2)}
.tooltip .buy{color:#1565c0}.tooltip .sell{color:#e65100}.scroll{overflow-x:auto;max-width:100%}
pre{background:#fff;border:1px solid #ddd;padding:8px;overflow:auto;max-height:300px}
.note{color:#666}footer{margin-top:32px;color:#888;font-size:12px}`;

function table(headers: readonly string[], rows: readonly (readonly string[])[], numeric: ReadonlySet<number> = new Set()): string {
  const head = `<tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = rows.map((row) =>
    `<tr>${row.map((cell, i) => `<td${numeric.has(i) ? ' class="n"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`);
  return `<table>${head}\n${body.join('\n')}</table>`;
}

function fillsSection(first: readonly FillRecord[], count: number): string {
  const shown = first.slice(0, HTML_FILL_ROWS).map((f) => [
    formatTime(f.time), f.symbol, f.side, f.price.toFixed(), f.quantity.toFixed(), f.fee.toFixed(), f.feeCurrency,
    f.liquidity, f.clientOrderId, f.tradeId, f.intentId ?? '',
  ]);
  const note = count > HTML_FILL_ROWS
    ? `<p class="note">First ${HTML_FILL_ROWS} of ${count} fills; all of them are in fills.csv.</p>`
    : `<p class="note">${count} fills.</p>`;
  return `${note}\n<div class="scroll">${table(
    ['time', 'symbol', 'side', 'price', 'quantity', 'fee', 'fee currency', 'liquidity', 'client order id', 'trade id', 'intent'],
    shown, new Set([3, 4, 5]),
  )}</div>`;
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

/** The summary in two tables side by side, so the charts start on the first screen. */
function summaryColumns(rows: readonly (readonly string[])[]): string {
  const half = Math.ceil(rows.length / 2);
  return `<div class="cols">${table(['figure', 'value'], rows.slice(0, half))}\n${table(['figure', 'value'], rows.slice(half))}</div>`;
}

/** A chart's box: its legend (filled by the page script) above the drawing area. */
function chartBox(id: string, size: '' | 'tall' | 'short'): string {
  return `<div class="chart-wrap"><div class="legend" id="legend-${id}"></div><div class="chart${size === '' ? '' : ` ${size}`}" id="${id}"></div></div>`;
}

/**
 * One self-contained HTML page for a run: the lightweight-charts build and the chart data are
 * inlined (data as JSON, decimals as strings), so the file opens offline and references no network
 * resource. Shows per-symbol price bars with each fill at its price (buy and sell markers with a
 * tooltip), the best bid/ask and the strategy's own quotes in book runs, the strategy's declared
 * indicators, equity with its drawdown, the position per symbol, the metrics, the run's meta and parameters, book resyncs and the first
 * {@link HTML_FILL_ROWS} fills. All text from the result is escaped. The output depends only on its
 * arguments (no clock), so identical results give identical bytes.
 */
export function renderHtmlReport(result: BacktestResult, metrics: BacktestMetrics): string {
  const data = buildReportData(result);
  const title = `Backtest: ${result.meta.strategy} on ${result.meta.symbols.join(', ')}`;
  const priceCharts = data.symbols.map((symbol, i) => {
    const bars = data.prices[symbol]?.bars.length ?? 0;
    return `<h3>${escapeHtml(symbol)}</h3>\n${bars > 0 ? chartBox(`price-${i}`, '') : '<p class="note">No price bars.</p>'}`;
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
${summaryColumns(summaryRows(result, metrics).map((r) => [r.label, r.value]))}
<section id="charts">
<h2>Prices and fills</h2>
${priceCharts.join('\n')}
<h2>Equity (${escapeHtml(result.meta.quoteCurrency)}) and drawdown</h2>
${chartBox('equity', 'tall')}
<h2>Positions</h2>
${chartBox('positions', 'short')}
</section>
${futuresReportHtml(result)}<h2>Run</h2>
${metaSection(result, metrics)}
<h2>Order book resyncs</h2>
${resyncSection(result)}
<h2>Fills</h2>
${result.streamed === undefined ? fillsSection(result.fills, result.fills.length) : fillsSection(result.streamed.digest.firstFills, result.streamed.digest.fillCount)}
<footer>Charts drawn with TradingView Lightweight Charts (Apache License 2.0), inlined.</footer>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${scriptText(chartLibrarySource())}</script>
<script>${REPORT_PAGE_SCRIPT}</script>
${futuresReportScript(result)}</body>
</html>
`;
}
