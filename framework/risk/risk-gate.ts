import type { Instrument } from '../model/instrument.js';
import type { Intent } from '../model/intent.js';
import type { Funds } from '../model/funds.js';
import type { DeniedReport } from '../model/strategy-report.js';
import { balanceCheck } from './balance-check.js';
import type { Denial } from './denial.js';
import { futuresRiskLimitCheck } from './futures-risk-limit-check.js';
import { leverageCheck, liquidationDistanceCheck } from './leverage-check.js';
import { gridCheck } from './grid-check.js';
import { instrumentStatusCheck } from './instrument-status-check.js';
import type { CheckedOrder } from './intent-orders.js';
import { killSwitchCheck } from './kill-switch.js';
import { marketBuyReserveCheck } from './market-buy-reserve-check.js';
import { maxNotionalCheck } from './max-notional-check.js';
import { maxPositionCheck } from './max-position-check.js';
import { isDenial } from './order-reservation.js';
import { RiskEvaluation, type RiskCheck } from './risk-evaluation.js';
import { groupKey, type ReservationKey } from './reservation-key.js';
import { orderRateCheck } from './order-rate-check.js';
import { priceBandCheck } from './price-band-check.js';
import type { OrderRateWindow } from './order-rate-window.js';
import { parseRiskConfig, type CheckName, type RiskConfig } from './risk-config.js';
import type { RiskView } from './risk-state.js';
import type { ReservationLedger } from './reservation-ledger.js';

/** Every check by name. */
export const RISK_CHECKS: Readonly<Record<CheckName, RiskCheck>> = {
  'kill-switch': killSwitchCheck,
  'order-rate': orderRateCheck,
  'instrument-status': instrumentStatusCheck,
  grid: gridCheck,
  'price-band': priceBandCheck,
  'max-notional': maxNotionalCheck,
  'max-position': maxPositionCheck,
  'futures-risk-limit': futuresRiskLimitCheck,
  leverage: leverageCheck,
  'liquidation-distance': liquidationDistanceCheck,
  'market-buy-reserve': marketBuyReserveCheck,
  balance: balanceCheck,
};

/** The intent passed: it may be sent; `reservations` are the ledger keys it holds funds under. */
export interface RiskPass {
  readonly kind: 'passed';
  readonly intent: Intent;
  readonly reservations: readonly ReservationKey[];
}

/**
 * Every intent passes the gate before it is sent. The configured checks run in a fixed order,
 * cheap ones first (kill switch, rate, status, grid, band, limits, then the funds checks that
 * price orders), and the first denial comes back as a {@link DeniedReport} for the strategy; a
 * denial is never thrown. On a pass the gate holds the intent's funds in the ledger (so the next
 * intent sees them gone) and counts the request in the rate window. The view must read the same
 * ledger and window.
 */
export class RiskGate {
  readonly config: RiskConfig;
  private readonly checks: readonly RiskCheck[];
  private readonly reserves: boolean;
  /** The one evaluation, reset per intent (evaluations never overlap: checks do not call the gate). */
  private evaluation: RiskEvaluation | undefined;

  /**
   * `config` is a {@link RiskConfig} or a raw one (YAML); it is validated either way. With the
   * `instruments` the bot trades and the `account` it trades them on, checks that only judge margin
   * and futures positions (risk limit, leverage, liquidation distance) are left out when it can hold
   * none (a spot account, no futures contract): a spot bot does not pay for them per intent, even
   * on pairs that also trade on margin.
   */
  constructor(
    config: unknown,
    private readonly ledger: ReservationLedger,
    private readonly rateWindow: OrderRateWindow,
    instruments?: readonly Instrument[],
    account?: 'spot' | 'margin' | 'futures',
  ) {
    this.config = parseRiskConfig(config);
    const futures = instruments === undefined || account === 'margin' || account === 'futures' || instruments.some((i) => i.info.type === 'futures');
    this.checks = this.config.checks
      .filter((name) => canRefuse(name, this.config) && (futures || !FUTURES_ONLY.has(name)))
      .map((name) => RISK_CHECKS[name]);
    this.reserves = this.config.checks.includes('balance') || this.config.checks.includes('market-buy-reserve');
  }

  /** Runs the checks; passes (and reserves) or returns the first denial. */
  evaluate(intent: Intent, view: RiskView): RiskPass | DeniedReport {
    const evaluation = this.evaluationFor(intent, view);
    try {
      return this.run(evaluation);
    } finally {
      // Nothing of this intent is kept until the next one.
      evaluation.release(NO_INTENT);
    }
  }

  /**
   * Judges `intent` much as {@link evaluate} would and changes nothing: the same checks run in the
   * same order on the same evaluation, and the funds the intent would hold are priced and compared
   * with the free funds leg by leg, each leg alone (a reservation also counts the earlier legs of a
   * summed list, so for such a list a dry run may pass where evaluate denies), but nothing is
   * reserved and nothing is counted in the rate window. Returns the first denial, or undefined
   * when the intent would pass. What it is for: a live bot
   * idle between intents runs its usual kind of intent through here now and then, so the code and
   * data of the order path stay compiled and cached for the next real one (see `OrderPathWarmer`).
   */
  dryRun(intent: Intent, view: RiskView): Denial | undefined {
    const evaluation = this.evaluationFor(intent, view);
    try {
      const checks = this.checks;
      for (let i = 0; i < checks.length; i++) {
        const denial = (checks[i] as RiskCheck)(intent, view, this.config, evaluation);
        if (denial !== undefined) return denial;
      }
      return this.reserves ? wouldReserve(evaluation, this.ledger) : undefined;
    } finally {
      evaluation.release(NO_INTENT);
    }
  }

  private evaluationFor(intent: Intent, view: RiskView): RiskEvaluation {
    return this.evaluation?.reset(intent, view) ?? (this.evaluation = new RiskEvaluation(intent, view, this.config));
  }

  private run(evaluation: RiskEvaluation): RiskPass | DeniedReport {
    const { intent, view } = evaluation;
    const checks = this.checks;
    for (let i = 0; i < checks.length; i++) {
      const denial = (checks[i] as RiskCheck)(intent, view, this.config, evaluation);
      if (denial !== undefined) return denied(intent, denial, view.now);
    }
    let reservations: readonly ReservationKey[] = NO_RESERVATIONS;
    if (this.reserves) {
      const keys: ReservationKey[] = [];
      const denial = this.reserve(evaluation, keys);
      if (denial !== undefined) {
        for (const key of keys) this.ledger.release(key);
        return denied(intent, denial, view.now);
      }
      if (keys.length > 0) reservations = keys;
    }
    this.rateWindow.record(view.now, 1, view.now - this.config.orderRateWindowMs);
    return { kind: 'passed', intent, reservations };
  }

  private reserve(evaluation: RiskEvaluation, keys: ReservationKey[]): Denial | undefined {
    const { intent } = evaluation;
    const { orders, combine } = evaluation.fundedOrders();
    const held = combine === 'max' ? new Set<string>() : undefined;
    for (const order of combine === 'max' ? largestFirst(orders, evaluation) : orders) {
      const need = evaluation.netFunds(order);
      if (need === undefined) continue;
      if (isDenial(need)) return need;
      if (need.amount.isZero()) continue;
      // One-cancels-other: only one leg can execute, so one reservation (the largest) per currency.
      let key = order.key;
      if (held !== undefined) {
        if (held.has(need.currency)) continue;
        held.add(need.currency);
        // Shared by the legs (the pipeline keys every leg of the group so): whichever executes uses it.
        key = groupKey(intent.intentId, 'oneCancelOther', held.size === 1 ? undefined : need.currency);
      }
      if (!this.ledger.reserve(key, need.currency, need.amount, need.quantity)) {
        // The ledger refuses a key it holds already before it looks at the funds.
        if (this.ledger.get(key) !== undefined) return heldAlready(key);
        return cannotReserve(order.symbol, need.amount, need.currency, this.ledger.free(need.currency));
      }
      keys.push(key);
    }
    return undefined;
  }
}

/**
 * The reservation's verdict without making it: each funded leg's need against the free funds, and
 * its key against the reservations held.
 */
function wouldReserve(evaluation: RiskEvaluation, ledger: ReservationLedger): Denial | undefined {
  const view = evaluation.view;
  for (const order of evaluation.fundedOrders().orders) {
    const need = evaluation.netFunds(order);
    if (need === undefined) continue;
    if (isDenial(need)) return need;
    if (need.amount.isZero()) continue;
    if (ledger.get(order.key) !== undefined) return heldAlready(order.key);
    if (view.coversFree(need.currency, need.amount)) continue;
    return cannotReserve(order.symbol, need.amount, need.currency, view.freeBalance(need.currency));
  }
  return undefined;
}

/**
 * The denial of a reservation under a key that holds one already: an intent id used twice (each
 * intent holds its funds under its own id until the exchange answers), not a lack of funds.
 */
function heldAlready(key: ReservationKey): Denial {
  return { check: 'intent-id', reason: `${key.id}: holds a reservation already (an intent id is used once)` };
}

/** The denial of a reservation the free funds do not cover. */
function cannotReserve(symbol: string, amount: Funds, currency: string, free: Funds): Denial {
  return { check: 'balance', reason: `${symbol}: cannot reserve ${amount.toFixed()} ${currency}, free ${free.toFixed()} ${currency}` };
}

/** Checks that judge futures contracts only (they pass every spot intent). */
const FUTURES_ONLY: ReadonlySet<CheckName> = new Set(['futures-risk-limit', 'leverage', 'liquidation-distance']);

/**
 * False for a check its configuration leaves without a limit to apply (it would pass every
 * intent): the kill switch without drawdown or daily-loss limit, the notional and position checks
 * without a limit for any symbol. Such checks are not run at all (each would pass every intent).
 */
function canRefuse(name: CheckName, config: RiskConfig): boolean {
  const limits = [config.defaultLimits, ...Object.values(config.symbolLimits)];
  switch (name) {
    case 'kill-switch': return config.killSwitch.maxDrawdown !== undefined || config.killSwitch.maxDailyLoss !== undefined;
    case 'max-notional': return limits.some((l) => l.maxOrderNotional !== undefined);
    case 'max-position': return limits.some((l) => l.maxPosition !== undefined);
    case 'liquidation-distance': return limits.some((l) => l.minLiquidationDistance !== undefined);
    default: return true;
  }
}

/** The legs ordered by their need, largest first (legs that cannot be priced keep their place at the end). */
function largestFirst(orders: readonly CheckedOrder[], evaluation: RiskEvaluation): CheckedOrder[] {
  const sized = orders.map((order) => {
    const need = evaluation.netFunds(order);
    return { order, amount: need === undefined || isDenial(need) ? undefined : need.amount };
  });
  return sized.sort((a, b) => (a.amount === undefined ? 1 : b.amount === undefined ? -1 : b.amount.compare(a.amount))).map((s) => s.order);
}

/** Reservations of a pass that holds nothing (cancels, checks without funds), shared. */
const NO_RESERVATIONS: readonly ReservationKey[] = Object.freeze([]);

/** What the gate's evaluation holds between intents: a cancel-all, which builds no orders. */
const NO_INTENT: Intent = Object.freeze({ kind: 'cancelAll', intentId: '', strategyId: '' });

function denied(intent: Intent, denial: Denial, time: number): DeniedReport {
  return { kind: 'denied', intent, check: denial.check, reason: denial.reason, time };
}
