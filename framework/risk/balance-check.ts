import type { Intent } from '../model/intent.js';
import type { CheckedOrder } from './intent-orders.js';
import type { Denial } from './denial.js';
import { Funds } from '../model/funds.js';
import { isDenial, isMarketType, type FundsNeed } from './order-reservation.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';
import { tradesOnMargin } from './trades-on-margin.js';

/**
 * Refuses an intent whose orders need more than the free funds (the ledger's balance less what
 * intents in flight and open orders hold): a limit buy needs price x quantity x (1 + max fee
 * rate) of the quote currency ("a buy order requires balance including fees", document 001), a
 * sell its base quantity, a futures or margin order its margin. Exactly the free amount passes. Spot market
 * buys are left to the market-buy reserve check (a different, strict rule). The legs of an order
 * list count as {@link fundedOrders} says: summed per currency, the largest for oneCancelOther,
 * the primary alone for oneTriggerOneCancelOther.
 */
export function balanceCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const e = evaluationOf(intent, view, config, evaluation);
  // Anything but a list makes one order at most, which funds itself.
  if (intent.kind !== 'orderList') {
    const order = e.orders[0];
    return order === undefined ? undefined : singleCheck(order, view, e);
  }
  const { orders, combine } = e.fundedOrders();
  let needs: Map<string, Funds> | undefined;
  for (const order of orders) {
    const need = checkedNeed(order, view, e);
    if (need === undefined) continue;
    if (isDenial(need)) return need;
    if (orders.length === 1) return compare(order.symbol, need.currency, need.amount, view);
    needs ??= new Map();
    const before = needs.get(need.currency) ?? Funds.ZERO;
    needs.set(need.currency, combine === 'max' ? before.max(need.amount) : before.plus(need.amount));
  }
  if (needs === undefined) return undefined;
  for (const [currency, amount] of needs) {
    const denial = compare(orders[0]?.symbol ?? '', currency, amount, view);
    if (denial !== undefined) return denial;
  }
  return undefined;
}

function singleCheck(order: CheckedOrder, view: RiskView, e: RiskEvaluation): Denial | undefined {
  const need = checkedNeed(order, view, e);
  return need === undefined || isDenial(need) ? need : compare(order.symbol, need.currency, need.amount, view);
}

/**
 * What `order` needs, as this check judges it; undefined when the check leaves it alone (an
 * unknown symbol, or a spot market buy, which the market-buy reserve check judges).
 */
function checkedNeed(order: CheckedOrder, view: RiskView, e: RiskEvaluation): FundsNeed | Denial | undefined {
  const instrument = view.instrument(order.symbol);
  if (instrument === undefined) return undefined;
  if (order.side === 'buy' && isMarketType(order.type) && !tradesOnMargin(instrument, view)) return undefined;
  return e.netFunds(order);
}

function compare(symbol: string, currency: string, amount: Funds, view: RiskView): Denial | undefined {
  if (view.coversFree(currency, amount)) return undefined;
  const free = view.freeBalance(currency);
  return { check: 'balance', reason: `${symbol}: needs ${amount.toFixed()} ${currency}, free balance ${free.toFixed()} ${currency}` };
}
