import type { Side } from '../../../framework/model/instrument.js';

/**
 * A futures position on the integer grid of its instrument: a signed lot count (negative is short)
 * and the entry value of the open lots in notional units (one unit is tick_size x quantity_increment,
 * so price ticks x lots is exact). Entry value rather than entry price keeps every step exact: the
 * weighted average entry price (`entryUnits / |lots|`) is derived for display only.
 */
export interface PositionGrid {
  /** Signed open quantity in lots; 0 when flat. */
  readonly lots: number;
  /** Entry value of the open lots in ticks x lots (0 when flat); never negative. */
  readonly entryUnits: bigint;
}

/** What one fill did to a position. */
export interface PositionFillEffect {
  readonly next: PositionGrid;
  /** Realized profit (negative: loss) of the closed part, in ticks x lots. */
  readonly realizedUnits: bigint;
  /** Lots of the fill that reduced the existing position. */
  readonly closedLots: number;
  /** Lots of the fill that opened or added (after a flip, the new side's quantity). */
  readonly openedLots: number;
}

/** A flat position. */
export const FLAT: PositionGrid = Object.freeze({ lots: 0, entryUnits: 0n });

/**
 * Applies one fill of `lots` at `priceTicks` on `side` to a position:
 * - open or add (same direction, or flat): the entry value grows by price x lots;
 * - reduce (opposite direction, up to the open size): the closed lots take their share of the entry
 *   value, `entryUnits x closed / open` rounded toward zero (the remainder stays with the open lots,
 *   so closing the whole position realizes exactly the sum of exits minus the sum of entries), and
 *   realize `(exit - entry share)` for a long, `(entry share - exit)` for a short;
 * - flip (opposite and larger): closes the whole position as above, then opens the rest at the fill
 *   price.
 * Pure: integers only (bigint for values), no rounding other than the stated one.
 */
export function applyFill(position: PositionGrid, side: Side, lots: number, priceTicks: number): PositionFillEffect {
  if (!Number.isSafeInteger(lots) || lots <= 0) throw new RangeError(`fill lots must be a positive safe integer, got ${lots}`);
  if (!Number.isSafeInteger(priceTicks) || priceTicks <= 0) throw new RangeError(`fill price ticks must be a positive safe integer, got ${priceTicks}`);
  const direction = side === 'buy' ? 1 : -1;
  const open = Math.abs(position.lots);
  const price = BigInt(priceTicks);
  if (position.lots === 0 || Math.sign(position.lots) === direction) {
    const nextLots = position.lots + direction * lots;
    if (!Number.isSafeInteger(nextLots)) throw new RangeError(`position of ${nextLots} lots is beyond 2^53 - 1`);
    return { next: { lots: nextLots, entryUnits: position.entryUnits + price * BigInt(lots) }, realizedUnits: 0n, closedLots: 0, openedLots: lots };
  }
  const closed = Math.min(open, lots);
  const closedEntry = (position.entryUnits * BigInt(closed)) / BigInt(open);
  const exit = price * BigInt(closed);
  // A long (position.lots > 0) is closed by a sell: profit when the exit exceeds the entry.
  const realizedUnits = position.lots > 0 ? exit - closedEntry : closedEntry - exit;
  const openedLots = lots - closed;
  if (closed === open) {
    const next = openedLots === 0 ? FLAT : { lots: direction * openedLots, entryUnits: price * BigInt(openedLots) };
    return { next, realizedUnits, closedLots: closed, openedLots };
  }
  return {
    next: { lots: position.lots + direction * closed, entryUnits: position.entryUnits - closedEntry },
    realizedUnits,
    closedLots: closed,
    openedLots: 0,
  };
}

/** True when a fill of `side` would increase the absolute size of the position (or open one). */
export function increases(position: PositionGrid, side: Side): boolean {
  return position.lots === 0 || (position.lots > 0) === (side === 'buy');
}
