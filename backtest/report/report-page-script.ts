/**
 * The report page's own script: reads the embedded `ReportData` JSON and draws the charts with the
 * inlined `LightweightCharts` global (v5 API). Plain ES5-style JS so any browser opens the file.
 * Decimal strings become numbers only here, for drawing; tables and tooltips show the exact text.
 *
 * Each chart gets a legend above it (a swatch per series, the value under the crosshair) and its
 * time axis shows seconds when the bars are shorter than a minute; fills are markers on their bar at
 * their own price (buy: blue up, sell: orange down) with a tooltip listing the bar's fills.
 */
export const REPORT_PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var LW = window.LightweightCharts;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var UP = '#26a69a', DOWN = '#ef5350', BUY = '#1565c0', SELL = '#e65100', BID = 'rgba(46,125,50,0.75)', ASK = 'rgba(198,40,40,0.75)';
  var PALETTE = ['#f9a825', '#6a1b9a', '#00838f', '#ad1457', '#4e342e', '#1565c0', '#e65100', '#2e7d32'];
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function timeText(t, seconds) {
    var d = new Date(t * 1000);
    var text = d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' + pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes());
    return seconds ? text + ':' + pad(d.getUTCSeconds()) : text;
  }
  function msText(ms) { return new Date(ms).toISOString().replace('T', ' ').replace('Z', ''); }
  function decimals(text) { var dot = String(text).indexOf('.'); return dot < 0 ? 0 : String(text).length - dot - 1; }
  function maxDecimals(points, cap) {
    var d = 0;
    points.forEach(function (p) { d = Math.max(d, decimals(p[1])); });
    return Math.min(d, cap);
  }
  function priceFormat(precision) { return { type: 'price', precision: precision, minMove: Math.pow(10, -precision) }; }
  function chart(id, barSeconds) {
    var el = document.getElementById(id);
    if (!el) return undefined;
    var seconds = barSeconds < 60;
    return LW.createChart(el, {
      autoSize: true,
      layout: { attributionLogo: false, background: { color: '#ffffff' }, textColor: '#333', fontSize: 12 },
      grid: { vertLines: { color: '#f0f0f0' }, horzLines: { color: '#f0f0f0' } },
      rightPriceScale: { minimumWidth: 96, borderColor: '#ccc', scaleMargins: { top: 0.08, bottom: 0.08 } },
      timeScale: { timeVisible: barSeconds < 86400, secondsVisible: seconds, borderColor: '#ccc', rightOffset: 2, minBarSpacing: 0.2 },
      localization: { timeFormatter: function (t) { return timeText(t, seconds) + ' UTC'; } },
      crosshair: { mode: 0 },
    });
  }
  // Room on both sides, so the first and last time labels are not cut by the chart's edges.
  function fit(c, count) {
    c.timeScale().setVisibleLogicalRange({ from: -Math.max(3, count * 0.035), to: count - 1 + Math.max(3, count * 0.03) });
  }
  function line(points) {
    return points.map(function (p) { return { time: p[0], value: Number(p[1]) }; });
  }
  // A legend above a chart: one entry per series, its value under the crosshair (or its last one).
  function legend(id, c, entries, note) {
    var el = document.getElementById('legend-' + id);
    if (!el) return;
    var cells = entries.map(function (e) {
      var item = document.createElement('span');
      item.className = 'item';
      var swatch = document.createElement('span');
      swatch.className = 'swatch ' + (e.shape || 'line');
      swatch.style.color = e.color;
      swatch.textContent = e.shape === 'up' ? '\u25B2' : e.shape === 'down' ? '\u25BC' : '';
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(e.label));
      var value = document.createElement('b');
      item.appendChild(value);
      el.appendChild(item);
      return { entry: e, value: value };
    });
    if (note) {
      var n = document.createElement('span');
      n.className = 'item note';
      n.textContent = note;
      el.appendChild(n);
    }
    function show(param) {
      cells.forEach(function (cell) {
        var e = cell.entry;
        if (!e.series) return;
        var d = param && param.seriesData ? param.seriesData.get(e.series) : undefined;
        if (!d) { var all = e.series.data(); d = all.length ? all[all.length - 1] : undefined; }
        cell.value.textContent = d === undefined ? '' : ' ' + (e.format ? e.format(d) : d.value !== undefined ? e.series.priceFormatter().format(d.value) : '');
      });
    }
    show();
    c.subscribeCrosshairMove(function (param) { show(param.time === undefined ? undefined : param); });
  }
  function fillTooltip(id, c, fills) {
    var box = document.getElementById(id);
    if (!box || fills.length === 0) return;
    var tip = document.createElement('div');
    tip.className = 'tooltip';
    box.parentNode.appendChild(tip);
    var byTime = {};
    fills.forEach(function (f) { (byTime[f.time] = byTime[f.time] || []).push(f); });
    c.subscribeCrosshairMove(function (param) {
      var list = param.time === undefined || !param.point ? undefined : byTime[param.time];
      if (!list) { tip.style.display = 'none'; return; }
      tip.textContent = '';
      list.slice(0, 8).forEach(function (f) {
        var row = document.createElement('div');
        row.className = f.side;
        row.textContent = f.side.toUpperCase() + ' ' + f.quantity + ' @ ' + f.price + '  fee ' + f.fee + ' ' + f.feeCurrency + ' (' + f.liquidity + ')  ' + msText(f.at);
        tip.appendChild(row);
      });
      if (list.length > 8) { var more = document.createElement('div'); more.textContent = '... and ' + (list.length - 8) + ' more (fills table)'; tip.appendChild(more); }
      tip.style.display = 'block';
      var x = param.point.x + 16, y = param.point.y + 40;
      if (x + tip.offsetWidth > box.clientWidth) x = Math.max(0, param.point.x - tip.offsetWidth - 16);
      tip.style.left = x + 'px';
      tip.style.top = y + 'px';
    });
  }
  data.symbols.forEach(function (symbol, i) {
    var p = data.prices[symbol];
    if (!p || p.bars.length === 0) return;
    var id = 'price-' + i;
    var c = chart(id, p.barSeconds);
    if (!c) return;
    var fmt = priceFormat(Math.min(p.priceDecimals, 8));
    var entries = [];
    var bars = c.addSeries(LW.CandlestickSeries, {
      upColor: UP, downColor: DOWN, wickUpColor: UP, wickDownColor: DOWN, borderVisible: false, priceFormat: fmt, lastValueVisible: false, priceLineVisible: false,
    });
    bars.setData(p.bars.map(function (b) {
      return { time: b[0], open: Number(b[1]), high: Number(b[2]), low: Number(b[3]), close: Number(b[4]) };
    }));
    entries.push({ label: symbol + ' ' + (p.barSeconds < 60 ? p.barSeconds + 's' : p.barSeconds < 3600 ? p.barSeconds / 60 + 'min' : p.barSeconds / 3600 + 'h') + ' bars', color: UP, shape: 'bar', series: bars,
      format: function (d) { return d.close === undefined ? '' : bars.priceFormatter().format(d.close); } });
    [['bid', 'best bid', BID], ['ask', 'best ask', ASK]].forEach(function (side) {
      if (p[side[0]].length === 0) return;
      var s = c.addSeries(LW.LineSeries, { color: side[2], lineWidth: 1, lineType: 1, priceFormat: fmt, lastValueVisible: false, priceLineVisible: false, crosshairMarkerVisible: false });
      s.setData(line(p[side[0]]));
      entries.push({ label: side[1], color: side[2], series: s });
    });
    [['ownBid', 'own buy quote', BUY], ['ownAsk', 'own sell quote', SELL]].forEach(function (side) {
      if (p[side[0]].length === 0) return;
      var s = c.addSeries(LW.LineSeries, { color: side[2], lineWidth: 1, lineStyle: 2, lineType: 1, priceFormat: fmt, lastValueVisible: false, priceLineVisible: false, crosshairMarkerVisible: false });
      // null: no quote on that side then, drawn as a gap.
      s.setData(p[side[0]].map(function (q) { return q[1] === null ? { time: q[0] } : { time: q[0], value: Number(q[1]) }; }));
      entries.push({ label: side[1], color: side[2], shape: 'dashed', series: s });
    });
    var separate = 0;
    p.indicators.forEach(function (ind, k) {
      var color = ind.color || PALETTE[k % PALETTE.length];
      var pane = ind.pane === 'price' ? 0 : 1;
      if (pane === 1) separate++;
      var s = c.addSeries(LW.LineSeries, {
        color: color, lineWidth: 2, lastValueVisible: false, priceLineVisible: false, crosshairMarkerVisible: false,
        priceFormat: pane === 0 ? fmt : { type: 'price', precision: 4, minMove: 0.0001 },
      }, pane);
      s.setData(ind.points.map(function (q) { return { time: q[0], value: q[1] }; }));
      entries.push({ label: ind.label, color: color, series: s });
    });
    if (separate > 0) { var panes = c.panes(); if (panes[1]) { panes[0].setStretchFactor(0.72); panes[1].setStretchFactor(0.28); } }
    LW.createSeriesMarkers(bars, p.fills.map(function (f) {
      var buy = f.side === 'buy';
      return { time: f.time, position: 'atPriceMiddle', price: Number(f.price), color: buy ? BUY : SELL, shape: buy ? 'arrowUp' : 'arrowDown', size: 0.8 };
    }));
    if (p.fillCount > 0) {
      entries.push({ label: 'buy fill', color: BUY, shape: 'up' });
      entries.push({ label: 'sell fill', color: SELL, shape: 'down' });
    }
    var note = p.fillCount > p.fills.length ? 'first ' + p.fills.length + ' of ' + p.fillCount + ' fills drawn' : p.fillCount > 0 ? 'fills at their price; hover for details' : 'no fills';
    legend(id, c, entries, note + '; UTC');
    fillTooltip(id, c, p.fills);
    fit(c, p.bars.length);
  });
  var spanSeconds = data.spanSeconds < 7200 ? 1 : data.spanSeconds < 172800 ? 60 : 3600;
  var eq = chart('equity', spanSeconds);
  if (eq && data.equity.length > 0) {
    var equity = eq.addSeries(LW.LineSeries, { color: BUY, lineWidth: 2, priceFormat: priceFormat(2) });
    equity.setData(line(data.equity));
    // Baseline at 0: the drawdown area is filled between zero and the (negative) curve.
    // Enough decimals that the deepest drawdown shows two significant digits.
    var deepest = data.drawdown.reduce(function (m, q) { return Math.min(m, Number(q[1]) * 100); }, 0);
    var ddDecimals = deepest === 0 ? 2 : Math.min(6, Math.max(2, 1 - Math.floor(Math.log10(-deepest))));
    var dd = eq.addSeries(LW.BaselineSeries, {
      baseValue: { type: 'price', price: 0 }, bottomLineColor: DOWN, bottomFillColor1: 'rgba(239,83,80,0.15)',
      bottomFillColor2: 'rgba(239,83,80,0.5)', topLineColor: DOWN, lineWidth: 1,
      priceFormat: { type: 'custom', minMove: Math.pow(10, -ddDecimals), formatter: function (v) { return v.toFixed(ddDecimals) + ' %'; } },
    }, 1);
    dd.setData(data.drawdown.map(function (q) { return { time: q[0], value: Number(q[1]) * 100 }; }));
    var panes = eq.panes();
    if (panes[1]) { panes[0].setStretchFactor(0.7); panes[1].setStretchFactor(0.3); }
    legend('equity', eq, [
      { label: 'equity (' + data.quoteCurrency + ')', color: BUY, series: equity },
      { label: 'drawdown from peak (lower pane)', color: DOWN, series: dd },
    ], 'UTC');
    fit(eq, data.equity.length);
  }
  var pos = chart('positions', spanSeconds);
  if (pos) {
    var entries = [];
    data.symbols.forEach(function (symbol, i) {
      var points = data.positions[symbol] || [];
      if (points.length === 0) return;
      var color = PALETTE[(i + 5) % PALETTE.length];
      var s = pos.addSeries(LW.LineSeries, { color: color, lineWidth: 2, lineType: 1, priceFormat: priceFormat(maxDecimals(points, 8)) });
      s.setData(line(points));
      entries.push({ label: symbol + ' position (base quantity)', color: color, series: s });
    });
    legend('positions', pos, entries, 'UTC');
    fit(pos, data.equity.length);
  }
})();
`;
