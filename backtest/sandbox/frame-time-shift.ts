import type { TradesEvent } from '../../framework/model/stream/market-events.js';
import type { RecordedFrame } from '../recording/recording-format.js';

const PAYLOAD_KEYS = ['snapshot', 'update', 'data'] as const;

/**
 * `frame` with every time it carries moved by `ms`: the local receive time and the exchange time
 * `t` of each record of a public notification (book entries, trades, candles, tickers: each is
 * keyed by symbol, an object or an array of objects with a numeric `t`). Other fields and frames
 * that are not notifications are kept as they are. Builds new objects; the input is not changed.
 */
export function shiftFrameTimes(frame: RecordedFrame, ms: number): RecordedFrame {
  if (ms === 0) return frame;
  return { t: frame.t + ms, src: frame.src, msg: shiftNotification(frame.msg, ms) };
}

function shiftNotification(msg: unknown, ms: number): unknown {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return msg;
  const out: Record<string, unknown> = { ...(msg as Record<string, unknown>) };
  for (const key of PAYLOAD_KEYS) {
    const payload = out[key];
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) continue;
    const shifted: Record<string, unknown> = {};
    for (const [symbol, value] of Object.entries(payload as Record<string, unknown>)) {
      shifted[symbol] = Array.isArray(value) ? value.map((record) => shiftRecord(record, ms)) : shiftRecord(value, ms);
    }
    out[key] = shifted;
  }
  return out;
}

function shiftRecord(record: unknown, ms: number): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  const t = (record as { t?: unknown }).t;
  return typeof t === 'number' ? { ...record, t: t + ms } : record;
}

/**
 * Decoded trades events with the exchange times of their trades moved by `ms` (a loop's later lap):
 * the venue compares a trade's time with the time its resting orders joined the book.
 */
export function shiftTradeTimes(events: readonly TradesEvent[], ms: number): readonly TradesEvent[] {
  if (ms === 0 || events.length === 0) return events;
  return events.map((event) => ({
    ...event, exchangeTime: event.exchangeTime + ms, trades: event.trades.map((trade) => ({ ...trade, timestamp: trade.timestamp + ms })),
  }));
}
