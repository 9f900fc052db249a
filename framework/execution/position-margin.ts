import { ZERO, type Decimal } from '../model/decimal.js';
import type { PositionMargin, PositionView } from '../model/position.js';
import type { MarginAccount } from '../model/resources/margin-account.js';

/**
 * A position as a strategy sees it: the quantity, average and realized PnL its own fills made,
 * with the symbol's isolated account as the exchange reported it (leverage, margin, the
 * exchange's position with entry, liquidation price and unrealized PnL). A symbol with an account
 * but no fills of the strategy shows a flat position with its margin terms.
 */
export function withMargin(symbol: string, own: PositionView | undefined, account: MarginAccount | undefined): PositionView | undefined {
  if (account === undefined) return own;
  const margin = positionMargin(account);
  return own === undefined ? { symbol, quantity: ZERO, realizedPnl: ZERO, margin } : { ...own, margin };
}

/** The margin terms of an isolated account: its first currency is the margin currency (one per account). */
export function positionMargin(account: MarginAccount): PositionMargin {
  const currency = account.currencies[0];
  const position = account.positions?.find((p) => p.symbol === account.symbol);
  return {
    leverage: account.leverage, marginCurrency: currency?.code ?? '', marginBalance: currency?.margin_balance ?? ZERO,
    positionMargin: currency?.reserved_positions ?? ZERO, ordersMargin: currency?.reserved_orders ?? ZERO,
    exchangeQuantity: position?.quantity ?? ZERO, entryPrice: position?.price_entry, unrealizedPnl: position?.pnl,
    // The exchange says 0 when no mark price reaches the threshold (a covered long): there is none.
    liquidationPrice: priceOrNone(position?.price_liquidation), marginCallPrice: priceOrNone(position?.price_margin_call), updatedAt: account.updated_at,
  };
}

function priceOrNone(price: Decimal | undefined): Decimal | undefined {
  return price === undefined || price.isZero() ? undefined : price;
}
