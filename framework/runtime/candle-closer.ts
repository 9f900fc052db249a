import { Observable } from 'rxjs';
import { candleEnd } from '../model/candle-time.js';
import type { CandleTick } from '../model/stream/market-records.js';
import type { CandlesEvent, MarketEvent } from '../model/stream/market-events.js';

/**
 * Detects closed candles in a stream of candle updates: a candle is closed when a candle of a later
 * period start arrives for the same symbol and period (the exchange keeps updating the open candle
 * and never says "closed"), or at once when its period had ended by the time it arrived (a
 * snapshot's history, so an indicator can warm up; a feed stamped at candle close). Driven by events only, never by a timer, so a
 * replay closes candles exactly where live did; the price of that is that the last candle of a
 * quiet market closes only when the next period's first update arrives.
 */
export class CandleCloser {
  private readonly open = new Map<string, CandleTick>();
  /** Start of the last candle closed per key: a late update of a closed candle changes nothing. */
  private readonly closedUpTo = new Map<string, number>();

  /** The candles `event` closes, as one closed-candles event per closed candle (usually none or one). */
  apply(event: CandlesEvent): CandlesEvent[] {
    const key = `${event.symbol}\u0000${event.period}`;
    const closed: CandlesEvent[] = [];
    const candles = event.candles.length === 1 ? event.candles : [...event.candles].sort((a, b) => a.timestamp - b.timestamp);
    for (const candle of candles) {
      if (candle.timestamp <= (this.closedUpTo.get(key) ?? Number.NEGATIVE_INFINITY)) continue;
      const current = this.open.get(key);
      if (current !== undefined && candle.timestamp < current.timestamp) continue;
      if (current !== undefined && candle.timestamp > current.timestamp) this.close(key, current, event, closed);
      // A candle whose period is over when it arrives (history, or a feed stamped at candle close) is complete now.
      if (candleEnd(candle.timestamp, event.period) <= event.receivedAt) this.close(key, candle, event, closed);
      else this.open.set(key, candle);
    }
    return closed;
  }

  private close(key: string, candle: CandleTick, cause: CandlesEvent, out: CandlesEvent[]): void {
    out.push(closedEvent(cause, candle));
    this.closedUpTo.set(key, candle.timestamp);
    if (this.open.get(key) === candle) this.open.delete(key);
  }
}

/** Closed candles of every candle channel in `market$`, in arrival order. */
export function closedCandles(market$: Observable<MarketEvent>): Observable<CandlesEvent> {
  return new Observable<CandlesEvent>((subscriber) => {
    const closer = new CandleCloser();
    return market$.subscribe({
      next: (event) => {
        if (event.kind !== 'candles') return;
        for (const closed of closer.apply(event)) subscriber.next(closed);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });
}

function closedEvent(cause: CandlesEvent, candle: CandleTick): CandlesEvent {
  return {
    kind: 'candles', channel: cause.channel, symbol: cause.symbol, period: cause.period, snapshot: false,
    exchangeTime: cause.exchangeTime, receivedAt: cause.receivedAt, candles: [candle],
  };
}
