import { ParseError, UnrepresentableValueError } from '../../../framework/model/errors.js';
import type { Instrument } from '../../../framework/model/instrument.js';
import type { TradeTick } from '../../../framework/model/stream/market-records.js';
import { parseUnsignedScaled } from '../../../framework/model/parse-unsigned-scaled.js';
import { parseScaledBig } from '../../../framework/model/scaled-big.js';
import type { OutsideTrade } from './outside-trade.js';

const PLAIN_UNSIGNED = /^(\d+\.?\d*|\.\d+)$/;
/** Largest count of ticks or lots kept as a number. */
const MAX_LOTS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Turns the exact decimal text of the outside market (book levels, public trades) into the
 * integer ticks and lots of the symbol's {@link Instrument}, without decimal.js.
 *
 * - A price off the tick grid (or beyond 2^53 ticks, such as a placeholder ask far away) has no
 *   tick: {@link ticks} answers NaN and the caller skips the level. No limit order on the grid
 *   could trade there; a market order walking that far expires its remainder before it.
 * - A quantity off the lot grid is rounded down to whole lots: a fraction of a lot can never be
 *   traded by an order on the grid. A quantity beyond 2^53 - 1 lots cannot be held exactly and
 *   throws {@link UnrepresentableValueError} (naming the symbol and the text), never a cap.
 * - Text that is not a plain unsigned decimal reads as NaN; {@link checkText} then names the field
 *   in a {@link ParseError}, so the hot path never builds a path string.
 */
export class GridReader {
  private readonly priceScale: number;
  private readonly tickUnits: number;
  private readonly quantityScale: number;
  private readonly lotUnits: number;

  constructor(readonly instrument: Instrument) {
    this.priceScale = instrument.priceScale;
    this.tickUnits = instrument.tickUnits;
    this.quantityScale = instrument.quantityScale;
    this.lotUnits = instrument.lotUnits;
  }

  /** Ticks of a price text; NaN when off the grid, too large or malformed. */
  ticks(text: string): number {
    const scaled = parseUnsignedScaled(text, this.priceScale);
    if (scaled >= 0) return this.ticksOfScaled(scaled);
    return this.tickUnits !== 1 && isPlainUnsigned(text) ? this.slowTicks(text) : Number.NaN;
  }

  /** Off the fast path: a price beyond 2^53 - 1 units of the price scale may still be fewer ticks. */
  private slowTicks(text: string): number {
    const scaled = parseScaledBig(text, this.priceScale);
    if (scaled === undefined) return Number.NaN;
    const step = BigInt(this.tickUnits);
    return scaled % step === 0n && scaled / step <= MAX_LOTS ? Number(scaled / step) : Number.NaN;
  }

  /** True when values scaled at these decimals are read by {@link ticksOfScaled} and {@link lotsOfScaled}. */
  readsScales(priceScale: number, quantityScale: number): boolean {
    return priceScale === this.priceScale && quantityScale === this.quantityScale;
  }

  /** {@link ticks} of a price already scaled at the instrument's price scale. */
  ticksOfScaled(scaled: number): number {
    if (this.tickUnits === 1) return scaled;
    return scaled % this.tickUnits === 0 ? scaled / this.tickUnits : Number.NaN;
  }

  /** {@link lots} of a quantity already scaled at the instrument's quantity scale. */
  lotsOfScaled(scaled: number): number {
    if (this.lotUnits === 1) return scaled;
    return (scaled - (scaled % this.lotUnits)) / this.lotUnits;
  }

  /** Whole lots of a quantity text, rounded down; NaN only when the text is malformed; throws beyond 2^53 - 1 lots. */
  lots(text: string): number {
    const scaled = parseUnsignedScaled(text, this.quantityScale);
    if (scaled >= 0) return this.lotsOfScaled(scaled);
    return isPlainUnsigned(text) ? this.slowLots(text) : Number.NaN;
  }

  /** A public trade in ticks and lots; price NaN when off the grid (the market then skips it). */
  trade(tick: TradeTick, path = 'trade'): OutsideTrade {
    const lots = this.lots(tick.quantity);
    if (Number.isNaN(lots)) checkText(tick.quantity, `${path}.quantity`);
    const priceTicks = this.ticks(tick.price);
    if (Number.isNaN(priceTicks)) checkText(tick.price, `${path}.price`);
    return { priceTicks, lots, side: tick.side, time: tick.timestamp };
  }

  /**
   * Off the fast path (extra decimals, or more than 2^53 - 1 units of the quantity scale): whole
   * lots in BigInt, extra decimals cut (round down); more than 2^53 - 1 lots throws.
   */
  private slowLots(text: string): number {
    const dot = text.indexOf('.');
    const whole = dot < 0 ? text : text.slice(0, dot);
    const fraction = dot < 0 ? '' : text.slice(dot + 1);
    const digits = `${whole}${fraction.slice(0, this.quantityScale).padEnd(this.quantityScale, '0')}`;
    const lots = BigInt(digits === '' ? '0' : digits) / BigInt(this.lotUnits);
    if (lots > MAX_LOTS) throw new UnrepresentableValueError(this.instrument.symbol, 'quantity', text, 'is more than 2^53 - 1 lots of quantity_increment');
    return Number(lots);
  }
}

/** Throws a ParseError naming `path` unless `text` is a plain unsigned decimal. */
export function checkText(text: unknown, path: string): void {
  if (typeof text !== 'string' || !isPlainUnsigned(text)) throw new ParseError(path, 'must be an unsigned decimal number', text);
}

function isPlainUnsigned(text: string): boolean {
  return PLAIN_UNSIGNED.test(text);
}
