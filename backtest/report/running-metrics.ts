import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import type { EquityPoint, FillRecord } from './backtest-result.js';
import { DrawdownTracker, PeriodReturns, sharpeRatio, sortinoRatio, YEAR_MS } from './equity-stats.js';
import type { BacktestMetrics, MetricsOptions } from './metrics.js';
import { RoundTripMatcher } from './round-trips.js';
import { EquityArea } from './scaled-equity.js';

/** Default resampling period of the equity returns behind Sharpe and Sortino: one minute. */
export const DEFAULT_PERIOD_MS = 60_000;

/** Fewest period returns behind a Sharpe or Sortino ratio. */
export const MIN_RATIO_RETURNS = 30;

/** Upper bound on resampled periods, so a tiny period on a long run fails fast instead of hanging. */
export const MAX_PERIODS = 10_000_000;

/** What the metrics need besides the fills and the equity samples. */
export interface RunTotals {
  readonly orders: number;
  readonly initialBalances: Readonly<Record<string, Decimal>>;
  readonly finalBalances: Readonly<Record<string, Decimal>>;
}

/**
 * Every {@link BacktestMetrics} figure, worked out as the fills and equity samples go by (each in
 * time order), so a run of any length is measured without keeping its rows: memory holds running
 * sums, one open round trip per symbol, the drawdown state, and one float per Sharpe period.
 * Money stays exact (Decimal), summed in the order the rows come, so the figures are those of
 * {@link computeMetrics} on the same rows, which is built on this class.
 */
export class RunningMetrics {
  readonly periodMs: number;
  private readonly fillsInArrivalOrder: boolean;
  private readonly feesByCurrency = new Map<string, Decimal>();
  private readonly notValued = new Set<string>();
  private feesQuote = ZERO;
  private tradedNotional = ZERO;
  private makerNotional = ZERO;
  private makerCount = 0;
  private fills = 0;
  private lastFillTime = Number.NEGATIVE_INFINITY;
  private readonly trips: RoundTripMatcher;
  private roundTrips = 0;
  private winning = 0;
  private roundTripPnl = ZERO;

  private samples = 0;
  private first: EquityPoint | undefined;
  private last: EquityPoint | undefined;
  private readonly returns: PeriodReturns;
  private readonly drawdown = new DrawdownTracker();
  /** Sum of the samples while they all share the first one's time (the average of a single instant). */
  private instantSum = ZERO;
  private readonly area = new EquityArea();
  private heldMs = 0;
  /** The positions record last looked at, and whether it holds a position (samples share a record until a fill). */
  private positionsSeen: EquityPoint['positions'] | undefined;
  private holding = false;

  constructor(
    private readonly quoteCurrency: string,
    options: MetricsOptions = {},
  ) {
    const periodMs = options.periodMs ?? DEFAULT_PERIOD_MS;
    if (!Number.isInteger(periodMs) || periodMs <= 0) throw new ValidationError('periodMs', 'must be a positive integer', periodMs);
    this.periodMs = periodMs;
    this.fillsInArrivalOrder = options.fillsInArrivalOrder === true;
    this.returns = new PeriodReturns(periodMs);
    this.trips = new RoundTripMatcher(feeInSymbolQuote);
  }

  /** One fill, after every earlier one. */
  addFill(fill: FillRecord): void {
    if (fill.time < this.lastFillTime && !this.fillsInArrivalOrder) throw new ValidationError(`fills[${this.fills}].time`, 'must not be before the previous one', fill.time);
    this.lastFillTime = fill.time;
    this.fills++;
    this.feesByCurrency.set(fill.feeCurrency, (this.feesByCurrency.get(fill.feeCurrency) ?? ZERO).plus(fill.fee));
    const valued = feeInQuote(fill, this.quoteCurrency);
    if (valued === undefined) this.notValued.add(fill.feeCurrency);
    else this.feesQuote = this.feesQuote.plus(valued);
    const notional = fill.price.times(fill.quantity);
    this.tradedNotional = this.tradedNotional.plus(notional);
    if (fill.liquidity === 'maker') {
      this.makerCount++;
      this.makerNotional = this.makerNotional.plus(notional);
    }
    for (const trip of this.trips.add(fill) ?? []) {
      this.roundTrips++;
      if (trip.pnl.greaterThan(ZERO)) this.winning++;
      this.roundTripPnl = this.roundTripPnl.plus(trip.pnl);
    }
  }

  /**
   * One equity sample, at or after every earlier one; `equityText`, when the caller has it, is its
   * equity as `toFixed()` writes it (the returns then spare most divisions, same figures).
   */
  addEquity(point: EquityPoint, equityText?: string): void {
    const previous = this.last;
    if (previous !== undefined && point.time < previous.time) {
      throw new ValidationError(`equity[${this.samples}].time`, 'must not be before the previous one', point.time);
    }
    const first = this.first ?? point;
    if ((point.time - first.time) / this.periodMs > MAX_PERIODS) {
      throw new ValidationError('periodMs', `must split the run into at most ${MAX_PERIODS} periods`, this.periodMs);
    }
    this.first = first;
    this.last = point;
    this.samples++;
    if (point.time === first.time) this.instantSum = this.instantSum.plus(point.equity);
    if (previous !== undefined) {
      // Each sample's value holds until the next sample (a step function).
      this.area.add(previous, point.time - previous.time);
      if (this.holds(previous.positions)) this.heldMs += point.time - previous.time;
    }
    this.returns.add(point, equityText);
    this.drawdown.add(point);
  }

  private holds(positions: EquityPoint['positions']): boolean {
    if (positions !== this.positionsSeen) {
      this.positionsSeen = positions;
      this.holding = Object.values(positions).some((q) => !q.isZero());
    }
    return this.holding;
  }

  /** The figures of everything added so far. */
  finish(totals: RunTotals): BacktestMetrics {
    const initialEquity = this.first?.equity ?? ZERO;
    const finalEquity = this.last?.equity ?? ZERO;
    const pnlQuote = finalEquity.minus(initialEquity);
    const returns = this.returns.finish();
    const drawdown = this.drawdown.result();
    const span = this.first === undefined || this.last === undefined ? 0 : this.last.time - this.first.time;
    const averageEquity = this.first === undefined ? ZERO : span <= 0 ? this.instantSum.dividedBy(this.samples) : this.area.total().dividedBy(span);
    const { tradedNotional, fills } = this;
    return {
      quoteCurrency: this.quoteCurrency,
      pnlByCurrency: balanceChange(totals.initialBalances, totals.finalBalances),
      initialEquity,
      finalEquity,
      pnlQuote,
      returnFraction: initialEquity.greaterThan(ZERO) ? pnlQuote.dividedBy(initialEquity).toNumber() : undefined,
      feesByCurrency: sortedRecord(this.feesByCurrency),
      feesQuote: this.feesQuote,
      feesNotValued: [...this.notValued].sort(),
      orders: totals.orders,
      fills,
      makerShareByCount: fills > 0 ? this.makerCount / fills : undefined,
      makerShareByNotional: tradedNotional.greaterThan(ZERO) ? this.makerNotional.dividedBy(tradedNotional).toNumber() : undefined,
      tradedNotional,
      roundTrips: this.roundTrips,
      winningRoundTrips: this.winning,
      winRate: this.roundTrips > 0 ? this.winning / this.roundTrips : undefined,
      roundTripPnl: this.roundTripPnl,
      periodMs: this.periodMs,
      returns: returns.length,
      ...ratios(returns, YEAR_MS / this.periodMs),
      maxDrawdown: drawdown.fraction,
      maxDrawdownAmount: drawdown.amount,
      maxDrawdownDurationMs: drawdown.durationMs,
      longestDrawdownMs: drawdown.longestMs,
      exposure: span > 0 ? this.heldMs / span : 0,
      averageEquity,
      turnover: averageEquity.greaterThan(ZERO) ? tradedNotional.dividedBy(averageEquity).toNumber() : undefined,
    };
  }
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
