import { ZERO, type Decimal } from '../model/decimal.js';
import type { Side } from '../model/instrument.js';
import type { PositionView } from '../model/position-view.js';
import type { OrderFill } from './order-tracker.js';

/** The currencies a symbol's fills move; null base for contracts that have none. */
export interface SymbolCurrencies {
  readonly base: string | null;
  readonly quote: string;
  readonly fee: string;
}

/** Finds a symbol's currencies (from its SymbolInfo); undefined for an unknown symbol. */
export type CurrencyLookup = (symbol: string) => SymbolCurrencies | undefined;

interface MutablePosition {
  quantity: Decimal;
  averagePrice: Decimal | undefined;
  realizedPnl: Decimal;
}

/**
 * Positions and currency flows per strategy, from fills only, in exact decimals. A buy of q at p
 * moves +q base and -q*p quote, a sell the opposite, and the fee (negative: rebate) leaves the fee
 * currency. The account's balances stay the exchange's truth (reconciliation and the balance
 * stream); these flows say what each strategy's own fills did to them.
 *
 * Position model: signed quantity, weighted average entry price of the open part (a division, so
 * exact to the Decimal clone's precision), realized PnL in quote currency before fees when a fill
 * reduces or flips the position.
 */
export class PositionBook {
  private readonly positions = new Map<string, Map<string, MutablePosition>>();
  private readonly flows = new Map<string, Map<string, Decimal>>();

  constructor(private readonly currencies: CurrencyLookup = () => undefined) {}

  /** Books one fill of a strategy's order. */
  applyFill(strategyId: string, symbol: string, side: Side, fill: OrderFill): void {
    const position = this.positionOf(strategyId, symbol);
    const signed = side === 'buy' ? fill.quantity : fill.quantity.negated();
    applyToPosition(position, signed, fill.price);
    const currencies = this.currencies(symbol);
    if (currencies === undefined) return;
    const notional = fill.quantity.times(fill.price);
    if (currencies.base !== null) this.addFlow(strategyId, currencies.base, signed);
    this.addFlow(strategyId, currencies.quote, side === 'buy' ? notional.negated() : notional);
    this.addFlow(strategyId, currencies.fee, fill.fee.negated());
  }

  /** The strategy's position in a symbol; undefined when it never traded it. */
  position(strategyId: string, symbol: string): PositionView | undefined {
    const p = this.positions.get(strategyId)?.get(symbol);
    if (p === undefined) return undefined;
    return { symbol, quantity: p.quantity, averagePrice: p.averagePrice, realizedPnl: p.realizedPnl };
  }

  /** Net amount of a currency the strategy's fills moved (fees included); zero when none. */
  flow(strategyId: string, currency: string): Decimal {
    return this.flows.get(strategyId)?.get(currency) ?? ZERO;
  }

  private positionOf(strategyId: string, symbol: string): MutablePosition {
    let bySymbol = this.positions.get(strategyId);
    if (bySymbol === undefined) this.positions.set(strategyId, (bySymbol = new Map()));
    let position = bySymbol.get(symbol);
    if (position === undefined) bySymbol.set(symbol, (position = { quantity: ZERO, averagePrice: undefined, realizedPnl: ZERO }));
    return position;
  }

  private addFlow(strategyId: string, currency: string, amount: Decimal): void {
    let byCurrency = this.flows.get(strategyId);
    if (byCurrency === undefined) this.flows.set(strategyId, (byCurrency = new Map()));
    byCurrency.set(currency, (byCurrency.get(currency) ?? ZERO).plus(amount));
  }
}

function applyToPosition(p: MutablePosition, signed: Decimal, price: Decimal): void {
  const before = p.quantity;
  const after = before.plus(signed);
  if (before.isZero() || before.isNegative() === signed.isNegative()) {
    const openValue = before.abs().times(p.averagePrice ?? ZERO).plus(signed.abs().times(price));
    p.averagePrice = after.isZero() ? undefined : openValue.dividedBy(after.abs());
    p.quantity = after;
    return;
  }
  const average = p.averagePrice ?? price;
  const closed = signed.abs().lessThan(before.abs()) ? signed.abs() : before.abs();
  const perUnit = before.isNegative() ? average.minus(price) : price.minus(average);
  p.realizedPnl = p.realizedPnl.plus(perUnit.times(closed));
  p.quantity = after;
  if (after.isZero()) p.averagePrice = undefined;
  else if (after.isNegative() !== before.isNegative()) p.averagePrice = price;
}
