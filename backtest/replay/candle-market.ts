import type { BookFrame, BookLevelText } from '../../framework/exchange/book/order-book-frame.js';
import { ONE, Decimal, type DecimalString } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';
import { decimalsOf, parseScaled } from '../../framework/model/scaled.js';
import type { TradesEvent } from '../../framework/model/stream/market-events.js';
import type { CandleTick, TradeTick } from '../../framework/model/stream/market-records.js';

/**
 * Lots on each side of the synthetic book and in each synthetic trade: no volume constraint.
 * Counted in lots, so the quantity scales with the instrument's grid (2^50 lots is 11 million BTC
 * at 10^-8, 11 thousand at 10^-11; a fixed 10^9 lots was only 0.01 BTC on the finer grid), and
 * small enough that the four trades of a candle's path together stay within 2^53 lots.
 */
const AMPLE_LOTS = 2 ** 50;

/**
 * The id of every synthetic trade: nothing reads it (the venue matches on price, size and side),
 * and a fresh text per trade would only cost a number-to-text conversion, whose cache keeps each
 * text alive past the young generation.
 */
const SYNTHETIC_TRADE_ID = 'candle';

const NO_TEXT_LEVELS: readonly BookLevelText[] = Object.freeze([]);
const NO_SCALED_LEVELS: readonly number[] = Object.freeze([]);

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
 *    reaches its stop price. While no order works on the symbol, only the close is traded:
 *    the rest of the path could fill or trigger nothing, and the venue's last price (which a
 *    stop placed later is judged against) ends at the close either way.
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
 * 5. No order latency: a bar is the run's unit of time, so an order reaches the venue in the
 *    instant the strategy sent it and its fill is stamped when candle n closed; the configured
 *    latency applies to book runs only.
 *
 * The synthetic market is handed to the venue already parsed (a trades event, a book frame), and
 * its prices are worked out in integers at the instrument's scale: this runs for every candle, and
 * a price here is only rounded onto the grid and moved, never accounted. A candle price off the
 * grid is rounded half down to it by the venue, as any public trade; a next open off the grid or
 * beyond 2^53 units, or a fractional slippage, takes the exact decimal route instead.
 */
export class CandleMarket {
  private sequence = 0;
  private readonly slippage: Decimal;
  /** The slippage in whole basis points, or undefined when it has a fraction (decimal route). */
  private readonly slippageBps: number | undefined;
  /** {@link AMPLE_LOTS} as a quantity text, computed once. */
  private readonly ample: DecimalString;
  /** {@link AMPLE_LOTS} in units of the quantity scale, or NaN when that is no safe integer (text route). */
  private readonly ampleUnits: number;

  constructor(
    private readonly instrument: Instrument,
    slippageBps: number,
  ) {
    this.slippage = new Decimal(slippageBps).dividedBy(10_000);
    this.slippageBps = Number.isSafeInteger(slippageBps) && slippageBps >= 0 ? slippageBps : undefined;
    this.ample = instrument.lotsToQuantity(AMPLE_LOTS);
    const units = AMPLE_LOTS * instrument.lotUnits;
    this.ampleUnits = Number.isSafeInteger(units) ? units : Number.NaN;
  }

  /** The symbol whose market this is. */
  get symbol(): string {
    return this.instrument.symbol;
  }

  /**
   * Synthetic trades of a closed candle for the venue, as it reads a public `trades` frame: its
   * whole path (rule 1), or, when no order works on the symbol (`idle`), only the path's last
   * trade, at the close: the rest could fill or trigger nothing, and the venue's last price ends
   * at the close either way.
   */
  trades(candle: CandleTick, time: number, idle: boolean): TradesEvent {
    if (!idle) return this.pathTrades(candle, time);
    const trades = [this.trade(candle.close, isAtLeast(candle.close, candle.open) ? 'sell' : 'buy', time)];
    return { kind: 'trades', channel: 'trades', symbol: this.instrument.symbol, snapshot: false, exchangeTime: time, receivedAt: time, trades };
  }

  /** Synthetic trades along a closed candle's path, as the venue reads a public `trades` frame. */
  pathTrades(candle: CandleTick, time: number): TradesEvent {
    const rising = isAtLeast(candle.close, candle.open);
    const trades: TradeTick[] = rising
      ? [this.trade(candle.open, 'sell', time), this.trade(candle.low, 'sell', time), this.trade(candle.high, 'buy', time), this.trade(candle.close, 'sell', time)]
      : [this.trade(candle.open, 'buy', time), this.trade(candle.high, 'buy', time), this.trade(candle.low, 'sell', time), this.trade(candle.close, 'buy', time)];
    return { kind: 'trades', channel: 'trades', symbol: this.instrument.symbol, snapshot: false, exchangeTime: time, receivedAt: time, trades };
  }

  /**
   * Synthetic `orderbook/full` snapshot at `nextOpen` +/- slippage (rule 2), or an empty book
   * when there is no next candle (rule 3). Its levels are scaled integers, as a replay's decoded
   * book lines are (no level text to write here and parse again in the venue), unless a price
   * took the decimal route.
   */
  bookAround(nextOpen: string | undefined, time: number): BookFrame {
    const i = this.instrument;
    const symbol = i.symbol;
    const sequence = ++this.sequence;
    if (nextOpen === undefined) return { symbol, sequence, exchangeTime: time, receivedAt: time, snapshot: true, asks: NO_TEXT_LEVELS, bids: NO_TEXT_LEVELS };
    const askTicks = this.ampleUnits === this.ampleUnits ? this.askTicksAround(nextOpen) : Number.NaN;
    if (askTicks === askTicks) {
      const bidTicks = this.bidTicks;
      return {
        symbol, sequence, exchangeTime: time, receivedAt: time, snapshot: true, priceScale: i.priceScale, quantityScale: i.quantityScale,
        askLevels: [askTicks * i.tickUnits, this.ampleUnits], bidLevels: bidTicks > 0 ? [bidTicks * i.tickUnits, this.ampleUnits] : NO_SCALED_LEVELS,
      };
    }
    const [ask, bid] = this.levelsAround(nextOpen);
    return { symbol, sequence, exchangeTime: time, receivedAt: time, snapshot: true, asks: [[ask, this.ample]], bids: bid === undefined ? NO_TEXT_LEVELS : [[bid, this.ample]] };
  }

  /** The bid's ticks worked out by the last {@link askTicksAround} that answered a number. */
  private bidTicks = 0;

  /**
   * The ask's ticks around `open` (and the bid's in {@link bidTicks}): the ask is `open x (1 +
   * slippage)` rounded up to the tick, the bid `open x (1 - slippage)` rounded down (none when
   * that is not positive). In integers: with `O` the open in units of the price scale, the ask is
   * `ceil(O x (10000 + bps) / (10000 x tickUnits))` ticks; exact while the product is a safe
   * integer. NaN when it is not, or the slippage has a fraction: the decimal route then.
   */
  private askTicksAround(open: string): number {
    const i = this.instrument;
    const bps = this.slippageBps;
    const units = parseScaled(open, i.priceScale);
    if (bps === undefined || !Number.isSafeInteger(units) || units <= 0 || units * (10_000 + bps) > Number.MAX_SAFE_INTEGER) return Number.NaN;
    const divisor = 10_000 * i.tickUnits;
    const up = units * (10_000 + bps);
    const down = units * (10_000 - bps);
    // Truncation equals the floor for a positive product; a non-positive one has no bid anyway.
    this.bidTicks = (down - (down % divisor)) / divisor;
    return (up - (up % divisor)) / divisor + (up % divisor === 0 ? 0 : 1);
  }

  /** {@link askTicksAround}'s rule in decimals: the ask and bid prices around `open`. */
  private levelsAround(open: string): [ask: string, bid: string | undefined] {
    const i = this.instrument;
    const price = new Decimal(open);
    const ask = i.roundPricePassive('sell', price.times(ONE.plus(this.slippage)));
    const bid = i.roundPricePassive('buy', price.times(ONE.minus(this.slippage)));
    return [ask.toFixed(), bid.isPositive() && !bid.isZero() ? bid.toFixed() : undefined];
  }

  /** One synthetic trade; its price as in the candle (the venue puts an off-grid price on the grid). */
  private trade(price: DecimalString, side: 'buy' | 'sell', time: number): TradeTick {
    return { timestamp: time, id: SYNTHETIC_TRADE_ID, price, quantity: this.ample, side };
  }
}

/**
 * `a >= b` for two decimal texts: compared as integers at a scale both fit when they do (the
 * usual case), else with decimal.js.
 */
function isAtLeast(a: string, b: string): boolean {
  const scale = Math.max(decimalsOf(a), decimalsOf(b));
  const x = parseScaled(a, scale);
  const y = parseScaled(b, scale);
  if (Number.isSafeInteger(x) && Number.isSafeInteger(y)) return x >= y;
  return new Decimal(a).greaterThanOrEqualTo(b);
}
