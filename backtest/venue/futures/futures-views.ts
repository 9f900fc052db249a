import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import type { TradingBalance } from '../../../framework/model/resources/balance.js';
import type { Position } from '../../../framework/model/resources/margin-account.js';
import type { AccountId } from '../venue-types.js';
import type { FuturesAccounts, FuturesPositionRecord } from './futures-accounts.js';
import { ceilToUnit, type FuturesTerms } from './futures-terms.js';
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
 * Margin trading balances of an account: per currency, the sum over its isolated margin accounts
 * (pockets) in that currency of what `futuresBalances` shows for one pocket (every currency it
 * ever held, or `only` those). The spec shows the `margin_` balance methods only as the spot
 * methods' shapes; a total per currency is the assumed reading.
 */
export function marginBalances(margin: FuturesAccounts, account: AccountId, only?: readonly string[]): TradingBalance[] {
  const totals = new Map<string, TradingBalance>();
  for (const pocket of margin.currencies(account)) {
    const [balance] = futuresBalances(margin, account, [pocket]);
    if (balance === undefined) continue;
    const currency = margin.pocketCurrency(pocket);
    const sum = totals.get(currency);
    totals.set(currency, sum === undefined ? { ...balance, currency } : {
      currency,
      available: sum.available.plus(balance.available),
      reserved: sum.reserved.plus(balance.reserved),
      reserved_margin: (sum.reserved_margin ?? ZERO).plus(balance.reserved_margin ?? ZERO),
    });
  }
  const currencies = only ?? [...totals.keys()].sort();
  return currencies.map((currency) => totals.get(currency) ?? { currency, available: ZERO, reserved: ZERO, reserved_margin: ZERO });
}

/**
 * The API v3 Position of an open position: quantity (negative short), price_entry (entry value /
 * size, at the configured 50 digits), unrealized PnL at the mark, and the margin-call and
 * liquidation prices. Document 001 lists both prices as fields of every Position (neither is
 * optional), so both are always served:
 * - the mark price of this symbol at which its pocket reaches the threshold (`thresholdPrice`), the
 *   pocket's other positions held at their current marks (their unrealized PnL counts as cash and
 *   their threshold margins as owed; one without a mark counts for neither, as in liquidation);
 * - `0` when no positive mark price reaches it (a long whose margin covers its entry value, or a
 *   flat record): the price the position never falls to.
 */
export function positionView(futures: FuturesAccounts, record: FuturesPositionRecord, account: AccountId): Position {
  const inst = futures.instrumentOf(record.symbol);
  const lots = record.grid.lots;
  const size = inst.lotsToDecimal(Math.abs(lots));
  const entry = futures.unitsToDecimal(record.symbol, record.grid.entryUnits);
  const terms = futures.termsOf(record.symbol);
  const others = futures.openPositions(account).filter((p) => p.symbol !== record.symbol && futures.termsOf(p.symbol).pocket === terms.pocket);
  const price = (mul: (t: FuturesTerms) => Decimal): Decimal => {
    const cash = others.reduce((sum, p) => sum.plus(futures.unrealized(account, p.symbol)).minus(thresholdMargin(futures, account, p, mul)), futures.cash(account, terms.pocket));
    return thresholdPrice(lots > 0, cash, entry, size, futures.leverage(account, record.symbol).times(mul(terms)), inst.tickSize) ?? ZERO;
  };
  return {
    id: record.id,
    symbol: record.symbol,
    quantity: inst.lotsToDecimal(lots),
    price_entry: lots === 0 ? ZERO : entry.dividedBy(size),
    price_margin_call: price((t) => t.marginCallLeverageMul),
    price_liquidation: price((t) => t.liquidationLeverageMul),
    pnl: lots === 0 ? ZERO : futures.unrealized(account, record.symbol),
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/** A position's margin at a threshold: mark value / (L x the multiplier), up to the notional unit (as liquidation computes it); 0 without a mark. */
function thresholdMargin(futures: FuturesAccounts, account: AccountId, record: FuturesPositionRecord, mul: (t: FuturesTerms) => Decimal): Decimal {
  const mark = futures.markPrice(record.symbol);
  if (mark === undefined) return ZERO;
  const terms = futures.termsOf(record.symbol);
  const value = mark.times(futures.instrumentOf(record.symbol).lotsToDecimal(Math.abs(record.grid.lots)));
  return ceilToUnit(value, futures.leverage(account, record.symbol).times(mul(terms)), terms.unit);
}
