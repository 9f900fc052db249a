import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { isDecimalString, type DecimalString } from '../../framework/model/decimal.js';
import type { CandlePeriod } from '../../framework/model/resources/candle.js';
import type { CandlesEvent, MarketEvent } from '../../framework/model/stream/market-events.js';
import { CandleCloser, closedCandles } from '../../framework/runtime/candle-closer.js';
import { trades } from './runtime-fixtures.js';

const T0 = Date.UTC(2024, 0, 1, 12, 0);
const MIN = 60_000;

function text(value: string): DecimalString {
  if (!isDecimalString(value)) throw new Error(`not a decimal: ${value}`);
  return value;
}

/** A candles event of `symbol`/`period` received at `receivedAt`, one tick per [start, close]. */
function candles(receivedAt: number, ticks: readonly (readonly [number, string])[], opts: { symbol?: string; period?: CandlePeriod; snapshot?: boolean } = {}): CandlesEvent {
  const period = opts.period ?? 'M1';
  return {
    kind: 'candles', channel: `candles/${period}`, symbol: opts.symbol ?? 'BTCUSDT', period, snapshot: opts.snapshot ?? false,
    exchangeTime: receivedAt, receivedAt,
    candles: ticks.map(([timestamp, close]) => ({
      timestamp, open: text('1'), close: text(close), high: text(close), low: text('1'), volume: text('1'), volumeQuote: text('1'),
    })),
  };
}

/** What closed: `symbol period start close` per closed candle. */
const closed = (events: readonly CandlesEvent[]): string[] =>
  events.flatMap((e) => e.candles.map((c) => `${e.symbol} ${e.period} ${(c.timestamp - T0) / MIN} ${c.close}`));

describe('CandleCloser', () => {
  it('closes a candle when the next period\'s candle arrives, with its last values', () => {
    const closer = new CandleCloser();
    expect(closer.apply(candles(T0 + 10_000, [[T0, '100']]))).toEqual([]);
    expect(closer.apply(candles(T0 + 50_000, [[T0, '101']]))).toEqual([]);
    const out = closer.apply(candles(T0 + MIN + 1_000, [[T0 + MIN, '102']]));
    expect(closed(out)).toEqual(['BTCUSDT M1 0 101']);
    // The closing event is an update stamped with the cause's times.
    expect(out[0]).toMatchObject({ snapshot: false, receivedAt: T0 + MIN + 1_000, channel: 'candles/M1' });
    expect(closer.apply(candles(T0 + MIN + 2_000, [[T0 + MIN, '103']]))).toEqual([]);
  });

  it('closes at once a candle whose period had ended when it arrived (end inclusive)', () => {
    const closer = new CandleCloser();
    expect(closer.apply(candles(T0 + MIN - 1, [[T0, '100']]))).toEqual([]);
    expect(closed(closer.apply(candles(T0 + 2 * MIN, [[T0 + MIN, '101']])))).toEqual(['BTCUSDT M1 0 100', 'BTCUSDT M1 1 101']);
  });

  it('closes a snapshot\'s history oldest first and keeps the current candle open', () => {
    const closer = new CandleCloser();
    const history = candles(T0 + 3 * MIN + 5_000, [[T0 + 2 * MIN, '22'], [T0, '20'], [T0 + 3 * MIN, '23'], [T0 + MIN, '21']], { snapshot: true });
    expect(closed(closer.apply(history))).toEqual(['BTCUSDT M1 0 20', 'BTCUSDT M1 1 21', 'BTCUSDT M1 2 22']);
    expect(closed(closer.apply(candles(T0 + 4 * MIN, [[T0 + 4 * MIN, '24']])))).toEqual(['BTCUSDT M1 3 23']);
  });

  it('ignores late updates of closed candles and of candles older than the open one', () => {
    const closer = new CandleCloser();
    closer.apply(candles(T0 + 1_000, [[T0, '100']]));
    expect(closed(closer.apply(candles(T0 + MIN, [[T0 + MIN, '101']])))).toEqual(['BTCUSDT M1 0 100']);
    expect(closer.apply(candles(T0 + MIN + 1, [[T0, '999']]))).toEqual([]);
    expect(closer.apply(candles(T0 + MIN + 2, [[T0 - MIN, '998']]))).toEqual([]);
    // The open candle is untouched by them: it closes with its own last value.
    expect(closed(closer.apply(candles(T0 + 2 * MIN + 1, [[T0 + 2 * MIN, '102']])))).toEqual(['BTCUSDT M1 1 101']);
  });

  it('keeps symbols and periods apart', () => {
    const closer = new CandleCloser();
    closer.apply(candles(T0 + 1, [[T0, '40']]));
    closer.apply(candles(T0 + 1, [[T0, '41']], { symbol: 'ETHUSDT' }));
    closer.apply(candles(T0 + 1, [[T0, '42']], { period: 'M5' }));
    expect(closed(closer.apply(candles(T0 + MIN, [[T0 + MIN, '30']], { symbol: 'ETHUSDT' })))).toEqual(['ETHUSDT M1 0 41']);
    expect(closed(closer.apply(candles(T0 + MIN, [[T0 + MIN, '30']])))).toEqual(['BTCUSDT M1 0 40']);
    expect(closed(closer.apply(candles(T0 + 5 * MIN, [[T0 + 5 * MIN, '31']], { period: 'M5' })))).toEqual(['BTCUSDT M5 0 42']);
  });
});

describe('closedCandles (marbles)', () => {
  const scheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  const label = map((e: CandlesEvent) => closed([e])[0]);

  it('emits closed candles in arrival order, history oldest first, and skips other events', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const market$ = hot<MarketEvent>('-a-t-b-c-d-|', {
        a: candles(T0 + 2 * MIN + 1, [[T0 + MIN, '11'], [T0, '10'], [T0 + 2 * MIN, '12']], { snapshot: true }),
        t: trades('BTCUSDT', T0 + 2 * MIN + 2),
        b: candles(T0 + 2 * MIN + 3, [[T0 + 2 * MIN, '12.5']]),
        c: candles(T0 + 3 * MIN, [[T0 + 3 * MIN, '13']]),
        d: candles(T0 + 3 * MIN + 1, [[T0 + 2 * MIN, '99']]),
      });
      expectObservable(closedCandles(market$).pipe(label)).toBe('-(xy)--z---|', {
        x: 'BTCUSDT M1 0 10', y: 'BTCUSDT M1 1 11', z: 'BTCUSDT M1 2 12.5',
      });
    });
  });

  it('each subscriber has its own closer, and errors pass through', () => {
    scheduler().run(({ cold, hot, expectObservable }) => {
      const src = { a: candles(T0 + 1, [[T0, '20']]), b: candles(T0 + MIN, [[T0 + MIN, '21']]) };
      const market$ = cold<MarketEvent>('a-b-#', src, new Error('feed down'));
      expectObservable(closedCandles(market$).pipe(label)).toBe('--x-#', { x: 'BTCUSDT M1 0 20' }, new Error('feed down'));
      // A late subscriber to a hot feed never saw candle 0 open: nothing to close.
      const live$ = hot<MarketEvent>('a-^-b-', src);
      expectObservable(closedCandles(live$).pipe(label)).toBe('-----');
    });
  });
});
