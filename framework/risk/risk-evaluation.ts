import type { Instrument } from '../model/instrument.js';
import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import { ordersOf, type CheckedOrder } from './intent-orders.js';
import { netFundsFor, type FundsNeed } from './order-reservation.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskView } from './risk-state.js';

/**
 * One intent's evaluation by the gate: the orders it would create, built once, and their funds
 * needs, priced once (the balance check, the market-buy check and the reservation all ask). Made
 * per evaluation and handed to every check, so nothing is kept between evaluations; the view must
 * not change while it lives (checks only read it).
 */
export class RiskEvaluation {
  readonly orders: readonly CheckedOrder[];
  /** Made on first use: most evaluations price nothing (cancels, or no funds check configured). */
  private needs: Map<CheckedOrder, FundsNeed | Denial> | undefined;

  constructor(
    readonly intent: Intent,
    readonly view: RiskView,
    readonly config: RiskConfig,
  ) {
    this.orders = ordersOf(intent, view);
  }

  /** {@link netFundsFor} of one of {@link orders}, computed once. */
  netFunds(order: CheckedOrder, instrument: Instrument): FundsNeed | Denial {
    let need = this.needs?.get(order);
    if (need === undefined) {
      need = netFundsFor(order, instrument, this.view, this.config);
      if (this.orders.includes(order)) (this.needs ??= new Map()).set(order, need);
    }
    return need;
  }
}

/**
 * A risk check: a pure function of the intent, the read-only view and the config. It returns a
 * denial, or undefined to let the intent through; it never throws on a refusal and never mutates.
 * The gate passes its {@link RiskEvaluation} (the intent's orders and funds needs, computed once
 * for every check); a check called on its own builds one.
 */
export type RiskCheck = (intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation) => Denial | undefined;

/** The evaluation a check was given, or a fresh one (a check called on its own). */
export function evaluationOf(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): RiskEvaluation {
  return evaluation !== undefined && evaluation.intent === intent && evaluation.view === view ? evaluation : new RiskEvaluation(intent, view, config);
}
