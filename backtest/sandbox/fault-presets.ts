import { ValidationError } from '../../framework/model/errors.js';
import type { FaultOptions } from './fault-injector.js';

/**
 * Named fault mixes, so a soak run, a test and `tradeloop sandbox --faults <name>` mean the same
 * thing by one word. `soak`: every WebSocket dropped every 10 s, order reports delayed 40 ms with
 * 5 % sent twice and 5 % swapped with the next, a burst of 3 REST 429s every 150 requests, 2 % of
 * REST requests answered 500/503/504 without being executed, 5 % answered 1.5 s late. Strong
 * enough that every recovery path runs within a minute, mild enough that a bot can still trade.
 */
export const FAULT_PRESETS: Readonly<Record<string, FaultOptions>> = {
  soak: {
    dropConnectionsEveryMs: 10_000,
    orderReportDelayMs: 40,
    duplicateReportProbability: 0.05,
    reorderReportProbability: 0.05,
    burst429Length: 3,
    burst429Every: 150,
    serverErrorProbability: 0.02,
    slowResponseProbability: 0.05,
    slowResponseMs: 1500,
  },
};

/** The preset named `name` (ValidationError naming `field` and the known names otherwise). */
export function faultPreset(name: string, field = 'faults'): FaultOptions {
  const preset = Object.hasOwn(FAULT_PRESETS, name) ? FAULT_PRESETS[name] : undefined;
  if (preset === undefined) throw new ValidationError(field, `must be one of ${Object.keys(FAULT_PRESETS).join(', ')}`, name);
  return preset;
}
