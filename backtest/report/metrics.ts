import type { Decimal } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import type { BacktestResult } from './backtest-result.js';
import { DEFAULT_PERIOD_MS, MAX_PERIODS, RunningMetrics } from './running-metrics.js';

export { DEFAULT_PERIOD_MS, MIN_RATIO_RETURNS } from './running-metrics.js';

/**
 * Figures of one backtest. Money is exact (Decimal, in `quoteCurrency` unless keyed by currency);
 * ratios are floats. A ratio that cannot be computed (no data, division by zero) is undefined.
 */
export interface BacktestMetrics {
  readonly quoteCurrency: string;
  /** `final - initial` for every currency in either balance set; keys sorted. */
  readonly pnlByCurrency: Readonly<Record<string, Decimal>>;
  /** First and last equity sample (zero without samples). */
  readonly initialEquity: Decimal;
  readonly finalEquity: Decimal;
  /** `finalEquity - initialEquity`. */
  readonly pnlQuote: Decimal;
  /** `pnlQuote / initialEquity`; undefined when the initial equity is not positive. */
  readonly returnFraction: number | undefined;
  /** Sum of fill fees per currency; keys sorted. */
  readonly feesByCurrency: Readonly<Record<string, Decimal>>;
  /** Fees valued in quote: quote-currency fees as they are, fees in the base of a `<base><quote>` symbol at the fill's price. */
  readonly feesQuote: Decimal;
  /** Fee currencies that are neither the quote nor the fill's base, left out of `feesQuote`. */
  readonly feesNotValued: readonly string[];
  readonly orders: number;
  readonly fills: number;
  /** Maker fills / all fills; undefined without fills. */
  readonly makerShareByCount: number | undefined;
  /** Maker notional / all notional (`price * quantity`); undefined without notional. */
  readonly makerShareByNotional: number | undefined;
  /** Sum of `price * quantity` over all fills. */
  readonly tradedNotional: Decimal;
  /**
   * Round trips of the positions, flat to flat (see `matchRoundTrips`: one buy and one sell of the
   * same quantity are one), winners (PnL > 0) and their PnL after fees, in each symbol's quote
   * (summed as if all symbols shared one quote, the usual case).
   */
  readonly roundTrips: number;
  readonly winningRoundTrips: number;
  /** `winningRoundTrips / roundTrips`; undefined without round trips. */
  readonly winRate: number | undefined;
  readonly roundTripPnl: Decimal;
  /** Resampling period of the equity returns, ms. */
  readonly periodMs: number;
  /** Number of period returns behind the ratios. */
  readonly returns: number;
  /**
   * Annualised by `sqrt(365 d / periodMs)`; see `sharpeRatio` / `sortinoRatio`. Undefined with
   * fewer than {@link MIN_RATIO_RETURNS} returns (a handful of returns annualised says nothing),
   * or when the ratio has no denominator; the reason is in `sharpeUnavailable` / `sortinoUnavailable`.
   */
  readonly sharpe: number | undefined;
  readonly sortino: number | undefined;
  /** Why `sharpe` is undefined; undefined when it is computed. */
  readonly sharpeUnavailable: string | undefined;
  /** Why `sortino` is undefined; undefined when it is computed. */
  readonly sortinoUnavailable: string | undefined;
  /** Deepest drawdown as a fraction of its peak, in [0, 1] while equity stays non-negative. */
  readonly maxDrawdown: number;
  /** Largest drop below a previous peak, in quote. */
  readonly maxDrawdownAmount: Decimal;
  /** Duration of the deepest drawdown: peak to recovery, or to the last sample. */
  readonly maxDrawdownDurationMs: number;
  /** Longest time under water of any drawdown. */
  readonly longestDrawdownMs: number;
  /** Time with any non-zero position / time spanned by the equity samples; 0 for a single instant. */
  readonly exposure: number;
  /** Time-weighted average equity over the samples. */
  readonly averageEquity: Decimal;
  /** `tradedNotional / averageEquity`; undefined when the average equity is not positive. */
  readonly turnover: number | undefined;
}

/** Options of {@link computeMetrics}. */
export interface MetricsOptions {
  /** Resampling period of the returns behind Sharpe and Sortino, ms (default one minute). */
  readonly periodMs?: number;
  /**
   * Fills may come out of time order (a paper or live run books a fill when its report arrives, and
   * a lookup after a reconnect may bring an older one): taken in arrival order instead of refused.
   */
  readonly fillsInArrivalOrder?: boolean;
}

/**
 * Computes every {@link BacktestMetrics} figure of a result; pure. A result whose rows were
 * written to files as the run went ({@link BacktestResult.streamed}) carries its figures, measured
 * on those rows with the default period: they are returned as they are, and another period is
 * refused (the rows are no longer in memory to measure again).
 */
export function computeMetrics(result: BacktestResult, options: MetricsOptions = {}): BacktestMetrics {
  const periodMs = options.periodMs ?? DEFAULT_PERIOD_MS;
  if (!Number.isInteger(periodMs) || periodMs <= 0) throw new ValidationError('periodMs', 'must be a positive integer', periodMs);
  if (result.streamed !== undefined) {
    const measured = result.streamed.metrics.periodMs;
    if (periodMs !== measured) throw new ValidationError('periodMs', `must be ${measured} ms, the period the run was measured with as its rows were written`, periodMs);
    return result.streamed.metrics;
  }
  const { equity, fills } = result;
  checkTimeOrder(equity, 'equity');
  checkTimeOrder(fills, 'fills');
  const span = equity.length > 0 ? equity[equity.length - 1]!.time - equity[0]!.time : 0;
  if (span / periodMs > MAX_PERIODS) {
    throw new ValidationError('periodMs', `must split the run into at most ${MAX_PERIODS} periods`, periodMs);
  }
  const running = new RunningMetrics(result.meta.quoteCurrency, { periodMs });
  for (const fill of fills) running.addFill(fill);
  for (const point of equity) running.addEquity(point);
  return running.finish({ orders: result.orders.length, initialBalances: result.initialBalances, finalBalances: result.finalBalances });
}

/** Every figure assumes samples and fills in time order; a runner bug should not pass silently. */
function checkTimeOrder(rows: readonly { readonly time: number }[], field: string): void {
  for (let i = 1; i < rows.length; i++) {
    if (rows[i]!.time < rows[i - 1]!.time) {
      throw new ValidationError(`${field}[${i}].time`, 'must not be before the previous one', rows[i]!.time);
    }
  }
}
