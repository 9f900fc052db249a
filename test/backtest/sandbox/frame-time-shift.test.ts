import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordedFrame } from '../../../backtest/recording/recording-format.js';
import { shiftFrameTimes } from '../../../backtest/sandbox/frame-time-shift.js';

const time = fc.integer({ min: 1_000_000_000_000, max: 2_000_000_000_000 });
const record = fc.record({ t: time, p: fc.constantFrom('1.5', '0.0008788'), s: fc.nat() });
const payload = fc.dictionary(fc.constantFrom('BTCUSDT', 'ETHUSDT', 'NEOBTC'), fc.oneof(record, fc.array(record, { maxLength: 4 })));
const notification = fc.record({ ch: fc.constantFrom('trades', 'orderbook/full', 'ticker/1s'), key: fc.constantFrom('snapshot', 'update', 'data'), payload });

describe('shiftFrameTimes', () => {
  it('moves the receive time and every record time by the shift, and nothing else', () => {
    fc.assert(fc.property(time, notification, fc.integer({ min: -1e12, max: 1e12 }), (t, n, ms) => {
      const frame: RecordedFrame = { t, src: 'ws/public', msg: { ch: n.ch, [n.key]: n.payload } };
      const before = structuredClone(frame);
      const shifted = shiftFrameTimes(frame, ms);
      expect(frame).toEqual(before);
      expect(shifted.t).toBe(t + ms);
      const out = (shifted.msg as Record<string, Record<string, unknown>>)[n.key]!;
      expect(Object.keys(out)).toEqual(Object.keys(n.payload));
      for (const [symbol, value] of Object.entries(n.payload)) {
        const expected = Array.isArray(value) ? value.map((r) => ({ ...r, t: r.t + ms })) : { ...value, t: value.t + ms };
        expect(out[symbol]).toEqual(expected);
      }
    }));
  });

  it('leaves frames that are not notifications (acknowledgements) as they are', () => {
    const ack: RecordedFrame = { t: 5, src: 'ws/public', msg: { result: { ch: 'trades', subscriptions: ['BTCUSDT'] }, id: 1 } };
    expect(shiftFrameTimes(ack, 10)).toEqual({ ...ack, t: 15 });
    expect(shiftFrameTimes(ack, 0)).toBe(ack);
  });
});
