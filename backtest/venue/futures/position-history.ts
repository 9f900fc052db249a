import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import type { PositionHistoryRecord } from '../../../framework/model/resources/position-history.js';
import type { AccountId } from '../venue-types.js';
import type { FuturesAccounts, FuturesPositionRecord } from './futures-accounts.js';

const NS_PER_MS = 1_000_000n;

/**
 * UNIX nanoseconds of a venue time in ms, which may carry a fraction (frames' receive times do):
 * whole ms and the fraction (to the nearest ns) are converted apart, so neither a fraction nor a
 * product beyond 2^53 goes through BigInt.
 */
export function msToNanos(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * NS_PER_MS + BigInt(Math.round((ms - whole) * 1_000_000));
}

/**
 * Positions history of the futures accounts (`GET /api/3/futures/history/positions`): a record per
 * position that closed (`closed`, or `liquidated` when the venue forced it) and one per open
 * position (`active`). Records carry the position's id, symbol, quantity (0 once closed), realized
 * PnL since it opened (fees and funding excluded), the leverage and the times; entry value and
 * price for active positions. Fields the venue does not model (bankruptcy price, margin-call flag)
 * are left out.
 */
export class PositionHistory {
  private readonly closed = new Map<AccountId, PositionHistoryRecord[]>();

  /** Records a position that just went flat. */
  close(account: AccountId, position: FuturesPositionRecord, state: 'closed' | 'liquidated', leverage: Decimal, time: number): void {
    let list = this.closed.get(account);
    if (list === undefined) {
      list = [];
      this.closed.set(account, list);
    }
    list.push({
      id: position.id,
      symbol: position.symbol,
      margin_mode: 'isolated',
      state,
      quantity: ZERO,
      pnl: position.realized,
      leverage,
      create_timestamp: msToNanos(position.createdAt),
      update_timestamp: msToNanos(time),
    });
  }

  /** The account's positions, open ones first, then closed ones newest first. */
  records(futures: FuturesAccounts, account: AccountId): PositionHistoryRecord[] {
    const active = futures.openPositions(account).map((p): PositionHistoryRecord => {
      const inst = futures.instrumentOf(p.symbol);
      const size = inst.lotsToDecimal(Math.abs(p.grid.lots));
      const entry = futures.unitsToDecimal(p.symbol, p.grid.entryUnits);
      return {
        id: p.id,
        symbol: p.symbol,
        margin_mode: 'isolated',
        state: 'active',
        quantity: inst.lotsToDecimal(p.grid.lots),
        entry_value: entry,
        entry_price: entry.dividedBy(size),
        margin: futures.positionMargin(account, p.symbol),
        pnl: p.realized,
        leverage: futures.leverage(account, p.symbol),
        create_timestamp: msToNanos(p.createdAt),
        update_timestamp: msToNanos(p.updatedAt),
      };
    });
    return [...active, ...[...(this.closed.get(account) ?? [])].reverse()];
  }
}
