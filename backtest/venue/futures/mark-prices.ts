import type { Decimal } from '../../../framework/model/decimal.js';
import type { Instrument } from '../../../framework/model/instrument.js';
import type { SymbolMarket } from '../matching/market-port.js';

/**
 * Mark prices of futures contracts. A recorded mark (futures info `mark_price`, fed with
 * `SimulatedVenue.applyFuturesInfo`) wins and stays until the next recorded one; without any recorded
 * mark the venue derives one from its own view of the market: the outside book's mid
 * ((best bid + best ask) / 2, exact), else the last outside trade price, else none. The spec's mark is
 * "recent asset price adjusted by fair basis"; the derivation has no basis adjustment and no index.
 */
export class MarkPrices {
  private readonly recorded = new Map<string, Decimal>();
  private recordings = 0;
  /** The last derived mark per symbol and the quotes it came from (a check reads it several times). */
  private readonly derived = new Map<string, { bid: number; ask: number; last: number; mark: Decimal | undefined }>();

  constructor(
    private readonly instruments: ReadonlyMap<string, Instrument>,
    private readonly markets: ReadonlyMap<string, SymbolMarket>,
  ) {}

  /** Records a mark price from recorded data. */
  setRecorded(symbol: string, mark: Decimal): void {
    if (!mark.greaterThan(0)) throw new RangeError(`${symbol}: mark price must be positive, got ${mark.toFixed()}`);
    this.recorded.set(symbol, mark);
    this.recordings++;
  }

  /** A counter that moves with every recorded mark. */
  get recordedVersion(): number {
    return this.recordings;
  }

  /** True when the symbol's mark comes from recorded data. */
  isRecorded(symbol: string): boolean {
    return this.recorded.has(symbol);
  }

  /** The mark price of a symbol, or undefined when nothing is known yet. */
  markOf(symbol: string): Decimal | undefined {
    const recorded = this.recorded.get(symbol);
    if (recorded !== undefined) return recorded;
    const market = this.markets.get(symbol);
    const inst = this.instruments.get(symbol);
    if (market === undefined || inst === undefined) return undefined;
    const bid = market.bestBidTicks;
    const ask = market.bestAskTicks;
    const last = market.lastTradeTicks;
    const memo = this.derived.get(symbol);
    if (memo !== undefined && Object.is(memo.bid, bid) && Object.is(memo.ask, ask) && Object.is(memo.last, last)) return memo.mark;
    let mark: Decimal | undefined;
    if (!Number.isNaN(bid) && !Number.isNaN(ask)) mark = inst.ticksToDecimal(bid).plus(inst.ticksToDecimal(ask)).dividedBy(2);
    else if (!Number.isNaN(last)) mark = inst.ticksToDecimal(last);
    this.derived.set(symbol, { bid, ask, last, mark });
    return mark;
  }
}
