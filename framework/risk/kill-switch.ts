import { ZERO, type Decimal } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import type { CheckedOrder } from './intent-orders.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { EquityView, RiskView } from './risk-state.js';

/**
 * Why the kill switch is engaged, or undefined: drawdown from the peak equity reached
 * `maxDrawdown`, or the loss since the day's start reached `maxDailyLoss` (both inclusive). The
 * caller keeps the peak, so a drawdown halt latches until the peak is reset by hand.
 */
export function killSwitchReason(view: RiskView, config: RiskConfig): string | undefined {
  const equity = view.equity;
  if (equity === undefined) return undefined;
  // The figures change only when the equity is revalued (each a new immutable Decimal), intents
  // come far more often: the last verdict per config stands while they are the same instances.
  const last = lastVerdicts.get(config);
  if (last !== undefined && last.current === equity.current && last.peak === equity.peak && last.dayStart === equity.dayStart) return last.reason;
  const reason = reasonOf(equity, config);
  lastVerdicts.set(config, { current: equity.current, peak: equity.peak, dayStart: equity.dayStart, reason });
  return reason;
}

/** A verdict of {@link killSwitchReason} and the equity figures it was worked out from. */
interface Verdict {
  readonly current: Decimal;
  readonly peak: Decimal;
  readonly dayStart: Decimal;
  readonly reason: string | undefined;
}

const lastVerdicts = new WeakMap<RiskConfig, Verdict>();

function reasonOf(equity: EquityView, config: RiskConfig): string | undefined {
  const { maxDrawdown, maxDailyLoss } = config.killSwitch;
  if (maxDrawdown !== undefined && equity.peak.isPositive() && !equity.peak.isZero()) {
    const drawdown = equity.peak.minus(equity.current);
    if (drawdown.greaterThanOrEqualTo(equity.peak.times(maxDrawdown))) {
      return `drawdown ${drawdown.toFixed()} from peak ${equity.peak.toFixed()} reached max drawdown ${maxDrawdown.times(100).toFixed()} %`;
    }
  }
  if (maxDailyLoss !== undefined) {
    const loss = equity.dayStart.minus(equity.current);
    if (loss.greaterThanOrEqualTo(maxDailyLoss)) return `daily loss ${loss.toFixed()} reached max daily loss ${maxDailyLoss.toFixed()}`;
  }
  return undefined;
}

/**
 * While the kill switch is engaged, refuses every intent that could add risk. Cancels always
 * pass, and so do position closes and orders that only reduce a position (reduce-only, or
 * opposite to the position and no larger than it). A replace passes when its order is reducing.
 */
export function killSwitchCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  if (intent.kind === 'cancel' || intent.kind === 'cancelAll' || intent.kind === 'closePosition') return undefined;
  const reason = killSwitchReason(view, config);
  if (reason === undefined) return undefined;
  for (const order of orders) {
    if (!isReducing(order, view)) return { check: 'kill-switch', reason: `halted: ${reason}; only cancels and reducing orders pass` };
  }
  return undefined;
}

/** True when the order can only bring the symbol's position closer to zero. */
export function isReducing(order: CheckedOrder, view: RiskView): boolean {
  if (order.reduceOnly === true) return true;
  const position = view.position(order.symbol) ?? ZERO;
  if (position.isZero()) return false;
  const opposite = order.side === 'buy' ? position.isNegative() : position.isPositive();
  return opposite && order.quantity.lessThanOrEqualTo(position.abs());
}

/**
 * True when the config asks the kill switch to flatten and it is engaged; the runtime then sends
 * {@link flattenIntents}.
 */
export function shouldFlatten(view: RiskView, config: RiskConfig): boolean {
  return config.killSwitch.flatten && killSwitchReason(view, config) !== undefined;
}

/**
 * The intents that flatten the bot: one cancel-all, then a close of every non-zero position: a
 * `closePosition` on futures and margin symbols, a market sell of the held base (rounded down to
 * the lot) on spot. Intent ids are `flatten-<now>-<n>`, unique per call time.
 */
export function flattenIntents(view: RiskView, strategyId = 'risk'): Intent[] {
  const id = (n: number): string => `flatten-${view.now}-${n}`;
  const intents: Intent[] = [{ kind: 'cancelAll', intentId: id(0), strategyId, tag: 'kill-switch' }];
  for (const { symbol, quantity } of view.positions()) {
    if (quantity.isZero()) continue;
    const instrument = view.instrument(symbol);
    if (instrument === undefined || instrument.info.type !== 'spot' || quantity.isNegative()) {
      intents.push({ kind: 'closePosition', intentId: id(intents.length), strategyId, tag: 'kill-switch', symbol });
      continue;
    }
    const sellable = instrument.roundQuantityDown(quantity);
    if (!sellable.isPositive() || sellable.isZero()) continue;
    intents.push({
      kind: 'place', intentId: id(intents.length), strategyId, tag: 'kill-switch',
      symbol, side: 'sell', type: 'market', quantity: sellable,
    });
  }
  return intents;
}
