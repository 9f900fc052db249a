import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../backtest/sandbox/fault-injector.js';
import { faultPreset } from '../../../backtest/sandbox/fault-presets.js';
import { ValidationError } from '../../../framework/model/errors.js';

describe('faultPreset', () => {
  it('gives the soak mix: every fault kind on, drops every 10 s, accepted by the injector', () => {
    const soak = faultPreset('soak');
    expect(soak.dropConnectionsEveryMs).toBe(10_000);
    for (const key of ['orderReportDelayMs', 'duplicateReportProbability', 'reorderReportProbability', 'burst429Length', 'serverErrorProbability', 'slowResponseProbability'] as const) {
      expect(soak[key]).toBeGreaterThan(0);
    }
    expect(() => new FaultInjector(soak, 'seed')).not.toThrow();
  });

  it('draws the same 429 and 5xx answers for the same seed', () => {
    const draws = (seed: string) => {
      const faults = new FaultInjector(faultPreset('soak'), seed);
      return Array.from({ length: 400 }, () => faults.nextRestFault()?.status ?? 200);
    };
    expect(draws('7')).toEqual(draws('7'));
    expect(draws('7')).toContain(429);
    expect(draws('7').some((s) => s >= 500)).toBe(true);
  });

  it('refuses an unknown name with a ValidationError naming the field and the known names', () => {
    expect(() => faultPreset('chaos', '--faults')).toThrow(ValidationError);
    expect(() => faultPreset('chaos', '--faults')).toThrow(/^--faults: must be one of soak/);
    expect(() => faultPreset('toString')).toThrow(ValidationError);
  });
});
