import type { Decimal } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';

/** Entries kept per instrument and kind before the memo starts over (bounds memory on long runs). */
const MAX_ENTRIES = 4096;

interface Memo {
  readonly ticks: Map<number, Decimal>;
  readonly lots: Map<number, Decimal>;
}

const memos = new WeakMap<Instrument, Memo>();

function memoOf(instrument: Instrument): Memo {
  let memo = memos.get(instrument);
  if (memo === undefined) {
    memo = { ticks: new Map(), lots: new Map() };
    memos.set(instrument, memo);
  }
  return memo;
}

function remember(map: Map<number, Decimal>, n: number, value: Decimal): Decimal {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(n, value);
  return value;
}

/**
 * `instrument.ticksToDecimal(ticks)`, shared per value. Reports and reservations turn the same few
 * prices into Decimals again and again (a quote moves among nearby ticks); Decimals are immutable,
 * so one instance per tick count serves every caller and skips the text round trip.
 */
export function ticksDecimal(instrument: Instrument, ticks: number): Decimal {
  const map = memoOf(instrument).ticks;
  return map.get(ticks) ?? remember(map, ticks, instrument.ticksToDecimal(ticks));
}

/** `instrument.lotsToDecimal(lots)`, shared per value (see {@link ticksDecimal}). */
export function lotsDecimal(instrument: Instrument, lots: number): Decimal {
  const map = memoOf(instrument).lots;
  return map.get(lots) ?? remember(map, lots, instrument.lotsToDecimal(lots));
}
