import { formatScaledBig } from '../../../framework/model/scaled-big.js';
import type { Instrument } from '../../../framework/model/instrument.js';

/** A `candles/M1` entry as the exchange sends it: open time and exact decimal text. */
export interface CandleWire {
  readonly t: number;
  readonly o: string;
  readonly c: string;
  readonly h: string;
  readonly l: string;
  /** Base volume. */
  readonly v: string;
  /** Quote volume, sum of price x quantity, exact. */
  readonly q: string;
}

const MINUTE_MS = 60_000;

/**
 * The running one-minute candle of a symbol, built from its trades in integer ticks and lots.
 * The quote volume sums price x quantity as a BigInt at the combined scale, so it is exact however
 * much trades in a minute.
 */
export class M1Candle {
  private openTime = Number.NaN;
  private open = 0;
  private close = 0;
  private high = 0;
  private low = 0;
  private volumeLots = 0;
  private quoteScaled = 0n;

  constructor(private readonly instrument: Instrument) {}

  /** Adds a trade at exchange time `ms`; a new minute starts a new candle. */
  trade(ms: number, tick: number, lots: number): void {
    const minute = ms - (ms % MINUTE_MS);
    if (minute !== this.openTime) {
      this.openTime = minute;
      this.open = tick;
      this.high = tick;
      this.low = tick;
      this.volumeLots = 0;
      this.quoteScaled = 0n;
    }
    this.close = tick;
    if (tick > this.high) this.high = tick;
    if (tick < this.low) this.low = tick;
    this.volumeLots += lots;
    const { tickUnits, lotUnits } = this.instrument;
    this.quoteScaled += BigInt(tick * tickUnits) * BigInt(lots * lotUnits);
  }

  /** The candle as a wire entry; undefined before the first trade. */
  toWire(): CandleWire | undefined {
    if (Number.isNaN(this.openTime)) return undefined;
    const i = this.instrument;
    return {
      t: this.openTime,
      o: i.ticksToPrice(this.open),
      c: i.ticksToPrice(this.close),
      h: i.ticksToPrice(this.high),
      l: i.ticksToPrice(this.low),
      v: i.lotsToQuantity(this.volumeLots),
      q: formatScaledBig(this.quoteScaled, i.priceScale + i.quantityScale),
    };
  }
}
