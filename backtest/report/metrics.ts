import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import type { BacktestResult, EquityPoint, FillRecord } from './backtest-result.js';
import {
  maxDrawdown, periodReturns, resampleEquity, sharpeRatio, sortinoRatio, YEAR_MS,
} from './equity-stats.js';
import { matchRoundTrips } from './round-trips.js';

/** Default resampling period of the equity returns behind Sharpe and Sortino: one minute. */
export const DEFAULT_PERIOD_MS = 60_000;

/** Fewest period returns behind a Sharpe or Sortino ratio. */
export const MIN_RATIO_RETURNS = 30;

/** Upper bound on resampled periods, so a tiny period on a long run fails fast instead of hanging. */
const MAX_PERIODS = 10_000_000;

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
}

/** Computes every {@link BacktestMetrics} figure of a result; pure. */
export function computeMetrics(result: BacktestResult, options: MetricsOptions = {}): BacktestMetrics {
  const periodMs = options.periodMs ?? DEFAULT_PERIOD_MS;
  if (!Number.isInteger(periodMs) || periodMs <= 0) throw new ValidationError('periodMs', 'must be a positive integer', periodMs);
  const quote = result.meta.quoteCurrency;
  const { equity, fills } = result;
  checkTimeOrder(equity, 'equity');
  checkTimeOrder(fills, 'fills');
  const span = equity.length > 0 ? equity[equity.length - 1]!.time - equity[0]!.time : 0;
  if (span / periodMs > MAX_PERIODS) {
    throw new ValidationError('periodMs', `must split the run into at most ${MAX_PERIODS} periods`, periodMs);
  }

  const initialEquity = equity[0]?.equity ?? ZERO;
  const finalEquity = equity[equity.length - 1]?.equity ?? ZERO;
  const pnlQuote = finalEquity.minus(initialEquity);

  const feesByCurrency = new Map<string, Decimal>();
  const notValued = new Set<string>();
  let feesQuote = ZERO;
  let tradedNotional = ZERO;
  let makerNotional = ZERO;
  let makerCount = 0;
  for (const fill of fills) {
    feesByCurrency.set(fill.feeCurrency, (feesByCurrency.get(fill.feeCurrency) ?? ZERO).plus(fill.fee));
    const valued = feeInQuote(fill, quote);
    if (valued === undefined) notValued.add(fill.feeCurrency);
    else feesQuote = feesQuote.plus(valued);
    const notional = fill.price.times(fill.quantity);
    tradedNotional = tradedNotional.plus(notional);
    if (fill.liquidity === 'maker') {
      makerCount++;
      makerNotional = makerNotional.plus(notional);
    }
  }

  const trips = matchRoundTrips(fills, feeInSymbolQuote);
  const winning = trips.filter((t) => t.pnl.greaterThan(ZERO)).length;
  const returns = periodReturns(resampleEquity(equity, periodMs));
  const periodsPerYear = YEAR_MS / periodMs;
  const drawdown = maxDrawdown(equity);
  const averageEquity = timeWeightedAverage(equity);

  return {
    quoteCurrency: quote,
    pnlByCurrency: balanceChange(result.initialBalances, result.finalBalances),
    initialEquity,
    finalEquity,
    pnlQuote,
    returnFraction: initialEquity.greaterThan(ZERO) ? pnlQuote.dividedBy(initialEquity).toNumber() : undefined,
    feesByCurrency: sortedRecord(feesByCurrency),
    feesQuote,
    feesNotValued: [...notValued].sort(),
    orders: result.orders.length,
    fills: fills.length,
    makerShareByCount: fills.length > 0 ? makerCount / fills.length : undefined,
    makerShareByNotional: tradedNotional.greaterThan(ZERO) ? makerNotional.dividedBy(tradedNotional).toNumber() : undefined,
    tradedNotional,
    roundTrips: trips.length,
    winningRoundTrips: winning,
    winRate: trips.length > 0 ? winning / trips.length : undefined,
    roundTripPnl: trips.reduce((s, t) => s.plus(t.pnl), ZERO),
    periodMs,
    returns: returns.length,
    ...ratios(returns, periodsPerYear),
    maxDrawdown: drawdown.fraction,
    maxDrawdownAmount: drawdown.amount,
    maxDrawdownDurationMs: drawdown.durationMs,
    longestDrawdownMs: drawdown.longestMs,
    exposure: exposure(equity),
    averageEquity,
    turnover: averageEquity.greaterThan(ZERO) ? tradedNotional.dividedBy(averageEquity).toNumber() : undefined,
  };
}

/** Sharpe and Sortino, each with the reason it is missing when it cannot be computed. */
function ratios(returns: readonly number[], periodsPerYear: number): Pick<BacktestMetrics, 'sharpe' | 'sortino' | 'sharpeUnavailable' | 'sortinoUnavailable'> {
  if (returns.length < MIN_RATIO_RETURNS) {
    const reason = `${returns.length} returns, fewer than the ${MIN_RATIO_RETURNS} needed`;
    return { sharpe: undefined, sortino: undefined, sharpeUnavailable: reason, sortinoUnavailable: reason };
  }
  const sharpe = sharpeRatio(returns, periodsPerYear);
  const sortino = sortinoRatio(returns, periodsPerYear);
  return {
    sharpe, sortino,
    sharpeUnavailable: sharpe === undefined ? 'the returns do not vary' : undefined,
    sortinoUnavailable: sortino === undefined ? 'no return is negative' : undefined,
  };
}

/** Every figure assumes samples and fills in time order; a runner bug should not pass silently. */
function checkTimeOrder(rows: readonly { readonly time: number }[], field: string): void {
  for (let i = 1; i < rows.length; i++) {
    if (rows[i]!.time < rows[i - 1]!.time) {
      throw new ValidationError(`${field}[${i}].time`, 'must not be before the previous one', rows[i]!.time);
    }
  }
}

/**
 * A fill's fee in the run's quote currency: as is when charged in it; `fee * price` when charged in
 * the base of a `<base><quote>` symbol (BTC on BTCUSDT); undefined otherwise, since the result
 * carries no conversion rate for other currencies.
 */
function feeInQuote(fill: FillRecord, quote: string): Decimal | undefined {
  if (fill.feeCurrency === quote) return fill.fee;
  if (fill.symbol === fill.feeCurrency + quote) return fill.fee.times(fill.price);
  return undefined;
}

/**
 * A fill's fee in its symbol's quote, the currency round-trip PnL is counted in: as is when the
 * symbol's name ends with the fee currency (BTC on ETHBTC), `fee * price` when it starts with it
 * (ETH on ETHBTC); undefined when the name tells neither.
 */
function feeInSymbolQuote(fill: FillRecord): Decimal | undefined {
  if (fill.symbol === fill.feeCurrency) return undefined;
  if (fill.symbol.endsWith(fill.feeCurrency)) return fill.fee;
  if (fill.symbol.startsWith(fill.feeCurrency)) return fill.fee.times(fill.price);
  return undefined;
}

function balanceChange(
  initial: Readonly<Record<string, Decimal>>,
  final: Readonly<Record<string, Decimal>>,
): Record<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const currency of new Set([...Object.keys(initial), ...Object.keys(final)])) {
    out.set(currency, (final[currency] ?? ZERO).minus(initial[currency] ?? ZERO));
  }
  return sortedRecord(out);
}

function sortedRecord(map: ReadonlyMap<string, Decimal>): Record<string, Decimal> {
  const out: Record<string, Decimal> = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key)!;
  return out;
}

/** Each sample's value holds until the next sample (step function); the last one has no width. */
function timeWeightedAverage(points: readonly EquityPoint[]): Decimal {
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return ZERO;
  const span = last.time - first.time;
  if (span <= 0) return points.reduce((s, p) => s.plus(p.equity), ZERO).dividedBy(points.length);
  let area = ZERO;
  for (let i = 0; i + 1 < points.length; i++) {
    area = area.plus(points[i]!.equity.times(points[i + 1]!.time - points[i]!.time));
  }
  return area.dividedBy(span);
}

/** Fraction of the sampled span during which some position was non-zero (positions step like equity). */
function exposure(points: readonly EquityPoint[]): number {
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined || last.time <= first.time) return 0;
  let held = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const p = points[i]!;
    if (Object.values(p.positions).some((q) => !q.isZero())) held += points[i + 1]!.time - p.time;
  }
  return held / (last.time - first.time);
}
