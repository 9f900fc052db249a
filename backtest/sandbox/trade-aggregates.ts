import { Decimal, toWire } from '../../framework/model/decimal.js';
import { candleStart } from '../../framework/model/candle-time.js';
import type { CandlePeriod } from '../../framework/model/resources/candle.js';

export { candleStart };

const DAY_MS = 86_400_000;

/** A public trade as the `trades` channel sends it. */
export interface WireTrade {
  readonly t: number;
  readonly i: number | string;
  readonly p: string;
  readonly q: string;
  readonly s: string;
}

/** A candle in the stream's wire shape (`candles/{period}`). */
export interface WireCandle {
  readonly t: number;
  readonly o: string;
  readonly c: string;
  readonly h: string;
  readonly l: string;
  readonly v: string;
  readonly q: string;
}

/**
 * Folds trades (in time order) into candles of `period`, oldest first. Exact decimal arithmetic:
 * this runs per request or per subscribed trade, not per book update.
 */
export function buildCandles(trades: readonly WireTrade[], period: CandlePeriod): WireCandle[] {
  const out: WireCandle[] = [];
  let current: CandleAccumulator | undefined;
  for (const trade of trades) {
    const start = candleStart(trade.t, period);
    if (current === undefined || current.start !== start) {
      if (current) out.push(current.toWire());
      current = new CandleAccumulator(start, trade);
    } else {
      current.add(trade);
    }
  }
  if (current) out.push(current.toWire());
  return out;
}

/** One candle being built. */
export class CandleAccumulator {
  private readonly open: Decimal;
  private close: Decimal;
  private high: Decimal;
  private low: Decimal;
  private volume: Decimal;
  private volumeQuote: Decimal;

  constructor(
    readonly start: number,
    first: WireTrade,
  ) {
    const p = new Decimal(first.p);
    const q = new Decimal(first.q);
    this.open = this.close = this.high = this.low = p;
    this.volume = q;
    this.volumeQuote = p.times(q);
  }

  /** Adds a later trade of the same candle. */
  add(trade: WireTrade): void {
    const p = new Decimal(trade.p);
    const q = new Decimal(trade.q);
    this.close = p;
    if (p.gt(this.high)) this.high = p;
    if (p.lt(this.low)) this.low = p;
    this.volume = this.volume.plus(q);
    this.volumeQuote = this.volumeQuote.plus(p.times(q));
  }

  toWire(): WireCandle {
    return {
      t: this.start, o: toWire(this.open), c: toWire(this.close), h: toWire(this.high), l: toWire(this.low),
      v: toWire(this.volume), q: toWire(this.volumeQuote),
    };
  }
}

/** 24-hour statistics of a symbol from its trades (REST ticker and `ticker/{speed}`). */
export interface TradeStats {
  readonly open: string | null;
  readonly last: string | null;
  readonly high: string;
  readonly low: string;
  readonly volume: string;
  readonly volumeQuote: string;
  readonly lastTradeId: number | string | undefined;
}

/** Statistics of the trades within 24 h before `now` (trades in time order). */
export function tradeStats(trades: readonly WireTrade[], now: number): TradeStats {
  const since = now - DAY_MS;
  let high: Decimal | undefined;
  let low: Decimal | undefined;
  let volume = new Decimal(0);
  let volumeQuote = new Decimal(0);
  let open: string | null = null;
  for (const trade of trades) {
    if (trade.t < since) continue;
    const p = new Decimal(trade.p);
    const q = new Decimal(trade.q);
    open ??= trade.p;
    if (high === undefined || p.gt(high)) high = p;
    if (low === undefined || p.lt(low)) low = p;
    volume = volume.plus(q);
    volumeQuote = volumeQuote.plus(p.times(q));
  }
  const last = trades[trades.length - 1];
  return {
    open,
    last: last?.p ?? null,
    high: high ? toWire(high) : '0',
    low: low ? toWire(low) : '0',
    volume: toWire(volume),
    volumeQuote: toWire(volumeQuote),
    lastTradeId: last?.i,
  };
}
