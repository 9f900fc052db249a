import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../framework/model/errors.js';
import { CHECK_NAMES, DEFAULT_RISK_CONFIG, limitsFor, parseRiskConfig } from '../../framework/risk/risk-config.js';

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.field;
    throw error;
  }
  return undefined;
}

describe('parseRiskConfig', () => {
  it('fills defaults', () => {
    const config = parseRiskConfig({});
    expect(config.checks).toEqual(CHECK_NAMES);
    expect(config.priceBand.toFixed()).toBe(DEFAULT_RISK_CONFIG.priceBand.toFixed());
    expect(config.maxOrdersPerWindow).toBe(100);
    expect(config.killSwitch.flatten).toBe(false);
  });

  it('reads decimals from text and numbers, keeps the fixed check order and per-symbol limits', () => {
    const config = parseRiskConfig({
      checks: ['balance', 'grid'], priceBand: 0.02, defaultLimits: { maxOrderNotional: '1000' },
      symbolLimits: { ETHUSDT: { maxPosition: '5' } }, killSwitch: { maxDrawdown: '0.1', flatten: true },
    });
    expect(config.checks).toEqual(['grid', 'balance']);
    expect(config.priceBand.toFixed()).toBe('0.02');
    expect(limitsFor(config, 'ETHUSDT').maxPosition?.toFixed()).toBe('5');
    expect(limitsFor(config, 'BTCUSDT').maxOrderNotional?.toFixed()).toBe('1000');
    expect(config.killSwitch.maxDrawdown?.toFixed()).toBe('0.1');
  });

  it('names the offending field', () => {
    expect(fieldOf(() => parseRiskConfig({ priceBand: 'wide' }))).toBe('risk.priceBand');
    expect(fieldOf(() => parseRiskConfig({ maxOrdersPerWindow: 300 }))).toBe('risk.maxOrdersPerWindow');
    expect(fieldOf(() => parseRiskConfig({ maxOrdersPerWindow: 299 }))).toBeUndefined();
    expect(fieldOf(() => parseRiskConfig({ orderRateWindowMs: 1.5 }))).toBe('risk.orderRateWindowMs');
    expect(fieldOf(() => parseRiskConfig({ symbolLimits: { ETHUSDT: { maxPosition: '0' } } }))).toBe('risk.symbolLimits.ETHUSDT.maxPosition');
    expect(fieldOf(() => parseRiskConfig({ killSwitch: { maxDrawdown: '1.5' } }))).toBe('risk.killSwitch.maxDrawdown');
    expect(fieldOf(() => parseRiskConfig({ killSwitch: { flatten: 'yes' } }))).toBe('risk.killSwitch.flatten');
    expect(fieldOf(() => parseRiskConfig([]))).toBe('risk');
  });
});
