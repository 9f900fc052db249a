import { describe, expect, it } from 'vitest';
import { parseFuturesConfigResponse, parseFuturesPositionConfig } from '../../../framework/model/resources/futures-config.js';

const config = {
  symbol: 'BTCUSDT_PERP', margin_call_leverage_mul: '1.50', liquidation_leverage_mul: '2.00', max_initial_leverage: '100.00',
  margin_mode: 'Isolated', force_close_fee: '0.001', enabled: true, active: false, limit_base: '5000000.000000000000',
  limit_power: '1.25', unlimited_threshold: '2.00',
};

describe('futures config', () => {
  it('reads the {config: [...]} response', () => {
    const [c] = parseFuturesConfigResponse({ config: [config] });
    expect(c?.limit_power?.toFixed()).toBe('1.25');
    expect(c?.active).toBe(false);
  });

  it('names the failing field', () => {
    expect(() => parseFuturesConfigResponse({ configs: [] })).toThrow(/response\.config: is required/);
    expect(() => parseFuturesPositionConfig({ ...config, enabled: 1 })).toThrow(/config\.enabled: must be a boolean/);
  });
});
