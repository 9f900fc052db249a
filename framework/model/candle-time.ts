import type { CandlePeriod } from './resources/candle.js';

const MINUTE = 60_000;
const PERIOD_MS: Readonly<Record<Exclude<CandlePeriod, '1M'>, number>> = {
  M1: MINUTE, M3: 3 * MINUTE, M5: 5 * MINUTE, M15: 15 * MINUTE, M30: 30 * MINUTE,
  H1: 60 * MINUTE, H4: 240 * MINUTE, D1: 1440 * MINUTE, D7: 7 * 1440 * MINUTE,
};
// D7 candles start on Mondays, as exchange weekly candles do (1970-01-01 was a Thursday).
const WEEK_OFFSET = 4 * 1440 * MINUTE;

/** Start (UNIX ms, UTC) of the candle of `period` holding time `t`; `1M` is the calendar month. */
export function candleStart(t: number, period: CandlePeriod): number {
  if (period === '1M') {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const ms = PERIOD_MS[period];
  const offset = period === 'D7' ? WEEK_OFFSET : 0;
  return Math.floor((t - offset) / ms) * ms + offset;
}

/**
 * End (UNIX ms, exclusive) of the candle of `period` that starts at `start`: the first moment the
 * candle is complete, so the earliest a strategy may see it without looking ahead.
 */
export function candleEnd(start: number, period: CandlePeriod): number {
  if (period === '1M') {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + PERIOD_MS[period];
}
