import { Decimal, ZERO } from '../model/decimal.js';
import type { AccountState } from '../execution/account-state.js';
import type { OrderTracker } from '../execution/order-tracker.js';
import type { Instrument } from '../model/instrument.js';
import { adoptedKey, groupKey, intentKey, legKey, type ReservationKey } from '../risk/reservation-key.js';
import type { RiskBook, OpenOrderView, RiskAccountView } from '../risk/risk-state.js';

/**
 * The reservation of an order: its intent's; for list legs the leg's, except legs of which only
 * one can execute, which share one: the legs of a oneCancelOther list, the exits of a
 * oneTriggerOneCancelOther list; an order no intent of this bot made has an adopted one.
 */
export function reservationKey(tracker: OrderTracker): ReservationKey {
  const intentId = tracker.intentId;
  if (intentId === undefined) return adoptedKey(tracker.clientOrderId);
  const leg = tracker.info.leg;
  if (leg === undefined) return intentKey(intentId);
  const contingency = tracker.order?.contingency_type;
  if (contingency === 'oneCancelOther') return groupKey(intentId, 'oneCancelOther');
  if (contingency === 'oneTriggerOneCancelOther' && leg > 0) return groupKey(intentId, 'exits');
  return legKey(intentId, leg);
}

/**
 * The risk checks' view of the account state: its active orders with their reservations, and the
 * bot's net position per symbol (the sum of its strategies' positions), read when asked, never copied.
 */
export function riskAccountView(account: AccountState, instruments: readonly Instrument[]): RiskAccountView {
  const openOrder = (tracker: OrderTracker): OpenOrderView | undefined => {
    const order = tracker.order;
    if (!tracker.active || order === undefined) return undefined;
    return {
      clientOrderId: tracker.clientOrderId, symbol: order.symbol, side: order.side, type: order.type, quantity: order.quantity,
      quantityCumulative: tracker.quantityCumulative, price: order.price, stopPrice: order.stop_price, reduceOnly: order.reduce_only,
      reservationKey: reservationKey(tracker),
    };
  };
  return {
    openOrder: (clientOrderId) => {
      const tracker = account.get(clientOrderId);
      return tracker === undefined ? undefined : openOrder(tracker);
    },
    openOrders: (symbol) => account.open(undefined, symbol).flatMap((tracker) => openOrder(tracker) ?? []),
    position: (symbol) => account.positions.net(symbol),
    positions: () => instruments.map((i) => ({ symbol: i.symbol, quantity: account.positions.net(i.symbol) ?? ZERO })),
    futuresConfig: (symbol) => account.futuresConfig(symbol),
    leverage: (symbol) => account.marginAccount(symbol)?.leverage,
    liquidationPrice: (symbol) => account.marginAccount(symbol)?.positions?.find((p) => p.symbol === symbol)?.price_liquidation,
  };
}

/**
 * The account's equity by currency: the totals as the venue last said them (available and
 * reserved; on futures reserved includes the margin held for positions, which `reserved_margin`
 * details), plus the unrealized PnL of its futures positions. The PnL is the exchange's position
 * (quantity, entry) valued at the book's mid now, so it follows the market between the exchange's
 * account reads (the exchange's own figure while the book has no mid). Assumption, as the
 * simulated venue does it (the spec does not say): the exchange already takes a position's
 * unrealized loss off `available`, so that loss, as it last reported it, is added back first.
 */
export function* accountTotals(
  account: AccountState, instruments: readonly Instrument[], book: (symbol: string) => RiskBook | undefined,
): Iterable<readonly [string, Decimal]> {
  const unrealized = unrealizedPnl(account, instruments, book);
  for (const balance of account.balances()) {
    if (balance.currency === undefined) continue;
    const total = balance.available.plus(balance.reserved);
    const pnl = unrealized?.get(balance.currency);
    yield [balance.currency, pnl === undefined ? total : total.plus(pnl)];
  }
}

/** Unrealized PnL of the account's futures and margin positions by margin currency; undefined when it holds none. */
function unrealizedPnl(account: AccountState, instruments: readonly Instrument[], book: (symbol: string) => RiskBook | undefined): Map<string, Decimal> | undefined {
  let out: Map<string, Decimal> | undefined;
  for (const instrument of instruments) {
    // Isolated accounts are known only on margin and futures accounts: a spot pair has one when traded on margin.
    const margin = account.marginAccount(instrument.symbol);
    if (instrument.info.type !== 'futures' && margin === undefined) continue;
    const position = margin?.positions?.find((p) => p.symbol === instrument.symbol);
    if (position === undefined || position.quantity.isZero()) continue;
    const mid = book(instrument.symbol)?.mid();
    const reported = position.pnl ?? ZERO;
    const atMid = mid === undefined ? reported : position.quantity.times(new Decimal(mid).minus(position.price_entry));
    const pnl = reported.isNegative() ? atMid.minus(reported) : atMid;
    const currency = margin?.currencies[0]?.code ?? instrument.quoteCurrency;
    out ??= new Map();
    out.set(currency, (out.get(currency) ?? ZERO).plus(pnl));
  }
  return out;
}
