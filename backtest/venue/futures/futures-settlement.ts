import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import type { OrderTrade } from '../../../framework/model/resources/order.js';
import { tradeFee } from '../fees.js';
import { afterClose } from '../list-effects.js';
import { lotsDecimal, ticksDecimal } from '../grid-decimals.js';
import type { MatchFill } from '../matching/market-port.js';
import type { OrderRecord } from '../order-state.js';
import type { VenueEngine } from '../venue-engine.js';
import { applyFill, FLAT } from './position-math.js';
import type { PositionBook } from './position-book.js';

/**
 * Settles one execution of a futures or margin order in its book (the position branch of
 * `VenueEngine.settle`):
 * - the position moves by the fill (open, add, reduce, flip; see `applyFill`), and the realized
 *   PnL of a reduction is credited to (a loss taken from) the cash of the margin currency;
 * - the fee (taker or maker rate on the fill's notional, exact, negative a rebate) is taken from the
 *   same cash; there is no spot movement at all (a margin order's fee is in the quote currency too);
 * - a reduce-only order never flips or grows the position: a fill beyond the open size opposite
 *   the order is cut to that size and the order's remainder expires (a fill that could reduce
 *   nothing expires the order unfilled);
 * - the outside market is the counterparty: it pays realized profits and receives realized losses
 *   (`outsideFlows` of the margin currency: profits come in), so venue-held money stays auditable.
 * Returns false when the fill did not execute (no active order, or a reduce-only order with nothing
 * left to reduce).
 */
export function settlePosition(engine: VenueEngine, book: PositionBook, order: OrderRecord, fill: MatchFill): boolean {
  const futures = book.accounts;
  const inst = order.instrument;
  const symbol = inst.symbol;
  const terms = futures.termsOf(symbol);
  const before = futures.position(order.account, symbol)?.grid ?? FLAT;
  let lots = fill.lots;
  if (order.reduceOnly) {
    const reducible = before.lots === 0 || (before.lots > 0) === (order.side === 'buy') ? 0 : Math.abs(before.lots);
    lots = Math.min(lots, reducible);
    if (lots <= 0) {
      engine.close(order, 'expired', 'expired');
      afterClose(engine, order);
      return false;
    }
  }
  const effect = applyFill(before, order.side, lots, fill.priceTicks);
  const price = ticksDecimal(inst, fill.priceTicks);
  const quantity = lotsDecimal(inst, lots);
  const notional = price.times(quantity);
  const fee = tradeFee(notional, order.rates, fill.taker);
  const realized = futures.unitsToDecimal(symbol, effect.realizedUnits);
  const currency = terms.marginCurrency;
  const record = futures.updatePosition(order.account, symbol, effect.next, realized, engine.time);
  if (effect.next.lots === 0) book.history.close(order.account, record, 'closed', futures.leverage(order.account, symbol), engine.time);
  futures.credit(order.account, terms.pocket, realized.minus(fee));
  addTo(engine.feesCollected, currency, fee);
  addTo(engine.outsideFlows, currency, realized);
  order.cumulativeLots += lots;
  order.notional = order.notional.plus(notional);
  const trade: OrderTrade = { id: engine.ids.nextTradeId(), quantity, price, fee, taker: fill.taker, timestamp: engine.time, position_id: record.id };
  order.trades.push(trade);
  engine.history.addTrade(order.account, {
    id: trade.id, order_id: order.id, client_order_id: order.clientOrderId, symbol, side: order.side,
    quantity, price, fee, timestamp: engine.time, taker: fill.taker, position_id: record.id, pnl: realized,
    liquidation: order.liquidation ? true : undefined,
  }, order.margin);
  const filled = engine.afterExecution(order, trade);
  // The cut remainder: list effects of the execution come from the caller (settleAll), a
  // oneTriggerOneCancelOther primary that did not fill whole cancels its secondaries here.
  if (!filled && lots < fill.lots) {
    engine.close(order, 'expired', 'expired');
    afterClose(engine, order);
  }
  return true;
}

function addTo(map: Map<string, Decimal>, currency: string, amount: Decimal): void {
  map.set(currency, (map.get(currency) ?? ZERO).plus(amount));
}

