import { Decimal, type Instrument, type OrderSpec } from 'tradeloop';
import type { BracketParams } from './bracket-params.js';

const BPS = new Decimal(10_000);
const ONE = new Decimal(1);

/**
 * The three orders of a bracket, in the order a `oneTriggerOneCancelOther` list takes them
 * (document 001, Create order list): the first is the primary, whose complete fill activates the
 * others as a oneCancelOther pair; all share the symbol; the secondaries are of the types a
 * oneCancelOther list allows (takeProfitLimit, stopMarket, stopLimit) with GTC.
 *
 * 1. entry: limit buy at `mid * (1 - entryOffsetBps)`, floored to the tick (a bid never rounds up);
 * 2. take-profit: takeProfitLimit sell, stop price and limit price `entry * (1 + takeProfitBps)`,
 *    ceiled (never sells below the target); it is released when the last trade reaches it;
 * 3. stop-loss: stopMarket sell with stop price `entry * (1 - stopLossBps)`, floored (never tighter
 *    than asked); or stopLimit with that stop and a limit price `stopLimitOffsetBps` lower, floored.
 *
 * Returns undefined when the quantity rounds to zero or a price would not be positive.
 */
export function bracketOrders(instrument: Instrument, mid: Decimal, p: BracketParams): readonly OrderSpec[] | undefined {
  const symbol = instrument.symbol;
  const quantity = instrument.roundQuantityDown(p.orderQuantity);
  const entry = instrument.roundPricePassive('buy', mid.times(ONE.minus(p.entryOffsetBps.div(BPS))));
  const takeProfit = instrument.roundPricePassive('sell', entry.times(ONE.plus(p.takeProfitBps.div(BPS))));
  const stop = instrument.roundPriceAggressive('sell', entry.times(ONE.minus(p.stopLossBps.div(BPS))));
  const stopLimit = instrument.roundPriceAggressive('sell', stop.times(ONE.minus(p.stopLimitOffsetBps.div(BPS))));
  if (quantity.isZero() || !stopLimit.greaterThan(0) || !stop.greaterThan(0)) return undefined;
  const exit = { symbol, side: 'sell', quantity, timeInForce: 'GTC' } as const;
  return [
    { symbol, side: 'buy', type: 'limit', quantity, price: entry, timeInForce: 'GTC' },
    { ...exit, type: 'takeProfitLimit', price: takeProfit, stopPrice: takeProfit },
    p.stopType === 'stopMarket' ? { ...exit, type: 'stopMarket', stopPrice: stop } : { ...exit, type: 'stopLimit', stopPrice: stop, price: stopLimit },
  ];
}
