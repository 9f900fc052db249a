/**
 * `tradeloop/backtest`: replays recordings through the same strategy, risk and execution code a
 * live bot runs, against the simulated venue on a virtual clock, and reports on the run.
 *
 * ```ts
 * const { plugin, params } = await loadStrategy('./my.strategy.ts', { spread_bps: '10' });
 * const result = await runBacktest({ strategyRef: 'my', plugin, params, symbols: ['BTCUSDT'], recordings: ['btc.jsonl.gz'], balances: { USDT: '10000' } });
 * console.log(formatSummary(result, computeMetrics(result)));
 * ```
 *
 * @packageDocumentation
 */

export { runBacktest, type BacktestOptions } from './replay/backtest-runner.js';
export type {
  BacktestMeta,
  BacktestResult,
  BookTopPoint,
  EquityPoint,
  FillRecord,
  IndicatorSeries,
  OrderRecord,
  PriceBar,
  StreamedRows,
} from './report/backtest-result.js';
export type { RowDigest } from './report/row-digest.js';
export { computeMetrics, type BacktestMetrics, type MetricsOptions } from './report/metrics.js';
export { formatSummary } from './report/console-summary.js';
export { writeReport, type WrittenReport } from './report/write-report.js';
export { RecordingReader, type RecordingReaderOptions } from './recording/recording-reader.js';
export { SAMPLE_RECORDING } from './recording/sample-recording.js';
export { RecordingError, type RecordingPosition, type RecordingProblem } from './recording/recording-error.js';
export { SimulatedVenuePort } from './venue/simulated-venue-port.js';
