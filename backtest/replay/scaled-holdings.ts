import type { Decimal } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';
import { decimalsOf, parseScaled } from '../../framework/model/scaled.js';

/** One balance as the valuation reads it: the quote itself, a currency priced by a symbol, or one no symbol prices. */
interface HoldingTerm {
  /** The amount in units of 10^-decimals. */
  readonly units: number;
  readonly decimals: number;
  /** The `<currency><quote>` symbol that prices it; {@link CASH} for the quote currency; undefined when none does. */
  readonly symbol: string | undefined;
}

const CASH = '';
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * Spot balances valued in the quote currency in integers, for a backtest's equity samples: the
 * quote at face value plus every other non-zero amount times its symbol's price of the moment,
 * the rule of `valueHoldings` (framework/risk/valuation.ts), without decimal.js per sample. The
 * balances' amounts are read into integers when they change (a fill), each price from its text at
 * the sample; the value is an exact count of 10^-{@link scale}, the scale keeping its largest
 * value so far so that a run's samples share one as long as they can.
 */
export class ScaledHoldings {
  /** The balances' terms, read when they change; null when one is no safe integer at its decimals. */
  private terms: readonly HoldingTerm[] | null | undefined;
  private valueScale = 0;

  constructor(
    private readonly quoteCurrency: string,
    private readonly instruments: readonly Instrument[],
  ) {}

  /** Decimals of the last value. */
  get scale(): number {
    return this.valueScale;
  }

  /** The balances changed: they are read again at the next valuation. */
  balancesChanged(): void {
    this.terms = undefined;
  }

  /**
   * The value of `balances` in units of 10^-{@link scale}, with `priceText(symbol)` the price of a
   * symbol's base currency (asked for the held currencies only, in the balances' order, until one
   * has none): undefined when a held currency has no price; NaN when a value is no safe integer
   * in units (the caller then values the balances with decimal.js).
   */
  value(balances: ReadonlyMap<string, Decimal>, priceText: (symbol: string) => string | undefined): number | undefined {
    this.terms ??= this.termsOf(balances);
    const terms = this.terms;
    if (terms === null) return Number.NaN;
    let scale = this.valueScale;
    let total = 0;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      let units = term.units;
      let decimals = term.decimals;
      if (term.symbol !== CASH) {
        if (term.symbol === undefined) return undefined;
        const price = priceText(term.symbol);
        if (price === undefined) return undefined;
        const priceDecimals = decimalsOf(price);
        units *= parseScaled(price, priceDecimals);
        decimals += priceDecimals;
        if (!Number.isSafeInteger(units)) return Number.NaN;
      }
      if (decimals > scale) {
        total *= POW10[decimals - scale]!;
        scale = decimals;
      }
      units *= POW10[scale - decimals]!;
      // Each step checked: a product or sum beyond 2^53 - 1 comes out unsafe (doubles round
      // monotonically), and a safe result of safe operands is exact. A power past the table is NaN.
      if (!Number.isSafeInteger(units) || !Number.isSafeInteger(total)) return Number.NaN;
      total += units;
      if (!Number.isSafeInteger(total)) return Number.NaN;
    }
    this.valueScale = scale;
    return total;
  }

  private termsOf(balances: ReadonlyMap<string, Decimal>): HoldingTerm[] | null {
    const terms: HoldingTerm[] = [];
    for (const [currency, amount] of balances) {
      const isCash = currency === this.quoteCurrency;
      if (!isCash && amount.isZero()) continue;
      const text = amount.toFixed();
      const decimals = decimalsOf(text);
      const units = parseScaled(text, decimals);
      if (!Number.isSafeInteger(units)) return null;
      const symbol = isCash ? CASH : this.instruments.find((i) => i.baseCurrency === currency && i.quoteCurrency === this.quoteCurrency)?.symbol;
      terms.push({ units, decimals, symbol });
    }
    return terms;
  }
}
