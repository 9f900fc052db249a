import { ONE, Decimal } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { CandleTick } from '../../framework/model/stream/market-records.js';

/**
 * Lots on each side of the synthetic book and in each synthetic trade: no volume constraint.
 * Counted in lots, so the quantity scales with the instrument's grid (2^50 lots is 11 million BTC
 * at 10^-8, 11 thousand at 10^-11; a fixed 10^9 lots was only 0.01 BTC on the finer grid), and
 * small enough that the four trades of a candle's path together stay within 2^53 lots.
 */
const AMPLE_LOTS = 2 ** 50;

/**
 * Fill rules of a candle-only backtest (a recording with candles and no book), applied by feeding
 * the simulated venue a synthetic market built from the candles; the venue's ordinary matching
 * then does the rest:
 *
 * 1. When candle n closes (the strategy sees it closed at that moment), the venue first gets
 *    synthetic trades along candle n's path, which fill limit orders resting since before the
 *    candle and fire stops: open, then the extreme nearer in the candle's direction (low first
 *    for a rising candle, high first for a falling one), then the other extreme, then close. A
 *    resting limit fills when the range reaches its price (as maker, at its own price; a price
 *    only touched fills too, as the trades carry ample size); a stop triggers when the range
 *    reaches its stop price.
 * 2. Then the venue's book becomes one level each side at the NEXT candle's open: the ask at
 *    open x (1 + slippage) rounded up to the tick, the bid at open x (1 - slippage) rounded down.
 *    With zero slippage and an open on the tick grid both sides sit at the open itself (a locked
 *    book: the venue's matching takes from each side independently, so a market buy and a market
 *    sell both fill at the open). A market order the strategy sends after seeing candle n closed
 *    fills there, as taker: at the next candle's open, plus slippage for a buy, minus it for a
 *    sell. A limit order that reaches that level fills there too, as taker; one that does not
 *    rests and is filled by rule 1, or by a later book that crosses it (an ask at or below a
 *    resting buy, a bid at or above a resting sell), at its own price, as maker. The venue knows
 *    the next open; the strategy does not (no look-ahead). After a gap in the candles the next
 *    open is that of the next candle there is, and the fill is still stamped when candle n closed.
 * 3. After the last candle there is no next open: the book is emptied, so a market order sent on
 *    the last candle does not fill (the venue expires it, as the exchange does a market order
 *    that meets an empty book) and resting orders stay unfilled until the run ends and cancels
 *    them. The report's orders list shows them with their final status.
 * 4. Size is unconstrained: the synthetic book and trades carry ample quantity, so orders fill
 *    completely (no partial fills, no volume limit, no market impact), and fees are the symbol's
 *    taker/maker rates on the fill's value.
 */
export class CandleMarket {
  private sequence = 0;
  private tradeId = 0;
  private readonly slippage: Decimal;

  constructor(
    private readonly instrument: Instrument,
    slippageBps: number,
  ) {
    this.slippage = new Decimal(slippageBps).dividedBy(10_000);
  }

  /** Synthetic `trades` frame along a closed candle's path (wire shape of the public stream). */
  pathTrades(candle: CandleTick, time: number): unknown {
    const open = new Decimal(candle.open);
    const close = new Decimal(candle.close);
    const rising = close.greaterThanOrEqualTo(open);
    const path: [string, 'buy' | 'sell'][] = rising
      ? [[candle.open, 'sell'], [candle.low, 'sell'], [candle.high, 'buy'], [candle.close, 'sell']]
      : [[candle.open, 'buy'], [candle.high, 'buy'], [candle.low, 'sell'], [candle.close, 'buy']];
    const q = this.instrument.lotsToQuantity(AMPLE_LOTS);
    const trades = path.map(([p, s]) => ({ t: time, i: ++this.tradeId, p: this.onGrid(new Decimal(p)), q, s }));
    return { ch: 'trades', update: { [this.instrument.symbol]: trades } };
  }

  /**
   * Synthetic `orderbook/full` snapshot at `nextOpen` +/- slippage (rule 2), or an empty book
   * when there is no next candle (rule 3).
   */
  bookAround(nextOpen: string | undefined, time: number): unknown {
    const q = this.instrument.lotsToQuantity(AMPLE_LOTS);
    let asks: [string, string][] = [];
    let bids: [string, string][] = [];
    if (nextOpen !== undefined) {
      const price = new Decimal(nextOpen);
      const ask = this.instrument.roundPricePassive('sell', price.times(ONE.plus(this.slippage)));
      const bid = this.instrument.roundPricePassive('buy', price.times(ONE.minus(this.slippage)));
      asks = [[ask.toFixed(), q]];
      bids = bid.isPositive() && !bid.isZero() ? [[bid.toFixed(), q]] : [];
    }
    const levels = { t: time, s: ++this.sequence, a: asks, b: bids };
    return { ch: 'orderbook/full', snapshot: { [this.instrument.symbol]: levels } };
  }

  private onGrid(price: Decimal): string {
    return this.instrument.quantizePriceHalfDown(price).toFixed();
  }
}
