import type { Side } from '../../../framework/model/instrument.js';
import { numberList } from '../../../framework/model/object-list.js';

/** One of our orders resting in the simulated book, with its queue estimate (mutable state). */
export interface RestingOrder {
  readonly orderKey: number;
  readonly side: Side;
  readonly priceTicks: number;
  remainingLots: number;
  /** Outside lots estimated ahead at our price. */
  aheadLots: number;
  /** Outside trade lots printed at our price since the level's last feed update (for the queue model). */
  tradedLots: number;
  /** Venue time the order joined the book (ms): trades the exchange matched before it pass it by. */
  readonly restsFrom: number;
}

/**
 * Our resting orders of one side, grouped by price: levels best first (bids: highest price; asks:
 * lowest), orders of a level in arrival order (time priority). Sizes are small (a strategy's
 * working orders), so levels are a sorted array and a map; what the hot path asks, "is anything of
 * ours at this price?", is one map lookup, skipped entirely while the side is empty.
 */
export class RestingSide {
  /** Prices holding orders, best first. */
  readonly prices: number[] = numberList();
  private readonly levels = new Map<number, RestingOrder[]>();

  constructor(readonly side: Side) {}

  /** Number of price levels holding orders. */
  get levelCount(): number {
    return this.prices.length;
  }

  /** Best price holding an order; NaN when none. */
  get bestPrice(): number {
    return this.prices.length === 0 ? Number.NaN : (this.prices[0] as number);
  }

  /** Orders at `priceTicks` in arrival order, or undefined. */
  at(priceTicks: number): readonly RestingOrder[] | undefined {
    return this.levels.size === 0 ? undefined : this.levels.get(priceTicks);
  }

  /** Appends an order behind ours already at its price. */
  add(order: RestingOrder): void {
    const level = this.levels.get(order.priceTicks);
    if (level !== undefined) {
      level.push(order);
      return;
    }
    this.levels.set(order.priceTicks, [order]);
    let i = 0;
    while (i < this.prices.length && this.isBetter(this.prices[i] as number, order.priceTicks)) i++;
    this.prices.splice(i, 0, order.priceTicks);
  }

  /** Removes an order; no-op when it is not here. */
  remove(order: RestingOrder): void {
    const level = this.levels.get(order.priceTicks);
    if (level === undefined) return;
    const i = level.indexOf(order);
    if (i < 0) return;
    level.splice(i, 1);
    if (level.length !== 0) return;
    this.levels.delete(order.priceTicks);
    this.prices.splice(this.prices.indexOf(order.priceTicks), 1);
  }

  /** True when `a` is a better price than `b` for this side. */
  private isBetter(a: number, b: number): boolean {
    return this.side === 'buy' ? a > b : a < b;
  }
}
