import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

/** Refuses orders on symbols the bot has no instrument for, or whose status is not `working`. */
export function instrumentStatusCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (const order of orders) {
    const instrument = view.instrument(order.symbol);
    if (instrument === undefined) return { check: 'instrument-status', reason: `${order.symbol}: unknown symbol` };
    if (!instrument.isWorking) {
      return { check: 'instrument-status', reason: `${order.symbol}: status is ${instrument.info.status}, orders need working` };
    }
  }
  return undefined;
}
