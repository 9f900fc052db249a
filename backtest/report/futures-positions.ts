import { Decimal, ZERO } from '../../framework/model/decimal.js';
import type { ClearingRecord } from '../../framework/model/resources/clearing.js';
import type { PositionHistoryRecord } from '../../framework/model/resources/position-history.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';

/** One futures position of a run, from its first execution to flat (or to the end of the run). */
export interface FuturesPositionRow {
  readonly symbol: string;
  readonly positionId: string;
  /** The direction it opened in (a flip through zero in one execution keeps the venue's position id). */
  readonly side: 'long' | 'short';
  /** `closed`, `liquidated`, or `active` when the run ended with it open. */
  readonly state: string;
  readonly openedAt: number;
  /** Time of its last execution when it ended flat; undefined while open. */
  readonly closedAt?: number;
  /** Largest size it reached (absolute). */
  readonly maxQuantity: Decimal;
  /** Average price of the executions that opened or added to it (averages: {@link AVERAGE_PLACES} decimals). */
  readonly entryPrice: Decimal;
  /** Average price of the executions that reduced it; undefined when none did. */
  readonly exitPrice?: Decimal;
  /** Realized PnL of its executions as the venue booked them (fees and funding not included). */
  readonly realized: Decimal;
  /** Fees of its executions (negative: rebates), force-close fees of a liquidation included. */
  readonly fees: Decimal;
  /** Funding it received (positive) or paid (negative). */
  readonly funding: Decimal;
  /** realized - fees + funding. */
  readonly net: Decimal;
}

/** Decimal places of average prices, rounded half-even (a quotient has no exact finite form in general). */
export const AVERAGE_PLACES = 12;

interface Building {
  symbol: string;
  positionId: string;
  side: 'long' | 'short';
  openedAt: number;
  lastAt: number;
  signed: Decimal;
  maxQuantity: Decimal;
  openQuantity: Decimal;
  openValue: Decimal;
  closeQuantity: Decimal;
  closeValue: Decimal;
  realized: Decimal;
  fees: Decimal;
}

/**
 * The run's futures positions, in the order they opened, from the account's trade history (its
 * executions with their `position_id` and `pnl`), its clearing records (funding, by `position_id`)
 * and its positions history (each position's final state). An execution that crosses zero is split:
 * the part up to flat reduces, the rest opens the other way (same position id, as the venue keeps
 * it). Executions without a position id (spot) are left out. Exact: Decimal throughout.
 */
export function futuresPositionRows(
  trades: readonly TradeHistoryRecord[],
  clearing: readonly ClearingRecord[],
  history: readonly PositionHistoryRecord[],
): FuturesPositionRow[] {
  const byId = new Map<string, Building>();
  const ordered = [...trades].sort((a, b) => a.timestamp - b.timestamp || compareIds(a.id, b.id));
  for (const trade of ordered) {
    if (trade.position_id === undefined) continue;
    const signedQuantity = trade.side === 'buy' ? trade.quantity : trade.quantity.negated();
    let p = byId.get(trade.position_id);
    if (p === undefined) {
      p = {
        symbol: trade.symbol, positionId: trade.position_id, side: trade.side === 'buy' ? 'long' : 'short', openedAt: trade.timestamp,
        lastAt: trade.timestamp, signed: ZERO, maxQuantity: ZERO, openQuantity: ZERO, openValue: ZERO, closeQuantity: ZERO, closeValue: ZERO,
        realized: ZERO, fees: ZERO,
      };
      byId.set(trade.position_id, p);
    }
    const reducing = !p.signed.isZero() && p.signed.isNegative() !== signedQuantity.isNegative();
    const closing = reducing ? Decimal.min(p.signed.abs(), trade.quantity) : ZERO;
    const opening = trade.quantity.minus(closing);
    p.closeQuantity = p.closeQuantity.plus(closing);
    p.closeValue = p.closeValue.plus(closing.times(trade.price));
    p.openQuantity = p.openQuantity.plus(opening);
    p.openValue = p.openValue.plus(opening.times(trade.price));
    p.signed = p.signed.plus(signedQuantity);
    if (p.signed.abs().greaterThan(p.maxQuantity)) p.maxQuantity = p.signed.abs();
    p.realized = p.realized.plus(trade.pnl ?? ZERO);
    p.fees = p.fees.plus(trade.fee);
    p.lastAt = trade.timestamp;
  }
  const funding = new Map<string, Decimal>();
  for (const record of clearing) {
    if (record.type !== 'funding' || record.position_id === undefined) continue;
    funding.set(record.position_id, (funding.get(record.position_id) ?? ZERO).plus(record.amount));
  }
  const states = new Map(history.map((r) => [r.id, r.state]));
  return [...byId.values()].map((p): FuturesPositionRow => {
    const state = states.get(p.positionId) ?? (p.signed.isZero() ? 'closed' : 'active');
    const paid = funding.get(p.positionId) ?? ZERO;
    return {
      symbol: p.symbol,
      positionId: p.positionId,
      side: p.side,
      state,
      openedAt: p.openedAt,
      ...(state === 'active' ? {} : { closedAt: p.lastAt }),
      maxQuantity: p.maxQuantity,
      entryPrice: p.openQuantity.isZero() ? ZERO : average(p.openValue, p.openQuantity),
      ...(p.closeQuantity.isZero() ? {} : { exitPrice: average(p.closeValue, p.closeQuantity) }),
      realized: p.realized,
      fees: p.fees,
      funding: paid,
      net: p.realized.minus(p.fees).plus(paid),
    };
  });
}

function average(value: Decimal, quantity: Decimal): Decimal {
  return value.dividedBy(quantity).toDecimalPlaces(AVERAGE_PLACES, Decimal.ROUND_HALF_EVEN);
}

/** Numeric ids in numeric order (the venue counts them up), others as text. */
function compareIds(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isSafeInteger(x) && Number.isSafeInteger(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}
