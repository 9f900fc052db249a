import type { BacktestResult } from './backtest-result.js';
import { leverageOf, marginUseOf, positionTotals, type FuturesReport } from './futures-report.js';
import { escapeHtml, jsonForScript } from './html-escape.js';
import { formatMoney, formatTime } from './summary-rows.js';

/** Positions listed on the page; all of them are in futures-positions.csv. */
export const HTML_POSITION_ROWS = 200;

/** Leverage and margin use go to the chart with this many decimals (drawing only; the CSV keeps 12). */
const CHART_PLACES = 6;

function table(headers: readonly string[], rows: readonly (readonly string[])[], numeric: ReadonlySet<number>): string {
  const head = `<tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((cell, i) => `<td${numeric.has(i) ? ' class="n"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`);
  return `<div class="scroll"><table>${head}\n${body.join('\n')}</table></div>`;
}

function positionsTable(report: FuturesReport): string {
  const rows = report.positions;
  if (rows.length === 0) return '<p class="note">No futures positions.</p>';
  const c = report.currency;
  const shown = rows.slice(0, HTML_POSITION_ROWS).map((p) => [
    p.symbol, p.positionId, p.side, p.state, formatTime(p.openedAt), p.closedAt === undefined ? 'open' : formatTime(p.closedAt),
    p.maxQuantity.toFixed(), formatMoney(p.entryPrice), p.exitPrice === undefined ? '' : formatMoney(p.exitPrice),
    formatMoney(p.realized, c), formatMoney(p.fees, c), formatMoney(p.funding, c), formatMoney(p.net, c),
  ]);
  const t = positionTotals(rows);
  shown.push(['total', '', '', '', '', '', '', '', '', formatMoney(t.realized, c), formatMoney(t.fees, c), formatMoney(t.funding, c), formatMoney(t.net, c)]);
  const note = rows.length > HTML_POSITION_ROWS
    ? `<p class="note">First ${HTML_POSITION_ROWS} of ${rows.length} positions (the total is over all of them); all are in futures-positions.csv.</p>`
    : `<p class="note">${rows.length} positions, each from its first execution to flat; net = realized - fees + funding (${escapeHtml(c)}).</p>`;
  return `${note}\n${table(
    ['symbol', 'position', 'side', 'state', 'opened', 'closed', 'max size', 'entry', 'exit', 'realized', 'fees', 'funding', 'net'],
    shown, new Set([6, 7, 8, 9, 10, 11, 12]),
  )}`;
}

function liquidationsTable(result: BacktestResult): string {
  const list = result.meta.futures?.liquidations ?? [];
  if (list.length === 0) return '<p class="note">No liquidations.</p>';
  return table(['time', 'symbol', 'quantity', 'mark price', 'realized'], list.map((l) => [
    formatTime(l.time), l.symbol, l.quantity.toFixed(), formatMoney(l.price), formatMoney(l.realized, result.meta.quoteCurrency),
  ]), new Set([2, 3, 4]));
}

/**
 * The futures part of a run's page (nothing for a spot run): a chart of the effective leverage
 * (open notional at the marks / margin balance) and the margin use (margin held for positions and
 * orders / margin balance) over time, each position from open to flat with its realized PnL, fees
 * and funding, and the liquidations. The chart's data is its own JSON element, drawn by
 * {@link futuresReportScript} after the chart library has loaded. Ends with a line break (the empty
 * string for a spot run, whose page stays as it was).
 */
export function futuresReportHtml(result: BacktestResult): string {
  const report = result.futures;
  if (report === undefined) return '';
  const points = report.margin.map((s) => [
    Math.floor(s.time / 1000), leverageOf(s)?.toFixed(CHART_PLACES) ?? null, marginUseOf(s)?.times(100).toFixed(CHART_PLACES - 2) ?? null,
  ]);
  return `<h2>Futures: leverage and margin use</h2>
<div class="chart-wrap"><div class="legend" id="legend-futures-margin"></div><div class="chart short" id="futures-margin"></div></div>
<p class="note">Sampled with the equity; every sample is in futures-margin.csv.</p>
<h2>Futures positions</h2>
${positionsTable(report)}
<h2>Liquidations</h2>
${liquidationsTable(result)}
<script type="application/json" id="futures-data">${jsonForScript({ points })}</script>
`;
}

/** Draws the leverage and margin-use chart of {@link futuresReportHtml} (nothing without it). Plain ES5. */
export function futuresReportScript(result: BacktestResult): string {
  if (result.futures === undefined) return '';
  return `<script>${FUTURES_PAGE_SCRIPT}</script>
`;
}

const FUTURES_PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var LW = window.LightweightCharts, el = document.getElementById('futures-margin'), src = document.getElementById('futures-data');
  if (!LW || !el || !src) return;
  var points = JSON.parse(src.textContent).points;
  if (points.length === 0) { el.textContent = 'No samples.'; return; }
  var c = LW.createChart(el, {
    autoSize: true, layout: { attributionLogo: false, background: { color: '#ffffff' }, textColor: '#333', fontSize: 12 },
    grid: { vertLines: { color: '#f0f0f0' }, horzLines: { color: '#f0f0f0' } },
    leftPriceScale: { visible: true, borderColor: '#ccc' }, rightPriceScale: { minimumWidth: 96, borderColor: '#ccc' },
    timeScale: { timeVisible: true, secondsVisible: false, borderColor: '#ccc' }, crosshair: { mode: 0 },
  });
  function pick(i) {
    return points.filter(function (p) { return p[i] !== null; }).map(function (p) { return { time: p[0], value: Number(p[i]) }; });
  }
  var leverage = c.addSeries(LW.LineSeries, { color: '#6a1b9a', lineWidth: 2, lineType: 1, priceScaleId: 'right', priceFormat: { type: 'price', precision: 2, minMove: 0.01 } });
  leverage.setData(pick(1));
  var use = c.addSeries(LW.LineSeries, { color: '#00838f', lineWidth: 1, lineType: 1, priceScaleId: 'left', priceFormat: { type: 'price', precision: 1, minMove: 0.1 } });
  use.setData(pick(2));
  var legend = document.getElementById('legend-futures-margin');
  [['leverage (x, right scale)', '#6a1b9a'], ['margin use (% of margin balance, left scale)', '#00838f']].forEach(function (e) {
    var item = document.createElement('span');
    var swatch = document.createElement('span');
    swatch.className = 'swatch line';
    swatch.style.color = e[1];
    item.appendChild(swatch);
    item.appendChild(document.createTextNode(e[0]));
    legend.appendChild(item);
  });
  c.timeScale().fitContent();
})();`;
