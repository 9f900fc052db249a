import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import { cancelWithList } from '../list-effects.js';
import { isActive } from '../order-state.js';
import type { VenueEngine } from '../venue-engine.js';
import { FLAT } from './position-math.js';

/**
 * Expiry of cash-settled contracts (Symbol `expiry`). At the expiry time the venue cancels every
 * active order on the contract and settles every open position in cash at the settlement price:
 * the latest recorded `indicative_settlement_price` of its futures info ("the expected settlement
 * price" near expiry), else its mark price. Settlement realizes `sign x (price x |q| - entry value)`
 * in the margin cash with no fee (assumed: the spec shows no settlement fee), is a trade history
 * record (`client_order_id` `settlement-<position id>`) and closes the position (`closed` in the
 * positions history). Without any price the positions stay open and settle at the first time a
 * price is known. After expiry the contract accepts no orders (20044).
 */
export class ContractExpiry {
  private readonly pending = new Map<string, number>();
  private readonly settlementPrices = new Map<string, Decimal>();

  constructor(expiries: ReadonlyMap<string, number>) {
    for (const [symbol, time] of expiries) this.pending.set(symbol, time);
  }

  /** Records a recorded settlement price estimate. */
  setSettlementPrice(symbol: string, price: Decimal): void {
    if (this.pending.has(symbol) || this.settlementPrices.has(symbol)) this.settlementPrices.set(symbol, price);
  }

  /** The latest recorded settlement price estimate of a contract (undefined when none was recorded). */
  settlementPriceOf(symbol: string): Decimal | undefined {
    return this.settlementPrices.get(symbol);
  }

  /** Earliest expiry not yet settled (Infinity when none). */
  earliest(): number {
    // Asked once per market frame: without dated contracts, no iterator is made.
    if (this.pending.size === 0) return Number.POSITIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    for (const t of this.pending.values()) if (t < min) min = t;
    return min;
  }

  /** Settles every contract whose expiry is at or before `time`. */
  settleDue(engine: VenueEngine, time: number): void {
    for (const [symbol, expiry] of [...this.pending].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))) {
      if (expiry > time) continue;
      if (expiry > engine.time) engine.time = expiry;
      engine.cause = { kind: 'timer', time: expiry, reason: 'contract-expiry' };
      if (this.settle(engine, symbol)) this.pending.delete(symbol);
    }
  }

  private settle(engine: VenueEngine, symbol: string): boolean {
    for (const orders of engine.byClientId.values()) {
      for (const order of [...orders.values()]) if (order.instrument.symbol === symbol && isActive(order)) cancelWithList(engine, order);
    }
    const futures = engine.futures;
    const price = this.settlementPrices.get(symbol) ?? engine.marks.markOf(symbol);
    const accounts = futures.accountsWithPosition(symbol);
    if (accounts.length === 0) return true;
    if (price === undefined) return false;
    const inst = futures.instrumentOf(symbol);
    const currency = futures.termsOf(symbol).marginCurrency;
    for (const account of accounts) {
      const position = futures.position(account, symbol);
      if (position === undefined) continue;
      const lots = position.grid.lots;
      const quantity = inst.lotsToDecimal(Math.abs(lots));
      const entry = futures.unitsToDecimal(symbol, position.grid.entryUnits);
      const value = price.times(quantity);
      const realized = lots > 0 ? value.minus(entry) : entry.minus(value);
      const closed = futures.updatePosition(account, symbol, FLAT, realized, engine.time);
      futures.credit(account, currency, realized);
      engine.outsideFlows.set(currency, (engine.outsideFlows.get(currency) ?? ZERO).plus(realized));
      engine.positionHistory.close(account, closed, 'closed', futures.leverage(account, symbol), engine.time);
      engine.history.addTrade(account, {
        id: engine.ids.nextTradeId(), order_id: engine.ids.nextOrderId(), client_order_id: `settlement-${closed.id}`, symbol,
        side: lots > 0 ? 'sell' : 'buy', quantity, price, fee: ZERO, timestamp: engine.time, taker: false, position_id: closed.id, pnl: realized,
      });
    }
    return true;
  }
}
