import type { Decimal } from '../model/decimal.js';
import { unitsOf } from '../model/decimal-units.js';
import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import { NO_ORDERS, fundedOrders, ordersOf, type CheckedOrder } from './intent-orders.js';
import { netFundsFor, type FundsNeed } from './order-reservation.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskView } from './risk-state.js';

/**
 * One intent's evaluation by the gate: the orders it would create, built once, and their funds
 * needs, priced once (the balance check, the market-buy check and the reservation all ask). Handed
 * to every check; the view must not change while it is in use (checks only read it). The gate
 * keeps one and {@link reset}s it per intent (nothing of an earlier intent survives a reset), so
 * an evaluation costs no allocation of its own.
 */
export class RiskEvaluation {
  intent: Intent;
  view: RiskView;
  orders: readonly CheckedOrder[];
  /** Needs of {@link orders} by index; filled on first use (most evaluations price nothing, or one order). */
  private readonly needs: (FundsNeed | Denial | undefined)[] = [];
  /** {@link fundedOrders} of the intent once asked: one object per evaluation, reset with it. */
  private readonly funded: { orders: readonly CheckedOrder[]; combine: 'sum' | 'max' } = { orders: [], combine: 'sum' };
  private fundedFor: Intent | undefined;
  /** {@link priceBandUnits}, kept while the config's band is the same object. */
  private band: { readonly band: Decimal; readonly bandScale: number; readonly bandUnits: number | undefined } | undefined;

  constructor(
    intent: Intent,
    view: RiskView,
    readonly config: RiskConfig,
  ) {
    this.intent = intent;
    this.view = view;
    this.orders = ordersOf(intent, view);
  }

  /** Starts over for another intent (the gate's one evaluation, reused). */
  reset(intent: Intent, view: RiskView): this {
    this.intent = intent;
    this.view = view;
    this.orders = ordersOf(intent, view);
    this.needs.length = 0;
    this.fundedFor = undefined;
    return this;
  }

  /** Lets go of the intent (`idle` takes its place: an intent that creates no orders) until the next reset. */
  release(idle: Intent): void {
    this.intent = idle;
    this.orders = NO_ORDERS;
    this.needs.length = 0;
    this.fundedFor = undefined;
  }

  /** {@link fundedOrders} of the intent, worked out once. */
  fundedOrders(): ReturnType<typeof fundedOrders> {
    if (this.fundedFor !== this.intent) {
      if (this.intent.kind === 'orderList') {
        const { orders, combine } = fundedOrders(this.intent, this.orders);
        this.funded.orders = orders;
        this.funded.combine = combine;
      } else {
        // A single order funds itself: nothing to work out.
        this.funded.orders = this.orders;
        this.funded.combine = 'sum';
      }
      this.fundedFor = this.intent;
    }
    return this.funded;
  }

  /**
   * The config's price band as an integer over a power of ten (`bandUnits` undefined when it has
   * no safe-integer count), worked out once for the gate's evaluation, which outlives its intents.
   */
  priceBandUnits(): { readonly bandScale: number; readonly bandUnits: number | undefined } {
    const band = this.config.priceBand;
    if (this.band?.band !== band) {
      const bandScale = band.decimalPlaces();
      this.band = { band, bandScale, bandUnits: unitsOf(band, bandScale) };
    }
    return this.band;
  }

  /**
   * {@link netFundsFor} of one of {@link orders}, computed once; undefined for a symbol the view
   * has no instrument of (nothing can be priced: the checks and the reservation leave it alone).
   */
  netFunds(order: CheckedOrder): FundsNeed | Denial | undefined {
    const index = this.orders.indexOf(order);
    let need = index < 0 ? undefined : this.needs[index];
    if (need === undefined) {
      const instrument = this.view.instrument(order.symbol);
      if (instrument === undefined) return undefined;
      need = netFundsFor(order, instrument, this.view, this.config);
      if (index >= 0) this.needs[index] = need;
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
