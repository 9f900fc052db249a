import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import { Funds } from '../model/funds.js';
import { fundsFor, isDenial, isMarketType } from './order-reservation.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';
import { tradesOnMargin } from './trades-on-margin.js';

/**
 * Document 001: a spot market buy requires an available balance strictly greater than
 * price x quantity x 1.1 + price x quantity x 1.1 x max(take_rate, make_rate); else the exchange
 * answers 20001. The price is taken from the book (see `marketBuyNotional`: the cost of walking
 * the asks, best ask x quantity when the top level suffices); stop and take-profit market buys use
 * their stop price. Refusing here saves the round trip and keeps the reserve in our own ledger.
 */
export function marketBuyReserveCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  let needed: Map<string, Funds> | undefined;
  const { orders, combine } = evaluationOf(intent, view, config, evaluation).fundedOrders();
  for (const order of orders) {
    const instrument = view.instrument(order.symbol);
    if (instrument === undefined || order.side !== 'buy' || !isMarketType(order.type) || tradesOnMargin(instrument, view)) continue;
    const need = fundsFor(order, instrument, view, config);
    if (isDenial(need)) return need;
    needed ??= new Map();
    const before = needed.get(need.currency) ?? Funds.ZERO;
    const total = combine === 'max' ? before.max(need.amount) : before.plus(need.amount);
    needed.set(need.currency, total);
    const free = view.freeBalance(need.currency);
    if (!free.greaterThan(total)) {
      return {
        check: 'market-buy-reserve',
        reason: `${order.symbol}: market buy reserve ${total.toFixed()} ${need.currency} (${config.marketBuySlippage.times(100).toFixed()} % slippage and fees) needs a free balance above it, free ${free.toFixed()} ${need.currency}`,
      };
    }
  }
  return undefined;
}
