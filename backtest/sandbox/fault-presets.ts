import { ValidationError } from '../../framework/model/errors.js';
import { FAULT_SETTINGS, type FaultOptions } from './fault-injector.js';

/**
 * Named fault mixes, so a soak run, a test and `tradeloop sandbox --faults <name>` mean the same
 * thing by one word.
 *
 * - `soak`: every WebSocket dropped every 10 s, order reports delayed 40 ms with 5 % sent twice and
 *   5 % swapped with the next, a burst of 3 REST 429s every 150 requests, 2 % of REST requests
 *   answered 500/503/504 without being executed, 5 % answered 1.5 s late. Strong enough that every
 *   recovery path runs within a minute, mild enough that a bot can still trade.
 * - `chaos`: all of that harder, plus book sequence gaps: drops every 5 s and 2 % of connections
 *   each second, reports 100 ms late with 10 % twice and 10 % swapped, 5 429s every 100 requests,
 *   5 % 5xx, 10 % answered 2 s late, 1 % of book updates skipped (the book must re-sync).
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
  chaos: {
    dropConnectionsEveryMs: 5_000,
    dropConnectionProbability: 0.02,
    skipBookSequenceProbability: 0.01,
    orderReportDelayMs: 100,
    duplicateReportProbability: 0.1,
    reorderReportProbability: 0.1,
    burst429Length: 5,
    burst429Every: 100,
    serverErrorProbability: 0.05,
    slowResponseProbability: 0.1,
    slowResponseMs: 2000,
  },
};

/**
 * The faults `spec` names (`--faults`, paper and sandbox): `none` (undefined), a preset's name, or
 * a YAML file of {@link FaultOptions} (keys as in the presets; the injector checks the values).
 * A key that is not a fault is refused by name, so a misspelt fault never silently does nothing.
 */
export function faultsFrom(spec: string, field: string, read: (file: string) => unknown): FaultOptions | undefined {
  if (spec === 'none') return undefined;
  if (!/\.ya?ml$/.test(spec)) return faultPreset(spec, field);
  const raw = read(spec);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(field, 'a faults file must be a mapping of fault settings', spec);
  for (const key of Object.keys(raw)) {
    if (!FAULT_SETTINGS.has(key)) throw new ValidationError(`${field}.${key}`, `is not a fault setting (${[...FAULT_SETTINGS].join(', ')})`, spec);
  }
  return raw as FaultOptions;
}

/** The preset named `name` (ValidationError naming `field` and the known names otherwise). */
export function faultPreset(name: string, field = 'faults'): FaultOptions {
  const preset = Object.hasOwn(FAULT_PRESETS, name) ? FAULT_PRESETS[name] : undefined;
  if (preset === undefined) throw new ValidationError(field, `must be none, one of ${Object.keys(FAULT_PRESETS).join(', ')}, or a faults file (*.yaml)`, name);
  return preset;
}
