import type { Intent } from '../model/intent.js';
import type { RiskConfig } from './risk-config.js';
import type { RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

/** Why a check refused an intent: the check's name and a reason naming the limit and the value. */
export interface Denial {
  /** Stable check name, carried into `DeniedReport.check` (`balance`, `price-band`, ...). */
  readonly check: string;
  readonly reason: string;
}

/**
 * A risk check: a pure function of the intent, the read-only view and the config. It returns a
 * denial, or undefined to let the intent through; it never throws on a refusal and never mutates.
 * The gate passes its {@link RiskEvaluation} (the intent's orders and funds needs, computed once
 * for every check); a check called on its own builds one.
 */
export type RiskCheck = (intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation) => Denial | undefined;
