import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../backtest/sandbox/fault-injector.js';
import { faultPreset, faultsFrom } from '../../../backtest/sandbox/fault-presets.js';
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
    expect(() => faultPreset('storm', '--faults')).toThrow(ValidationError);
    expect(() => faultPreset('storm', '--faults')).toThrow(/^--faults: must be none, one of soak, chaos, or a faults file/);
    expect(() => faultPreset('toString')).toThrow(ValidationError);
  });

  it('chaos: every fault kind harder than soak, book gaps included, accepted by the injector', () => {
    const chaos = faultPreset('chaos');
    const soak = faultPreset('soak');
    expect(chaos.skipBookSequenceProbability).toBeGreaterThan(0);
    expect(chaos.dropConnectionsEveryMs!).toBeLessThan(soak.dropConnectionsEveryMs!);
    for (const key of ['duplicateReportProbability', 'reorderReportProbability', 'serverErrorProbability', 'slowResponseProbability'] as const) {
      expect(chaos[key]!).toBeGreaterThan(soak[key]!);
    }
    expect(() => new FaultInjector(chaos, 'seed')).not.toThrow();
  });

  it('faultsFrom: none, a preset, or a file whose keys are all fault settings', () => {
    const files: Record<string, unknown> = { 'mine.yaml': { orderReportDelayMs: 30, burst429Length: 2, burst429Every: 50 }, 'typo.yaml': { orderReportDelay: 30 }, 'list.yaml': [1] };
    const read = (file: string): unknown => files[file];
    expect(faultsFrom('none', '--faults', read)).toBeUndefined();
    expect(faultsFrom('soak', '--faults', read)).toBe(faultPreset('soak'));
    expect(faultsFrom('mine.yaml', '--faults', read)).toEqual({ orderReportDelayMs: 30, burst429Length: 2, burst429Every: 50 });
    expect(() => faultsFrom('typo.yaml', '--faults', read)).toThrow(/^--faults\.orderReportDelay: is not a fault setting/);
    expect(() => faultsFrom('list.yaml', '--faults', read)).toThrow(/must be a mapping/);
  });
});
