import { Decimal } from '../../../framework/model/decimal.js';
import type { BookLevelText } from '../../../framework/exchange/book/order-book-frame.js';

/**
 * Reference model for the book tests: a Map keyed by the normalised Decimal text, sorted only when
 * queried, Decimal arithmetic everywhere. Slow and obviously right.
 */
export class NaiveBook {
  readonly bids = new Map<string, Decimal>();
  readonly asks = new Map<string, Decimal>();

  apply(snapshot: boolean, bids: readonly BookLevelText[], asks: readonly BookLevelText[]): void {
    if (snapshot) {
      this.bids.clear();
      this.asks.clear();
    }
    for (const [price, quantity] of bids) set(this.bids, price, quantity);
    for (const [price, quantity] of asks) set(this.asks, price, quantity);
  }

  /** Levels best first as normalised [price, quantity] texts. */
  levels(side: 'bid' | 'ask'): [string, string][] {
    const map = side === 'bid' ? this.bids : this.asks;
    const sorted = [...map].sort((x, y) => new Decimal(x[0]).comparedTo(new Decimal(y[0])));
    if (side === 'bid') sorted.reverse();
    return sorted.map(([p, q]) => [p, q.toFixed()]);
  }

  crossed(): boolean {
    const bid = this.levels('bid')[0];
    const ask = this.levels('ask')[0];
    return bid !== undefined && ask !== undefined && new Decimal(bid[0]).gte(ask[0]);
  }

  walk(side: 'bid' | 'ask', wanted: Decimal): { filled: Decimal; notional: Decimal; worst: Decimal | null; complete: boolean } {
    let remaining = wanted;
    let filled = new Decimal(0);
    let notional = new Decimal(0);
    let worst: Decimal | null = null;
    for (const [p, q] of this.levels(side)) {
      if (remaining.lte(0)) break;
      const take = Decimal.min(remaining, q);
      notional = notional.plus(take.times(p));
      filled = filled.plus(take);
      remaining = remaining.minus(take);
      worst = new Decimal(p);
    }
    return { filled, notional, worst, complete: remaining.lte(0) };
  }

  /** Order-independent text of the whole book, for checksums. */
  checksum(): string {
    return `${this.levels('bid').map((l) => l.join(':')).join(',')}|${this.levels('ask').map((l) => l.join(':')).join(',')}`;
  }
}

function set(map: Map<string, Decimal>, price: string, quantity: string): void {
  const key = new Decimal(price).toFixed();
  const q = new Decimal(quantity);
  if (q.isZero()) map.delete(key);
  else map.set(key, q);
}

/** Normalised texts of a book's levels, best first (same shape as NaiveBook.levels). */
export function normalised(levels: readonly { price: string; quantity: string }[]): [string, string][] {
  return levels.map((l) => [new Decimal(l.price).toFixed(), new Decimal(l.quantity).toFixed()]);
}
