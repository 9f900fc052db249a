import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import type { TradingBalance } from '../../../framework/model/resources/balance.js';
import type { Position } from '../../../framework/model/resources/margin-account.js';
import type { AccountId } from '../venue-types.js';
import type { FuturesAccounts, FuturesPositionRecord } from './futures-accounts.js';
import { thresholdPrice } from './position-prices.js';

/**
 * Futures trading balances of an account (every margin currency it ever held, or `only` those):
 * available as `FuturesAccounts.available`, reserved = order margin + position margin, and
 * reserved_margin = position margin.
 */
export function futuresBalances(futures: FuturesAccounts, account: AccountId, only?: readonly string[]): TradingBalance[] {
  return (only ?? futures.currencies(account)).map((currency) => {
    const positions = futures.positionsReserved(account, currency);
    return {
      currency,
      available: futures.available(account, currency),
      reserved: futures.ordersReserved(account, currency).plus(positions),
      reserved_margin: positions,
    };
  });
}

/**
 * The API v3 Position of an open position: quantity (negative short), price_entry (entry value /
 * size, at the configured 50 digits), unrealized PnL at the mark and, when it is the account's only
 * position in its margin currency, the margin-call and liquidation prices (`thresholdPrice`).
 */
export function positionView(futures: FuturesAccounts, record: FuturesPositionRecord, account: AccountId): Position {
  const inst = futures.instrumentOf(record.symbol);
  const lots = record.grid.lots;
  const size = inst.lotsToDecimal(Math.abs(lots));
  const entry = futures.unitsToDecimal(record.symbol, record.grid.entryUnits);
  const terms = futures.termsOf(record.symbol);
  const alone = futures.openPositions(account).filter((p) => futures.termsOf(p.symbol).marginCurrency === terms.marginCurrency).length === 1;
  const price = (mul: Decimal): Decimal | undefined => (alone
    ? thresholdPrice(lots > 0, futures.cash(account, terms.marginCurrency), entry, size, futures.leverage(account, record.symbol).times(mul), inst.tickSize)
    : undefined);
  return {
    id: record.id,
    symbol: record.symbol,
    quantity: inst.lotsToDecimal(lots),
    price_entry: lots === 0 ? ZERO : entry.dividedBy(size),
    price_margin_call: price(terms.marginCallLeverageMul),
    price_liquidation: price(terms.liquidationLeverageMul),
    pnl: lots === 0 ? ZERO : futures.unrealized(account, record.symbol),
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}
