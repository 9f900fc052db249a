import type { ClearingRecord } from '../../framework/model/resources/clearing.js';
import type { MarginAccount, Position } from '../../framework/model/resources/margin-account.js';
import type { PositionHistoryRecord } from '../../framework/model/resources/position-history.js';
import { idToWire, msToIso, wireRecord } from '../../framework/model/resources/wire-values.js';
import { positionConfigOf, type FuturesTerms } from '../venue/futures/futures-terms.js';

/**
 * Wire forms of the futures resources (document 001: Margin / futures account, Position, Position
 * history record, Clearing detail record) as the exchange sends them: decimals as text, DateTimes as
 * ISO 8601, ids as numbers when they are safe integers. Nanosecond timestamps go out as digit text:
 * they exceed 2^53, so a JSON number would lose their last digits.
 */

/** Wire form of an open position. */
export function positionToWire(position: Position): Record<string, unknown> {
  return wireRecord({
    ...position,
    id: idToWire(position.id),
    created_at: msToIso(position.created_at),
    updated_at: msToIso(position.updated_at),
  });
}

/** Wire form of a futures margin account (`positions` null when none is open). */
export function marginAccountToWire(account: MarginAccount): Record<string, unknown> {
  return wireRecord({
    ...account,
    created_at: msToIso(account.created_at),
    updated_at: msToIso(account.updated_at),
    currencies: account.currencies.map((c) => wireRecord({ ...c })),
    positions: account.positions === null ? null : account.positions.map(positionToWire),
  });
}

/** Wire form of a position history record. */
export function positionHistoryToWire(record: PositionHistoryRecord): Record<string, unknown> {
  return wireRecord({
    ...record,
    id: idToWire(record.id),
    create_timestamp: record.create_timestamp.toString(),
    update_timestamp: record.update_timestamp.toString(),
  });
}

/** Wire form of a clearing (funding) record. */
export function clearingToWire(record: ClearingRecord): Record<string, unknown> {
  return wireRecord({
    ...record,
    timestamp: record.timestamp.toString(),
    position_id: record.position_id === undefined ? undefined : idToWire(record.position_id),
    trade_id: record.trade_id === undefined ? undefined : idToWire(record.trade_id),
  });
}

/** Wire form of a contract's position configuration from the venue's terms (see {@link positionConfigOf}). */
export function futuresConfigToWire(terms: FuturesTerms): Record<string, unknown> {
  return wireRecord({ ...positionConfigOf(terms) });
}
