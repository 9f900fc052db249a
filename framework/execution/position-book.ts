import { ZERO, type Decimal } from '../model/decimal.js';
import type { Side } from '../model/instrument.js';
import { PositionAccumulator, type PositionView } from '../model/position.js';
import type { OrderFill } from './order-tracker.js';

/** The currencies a symbol's fills move; null base for contracts that have none. */
export interface SymbolCurrencies {
  readonly base: string | null;
  readonly quote: string;
  readonly fee: string;
}

/** Finds a symbol's currencies (from its SymbolInfo); undefined for an unknown symbol. */
export type CurrencyLookup = (symbol: string) => SymbolCurrencies | undefined;

/**
 * Positions and currency flows per strategy, from fills only, in exact decimals. A buy of q at p
 * moves +q base and -q*p quote, a sell the opposite, and the fee (negative: rebate) leaves the fee
 * currency. The account's balances stay the exchange's truth (reconciliation and the balance
 * stream); these flows say what each strategy's own fills did to them.
 *
 * Positions follow the framework's one rule, {@link PositionAccumulator}.
 */
export class PositionBook {
  private readonly positions = new Map<string, Map<string, PositionAccumulator>>();
  private readonly flows = new Map<string, Map<string, Decimal>>();

  constructor(private readonly currencies: CurrencyLookup = () => undefined) {}

  /** Books one fill of a strategy's order. */
  applyFill(strategyId: string, symbol: string, side: Side, fill: OrderFill): void {
    this.positionOf(strategyId, symbol).apply(side, fill.quantity, fill.price);
    const signed = side === 'buy' ? fill.quantity : fill.quantity.negated();
    const currencies = this.currencies(symbol);
    if (currencies === undefined) return;
    const notional = fill.quantity.times(fill.price);
    if (currencies.base !== null) this.addFlow(strategyId, currencies.base, signed);
    this.addFlow(strategyId, currencies.quote, side === 'buy' ? notional.negated() : notional);
    this.addFlow(strategyId, currencies.fee, fill.fee.negated());
  }

  /**
   * The strategies whose positions in `symbol` an execution on `side` reduces (longs for a sell,
   * shorts for a buy), largest position first (equal ones by strategy id), with the quantity each
   * holds (positive).
   */
  holders(symbol: string, side: Side): { readonly strategyId: string; readonly quantity: Decimal }[] {
    const found: { strategyId: string; quantity: Decimal }[] = [];
    for (const [strategyId, bySymbol] of this.positions) {
      const quantity = bySymbol.get(symbol)?.quantity;
      if (quantity === undefined || quantity.isZero() || quantity.isNegative() !== (side === 'buy')) continue;
      found.push({ strategyId, quantity: quantity.abs() });
    }
    return found.sort((a, b) => b.quantity.comparedTo(a.quantity) || (a.strategyId < b.strategyId ? -1 : a.strategyId > b.strategyId ? 1 : 0));
  }

  /**
   * Books the venue's forced close of the account's position in a symbol (a liquidation): the
   * executed quantity closes the strategies' positions it reduces, largest first, each by what it
   * holds; the whole fee goes to the first (it is the exchange's one charge, not split into
   * inexact shares). What exceeds the strategies' positions (a position the bot's fills do not
   * explain) is booked to no strategy.
   */
  applyLiquidation(symbol: string, side: Side, fill: OrderFill): void {
    let remaining = fill.quantity;
    let fee = fill.fee;
    for (const holder of this.holders(symbol, side)) {
      if (remaining.isZero()) return;
      const quantity = holder.quantity.lessThan(remaining) ? holder.quantity : remaining;
      this.applyFill(holder.strategyId, symbol, side, { ...fill, quantity, fee });
      remaining = remaining.minus(quantity);
      fee = ZERO;
    }
  }

  /** The strategy's position in a symbol; undefined when it never traded it. */
  position(strategyId: string, symbol: string): PositionView | undefined {
    return this.positions.get(strategyId)?.get(symbol)?.view();
  }

  /** The net position of every strategy in a symbol; undefined when none ever traded it. */
  net(symbol: string): Decimal | undefined {
    let total: Decimal | undefined;
    for (const bySymbol of this.positions.values()) {
      const position = bySymbol.get(symbol);
      if (position !== undefined) total = total === undefined ? position.quantity : total.plus(position.quantity);
    }
    return total;
  }

  /** Net amount of a currency the strategy's fills moved (fees included); zero when none. */
  flow(strategyId: string, currency: string): Decimal {
    return this.flows.get(strategyId)?.get(currency) ?? ZERO;
  }

  private positionOf(strategyId: string, symbol: string): PositionAccumulator {
    let bySymbol = this.positions.get(strategyId);
    if (bySymbol === undefined) this.positions.set(strategyId, (bySymbol = new Map()));
    let position = bySymbol.get(symbol);
    if (position === undefined) bySymbol.set(symbol, (position = new PositionAccumulator(symbol)));
    return position;
  }

  private addFlow(strategyId: string, currency: string, amount: Decimal): void {
    let byCurrency = this.flows.get(strategyId);
    if (byCurrency === undefined) this.flows.set(strategyId, (byCurrency = new Map()));
    byCurrency.set(currency, (byCurrency.get(currency) ?? ZERO).plus(amount));
  }
}
