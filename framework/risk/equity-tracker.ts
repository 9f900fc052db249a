import { Decimal, ZERO } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { EquityView, RiskBook } from './risk-state.js';
import { valueHoldings } from './valuation.js';

const DAY_MS = 86_400_000;

/** Where an {@link EquityTracker} reads balances, instruments and books. */
export interface EquitySources {
  /** Currencies the account holds and their total amounts (available + reserved). */
  balances(): Iterable<readonly [string, Decimal]>;
  /** Symbols whose mid prices value the holdings. */
  readonly instruments: readonly Instrument[];
  book(symbol: string): RiskBook | undefined;
}

/**
 * Equity of the account in one currency for the kill switch, by {@link valueHoldings}: each holding
 * in a currency of the traded instruments valued at the mid of a `<currency><equityCurrency>` book
 * (or the inverse pair's); while one of them has no priced book there is no new valuation (the last
 * one stands). Keeps the peak since start (so a drawdown halt latches) and the equity at the first
 * valuation of each UTC day. Values are exact Decimals; the mid of an exact book is exact.
 */
export class EquityTracker implements EquityView {
  current: Decimal = ZERO;
  peak: Decimal = ZERO;
  dayStart: Decimal = ZERO;
  private day = Number.NaN;
  private valued = false;
  private readonly traded: ReadonlySet<string>;

  constructor(
    readonly currency: string,
    private readonly sources: EquitySources,
  ) {
    const traded = new Set<string>([currency]);
    for (const instrument of sources.instruments) {
      traded.add(instrument.quoteCurrency);
      if (instrument.baseCurrency !== null) traded.add(instrument.baseCurrency);
    }
    this.traded = traded;
  }

  /** True once a valuation succeeded (before that the kill switch has nothing to compare). */
  get ready(): boolean {
    return this.valued;
  }

  /** Revalues at `now` (ms); returns false when no holding could be priced. */
  update(now: number): boolean {
    const value = this.value();
    if (value === undefined) return false;
    this.current = value;
    if (!this.valued || value.greaterThan(this.peak)) this.peak = value;
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.dayStart = value;
    }
    this.valued = true;
    return true;
  }

  private value(): Decimal | undefined {
    return valueHoldings(this.tradedHoldings(), this.currency, (currency) => this.priceOf(currency));
  }

  /** Holdings in currencies of the traded instruments (any other, such as dust, is not the bot's to value). */
  private *tradedHoldings(): Iterable<readonly [string, Decimal]> {
    for (const holding of this.sources.balances()) if (this.traded.has(holding[0])) yield holding;
  }

  /** Price of one unit of `currency` in the equity currency, from a book's mid. */
  private priceOf(currency: string): Decimal | undefined {
    for (const instrument of this.sources.instruments) {
      const direct = instrument.baseCurrency === currency && instrument.quoteCurrency === this.currency;
      const inverse = instrument.baseCurrency === this.currency && instrument.quoteCurrency === currency;
      if (!direct && !inverse) continue;
      const book = this.sources.book(instrument.symbol);
      const text = book?.valid === true ? book.mid() : undefined;
      if (text === undefined) continue;
      const mid = new Decimal(text);
      if (direct) return mid;
      if (!mid.isZero()) return mid.pow(-1);
    }
    return undefined;
  }
}
