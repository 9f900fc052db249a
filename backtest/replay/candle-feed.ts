import type { BookFrame } from '../../framework/exchange/book/order-book-frame.js';
import { ValidationError } from '../../framework/model/errors.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { CandlesEvent, MarketEvent } from '../../framework/model/stream/market-events.js';
import type { CandleTick } from '../../framework/model/stream/market-records.js';
import type { SimulatedVenue } from '../venue/simulated-venue.js';
import { CandleMarket } from './candle-market.js';
import type { FrameQueue } from './frame-queue.js';
import type { ParsedFrame } from './replay-market-feed.js';

/** Frames read at least when a candle's next open lies beyond those read so far. */
const LOOKAHEAD = 64;
/** Frames a candle run may read ahead for a symbol's next open (memory stays bounded). */
const MAX_CANDLE_LOOKAHEAD = 100_000;
/** A candle's next open lies beyond the frames read so far. */
const READ_FURTHER = Symbol('read further');
const NO_BOOK_FRAMES: readonly BookFrame[] = Object.freeze([]);
const NO_MARKET_EVENTS: readonly MarketEvent[] = Object.freeze([]);

/**
 * The venue's market in a candle run: for each closed candle of a frame, the synthetic trades of
 * its {@link CandleMarket}, then a book at the next candle's open, looked up among the frames the
 * replay reads ahead (its queue), however far the next candle of that symbol lies.
 */
export class CandleFeed {
  private readonly markets: ReadonlyMap<string, CandleMarket>;

  constructor(
    private readonly frames: FrameQueue,
    private readonly venue: SimulatedVenue,
    instruments: readonly Instrument[],
    slippageBps: number,
  ) {
    this.markets = new Map(instruments.map((i) => [i.symbol, new CandleMarket(i, slippageBps)]));
  }

  /**
   * Feeds the venue a frame's closed candles. Synchronous while the next opens are among the
   * frames read already (the usual case: the next frame); otherwise the promise of the rest, once
   * more frames are read.
   */
  feed(parsed: ParsedFrame, time: number, from = 0): Promise<void> | undefined {
    const events = parsed.events;
    let index = 0;
    for (let e = 0; e < events.length; e++) {
      const event = events[e]!;
      if (event.kind !== 'candles') continue;
      const market = this.markets.get(event.symbol);
      if (market === undefined) continue;
      const candles = event.candles;
      for (let c = 0; c < candles.length; c++) {
        if (index++ < from) continue;
        const candle = candles[c]!;
        const nextOpen = this.bufferedNextOpen(event, candle.timestamp);
        if (nextOpen === READ_FURTHER) {
          const resume = index;
          return this.readNextOpen(event, candle.timestamp).then((open) => {
            this.feedCandle(market, candle, open, time);
            return this.feed(parsed, time, resume);
          });
        }
        this.feedCandle(market, candle, nextOpen, time);
      }
    }
    return undefined;
  }

  private feedCandle(market: CandleMarket, candle: CandleTick, nextOpen: string | undefined, time: number): void {
    this.venue.onParsedMarket(NO_BOOK_FRAMES, [market.trades(candle, time, this.venue.hasNoOrdersOn(market.symbol))], time);
    this.venue.onParsedMarket([market.bookAround(nextOpen, time)], NO_MARKET_EVENTS, time);
  }

  /** {@link bufferedNextOpen}, reading frames until it is known. */
  private async readNextOpen(event: CandlesEvent, after: number): Promise<string | undefined> {
    for (;;) {
      const open = this.bufferedNextOpen(event, after);
      if (open !== READ_FURTHER) return open;
      await this.frames.fill(Math.max(LOOKAHEAD, 2 * this.frames.available));
    }
  }

  /**
   * The open of the next candle of `event`'s symbol and channel after `after`, looking ahead as
   * far as it takes (another symbol's frames, or hours of a gap, may come first); undefined only
   * when the recordings end before it; {@link READ_FURTHER} when the frames read so far do not
   * tell. A candle recording so dense that the next candle lies beyond
   * {@link MAX_CANDLE_LOOKAHEAD} frames is refused rather than given a wrong fill price.
   */
  private bufferedNextOpen(event: CandlesEvent, after: number): string | undefined | typeof READ_FURTHER {
    const { symbol, channel } = event;
    const frames = this.frames;
    const available = frames.available;
    for (let i = 0; i < available; i++) {
      if (i >= MAX_CANDLE_LOOKAHEAD) {
        throw new ValidationError('recordings', `must hold the next ${event.period} candle of ${symbol} after the one at ${after} within ${MAX_CANDLE_LOOKAHEAD} frames, or end sooner (the fill price of an order sent on that candle is unknown)`);
      }
      const ahead = frames.peek(i)!;
      if (ahead.books !== undefined) {
        const decoded = ahead.events;
        for (let e = 0; e < decoded.length; e++) {
          const next = decoded[e]!;
          if (next.kind !== 'candles' || next.symbol !== symbol || next.channel !== channel) continue;
          for (const c of next.candles) if (c.timestamp > after) return c.open;
        }
        continue;
      }
      const msg = ahead.msg as { ch?: unknown; update?: Record<string, unknown>; snapshot?: Record<string, unknown> };
      if (msg.ch !== channel) continue;
      const list = (msg.update ?? msg.snapshot)?.[symbol];
      if (!Array.isArray(list)) continue;
      for (const c of list as { t?: unknown; o?: unknown }[]) {
        if (typeof c.t === 'number' && c.t > after && typeof c.o === 'string') return c.o;
      }
    }
    return frames.ended ? undefined : READ_FURTHER;
  }
}
