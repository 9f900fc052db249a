/**
 * The report page's own script: reads the embedded `ReportData` JSON and draws the charts with the
 * inlined `LightweightCharts` global (v5 API). Plain ES5-style JS so any browser opens the file.
 * Decimal strings become numbers only here, for drawing; tables show the exact text.
 */
export const REPORT_PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var LW = window.LightweightCharts;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var UP = '#26a69a', DOWN = '#ef5350';
  function chart(id) {
    var el = document.getElementById(id);
    if (!el) return undefined;
    return LW.createChart(el, {
      autoSize: true,
      layout: { attributionLogo: false, background: { color: '#ffffff' }, textColor: '#333' },
      timeScale: { timeVisible: true, secondsVisible: true },
    });
  }
  function line(points) {
    return points.map(function (p) { return { time: p[0], value: Number(p[1]) }; });
  }
  data.symbols.forEach(function (symbol, i) {
    var p = data.prices[symbol];
    if (!p || p.bars.length === 0) return;
    var c = chart('price-' + i);
    if (!c) return;
    var series = c.addSeries(LW.CandlestickSeries, { upColor: UP, downColor: DOWN, wickUpColor: UP, wickDownColor: DOWN, borderVisible: false });
    series.setData(p.bars.map(function (b) {
      return { time: b[0], open: Number(b[1]), high: Number(b[2]), low: Number(b[3]), close: Number(b[4]) };
    }));
    LW.createSeriesMarkers(series, p.markers.map(function (m) {
      var buy = m.side === 'buy';
      return {
        time: m.time, position: buy ? 'belowBar' : 'aboveBar', color: buy ? '#1565c0' : '#e65100',
        shape: buy ? 'arrowUp' : 'arrowDown', text: p.markers.length <= 24 ? (buy ? 'B ' : 'S ') + m.quantity + ' @ ' + m.price : '',
      };
    }));
    c.timeScale().fitContent();
  });
  var eq = chart('equity');
  if (eq && data.equity.length > 0) {
    eq.addSeries(LW.LineSeries, { color: '#1565c0', lineWidth: 2, title: 'equity ' + data.quoteCurrency }).setData(line(data.equity));
    // Baseline at 0: the drawdown area is filled between zero and the (negative) curve.
    eq.addSeries(LW.BaselineSeries, {
      baseValue: { type: 'price', price: 0 }, bottomLineColor: DOWN, bottomFillColor1: 'rgba(239,83,80,0.15)',
      bottomFillColor2: 'rgba(239,83,80,0.5)', topLineColor: DOWN, lineWidth: 1, title: 'drawdown %',
    }, 1).setData(data.drawdown.map(function (p) { return { time: p[0], value: Number(p[1]) * 100 }; }));
    var panes = eq.panes();
    if (panes[1]) { panes[0].setStretchFactor(0.7); panes[1].setStretchFactor(0.3); }
    eq.timeScale().fitContent();
  }
  var pos = chart('positions');
  var colors = ['#1565c0', '#e65100', '#2e7d32', '#6a1b9a', '#00838f', '#ad1457', '#4e342e'];
  if (pos) {
    data.symbols.forEach(function (symbol, i) {
      var points = data.positions[symbol] || [];
      if (points.length === 0) return;
      pos.addSeries(LW.LineSeries, { color: colors[i % colors.length], lineWidth: 2, lineType: 1, title: symbol })
        .setData(line(points));
    });
    pos.timeScale().fitContent();
  }
})();
`;
