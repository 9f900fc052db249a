import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CandleLineDecoder } from '../../../backtest/recording/candle-line-decoder.js';
import { parseRecordedFrame } from '../../../backtest/recording/recording-format.js';
import { CANDLE_PERIODS } from '../../../framework/model/resources/candle.js';
import { parseMarketNotification, type MarketEvent } from '../../../framework/model/stream/market-events.js';

const decoder = new CandleLineDecoder(['BTCUSDT', 'ETHUSDT']);

function decode(line: string): ReturnType<CandleLineDecoder['decode']> {
  const bytes = Buffer.from(`garbage\n${line}\nmore`, 'utf8');
  return decoder.decode(bytes, 8, 8 + Buffer.byteLength(line));
}

/** What the general path makes of a line: JSON.parse, frame check, the live market parser; undefined when it throws. */
function general(line: string): { t: number; events: MarketEvent[] } | undefined {
  try {
    const frame = parseRecordedFrame(JSON.parse(line), 2);
    return { t: frame.t, events: parseMarketNotification(frame.msg, frame.t) };
  } catch {
    return undefined;
  }
}

const canonical = (t: number, ch: string, kind: 'snapshot' | 'update', entries: Record<string, unknown>): string =>
  JSON.stringify({ t, src: 'ws/public', msg: { ch, [kind]: entries } });

const CANDLE = { t: 1704067200000, o: '60000.01', c: '60010.5', h: '60020', l: '59990.00', v: '1.5', q: '90015.75' };

describe('CandleLineDecoder', () => {
  it('decodes the recorder layout to the events the live parser builds, with the frame time JSON.parse reads', () => {
    const line = canonical(1704067260000.25, 'candles/M1', 'update', { BTCUSDT: [CANDLE] });
    const decoded = decode(line);
    expect(decoded?.t).toBe(JSON.parse(line).t);
    expect(decoded?.books).toEqual([]);
    expect(decoded?.events).toEqual(general(line)?.events);
    expect(decoded?.events[0]).toMatchObject({ kind: 'candles', channel: 'candles/M1', period: 'M1', symbol: 'BTCUSDT', exchangeTime: CANDLE.t });
  });

  it('decodes snapshots, several candles and symbols, keys in any order, empty lists and every period as the live parser does', () => {
    const candle = fc.record({
      t: fc.integer({ min: 0, max: 2 ** 45 }),
      o: fc.stringMatching(/^\d{1,9}(\.\d{1,8})?$/), c: fc.stringMatching(/^\d{1,9}(\.\d{1,8})?$/), h: fc.stringMatching(/^\d{1,9}(\.\d{1,8})?$/),
      l: fc.stringMatching(/^\d{1,9}(\.\d{1,8})?$/), v: fc.constantFrom('1.5', '0', '12.25'), q: fc.stringMatching(/^\d{1,12}(\.\d{1,3})?$/),
    });
    const reordered = candle.chain((c) => fc.shuffledSubarray(Object.keys(c), { minLength: 7, maxLength: 7 })
      .map((keys) => Object.fromEntries(keys.map((k) => [k, c[k as keyof typeof c]]))));
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 2 ** 45 }), fc.constantFrom(...CANDLE_PERIODS), fc.constantFrom('snapshot' as const, 'update' as const),
      fc.array(reordered, { maxLength: 4 }), fc.option(fc.array(reordered, { maxLength: 2 }), { nil: undefined }),
      (t, period, kind, btc, eth) => {
        const line = canonical(t, `candles/${period}`, kind, eth === undefined ? { BTCUSDT: btc } : { BTCUSDT: btc, ETHUSDT: eth });
        const decoded = decode(line);
        expect(decoded).toBeDefined();
        expect(decoded?.t).toBe(t);
        expect(decoded?.events).toEqual(general(line)?.events);
      },
    ), { numRuns: 300 });
  });

  it('hands the same text again for a value its key had in the last candle, equal either way', () => {
    const first = decode(canonical(1, 'candles/M1', 'update', { BTCUSDT: [CANDLE] }))!.events[0]!;
    const second = decode(canonical(2, 'candles/M1', 'update', { BTCUSDT: [{ ...CANDLE, t: CANDLE.t + 60_000, o: '60000.02' }] }))!.events[0]!;
    expect(first.kind === 'candles' && second.kind === 'candles').toBe(true);
    if (first.kind !== 'candles' || second.kind !== 'candles') return;
    expect(second.candles[0]).toEqual({ ...first.candles[0], timestamp: CANDLE.t + 60_000, open: '60000.02' });
  });

  it('leaves every other line to the general parser', () => {
    const refused = [
      JSON.stringify({ t: 1, src: 'ws/public', msg: { ch: 'trades', update: { BTCUSDT: [] } } }),
      JSON.stringify({ src: 'ws/public', t: 1, msg: { ch: 'candles/M1', update: { BTCUSDT: [CANDLE] } } }),
      JSON.stringify({ t: 1, src: 'ws/trading', msg: { ch: 'candles/M1', update: { BTCUSDT: [CANDLE] } } }),
      canonical(1, 'candles/M2', 'update', { BTCUSDT: [CANDLE] }), // no such period
      canonical(1, 'candles/M1', 'update', { XRPUSDT: [CANDLE] }), // not a symbol of the run
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [{ ...CANDLE, o: '-1' }] }),
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [{ ...CANDLE, o: '1e3' }] }),
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [{ ...CANDLE, o: 1 }] }),
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [{ ...CANDLE, t: '2024-01-01T00:00:00Z' }] }),
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [{ ...CANDLE, x: 1 }] }), // a key the recorder does not write
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [{ t: 1, o: '1', c: '1', h: '1', l: '1', v: '1' }] }), // q missing
      canonical(1, 'candles/M1', 'update', { BTCUSDT: CANDLE }), // not a list
      JSON.stringify({ t: 1, src: 'ws/public', msg: { ch: 'candles/M1', update: { BTCUSDT: [CANDLE] } } }, null, 1),
      `${canonical(1, 'candles/M1', 'update', { BTCUSDT: [CANDLE] })} `,
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [CANDLE] }).replace('"o":"60000.01"', '"o":"60000.01","o":"1"'),
      canonical(1, 'candles/M1', 'update', { BTCUSDT: [CANDLE] }).replace('{"BTCUSDT":[', '{"BTCUSDT":[],"BTCUSDT":['),
      JSON.stringify({ t: 1, src: 'ws/public', msg: { ch: 'candles/M1', update: { BTCUSDT: [CANDLE] }, extra: 1 } }),
    ];
    for (const line of refused) expect(decode(line), line).toBeUndefined();
  });

  it('takes a line only where the general parser takes it too', () => {
    for (const line of [canonical(1, 'candles/M1', 'update', { BTCUSDT: [CANDLE] }), canonical(1, 'candles/D7', 'snapshot', { BTCUSDT: [], ETHUSDT: [CANDLE] })]) {
      expect(decode(line)).toBeDefined();
      expect(general(line)).toBeDefined();
    }
  });
});
