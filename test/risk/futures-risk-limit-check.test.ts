import { describe, expect, it } from 'vitest';
import { parseFuturesPositionConfig } from '../../framework/model/resources/futures-config.js';
import { futuresRiskLimitCheck, riskLimit } from '../../framework/risk/futures-risk-limit-check.js';
import { book, config, d, futuresInstrument, place, spotState } from './risk-fixtures.js';

function futuresState(leverage: string, base = '191199.6', power = '0.5', threshold = '10') {
  const state = spotState({ USDT: '1000000' });
  const perp = futuresInstrument();
  state.instruments.set(perp.symbol, perp);
  state.books.set(perp.symbol, book(perp, [['60000.0', '1']], [['59999.0', '1']])); // mid 59999.5
  state.futuresConfigs.set(perp.symbol, parseFuturesPositionConfig({
    symbol: perp.symbol, margin_call_leverage_mul: '1.2', liquidation_leverage_mul: '2', max_initial_leverage: '100',
    margin_mode: 'Isolated', force_close_fee: '0.001', enabled: true, active: true,
    limit_base: base, limit_power: power, unlimited_threshold: threshold,
  }));
  state.leverages.set(perp.symbol, d(leverage));
  state.positionsBySymbol.set(perp.symbol, d('-0.2')); // 0.2 x 59999.5 = 11999.9
  state.orders.set('o1', { clientOrderId: 'o1', symbol: perp.symbol, side: 'buy', type: 'limit', quantity: d('0.3'), quantityCumulative: d('0.1'), price: d('59000') }); // 11800
  return state;
}

const order = (quantity: string) => place({ symbol: 'BTCUSDT_PERP', side: 'buy', quantity, price: '60000' });

describe('futuresRiskLimitCheck', () => {
  it('limit_base / L ^ limit_power, exact', () => {
    const state = futuresState('16');
    const cfg = state.futuresConfig('BTCUSDT_PERP');
    if (cfg === undefined) throw new Error('config missing');
    expect(riskLimit(cfg, d('16'))?.toFixed()).toBe('47799.9');
    expect(riskLimit(cfg, d('9.9'))).toBeUndefined();
  });

  it('orders + position + new order exactly at the limit pass; one lot more is denied', () => {
    // 11800 + 11999.9 + 0.4 x 60000 = 47799.9
    const state = futuresState('16');
    expect(futuresRiskLimitCheck(order('0.4'), state, config())).toBeUndefined();
    expect(futuresRiskLimitCheck(order('0.401'), state, config())).toEqual({
      check: 'futures-risk-limit',
      reason: 'BTCUSDT_PERP: open orders + position + order value 47859.9 exceeds risk limit 47799.9 at leverage 16',
    });
  });

  it('is not applied below unlimited_threshold, nor to reduce-only orders or spot symbols', () => {
    expect(futuresRiskLimitCheck(order('100'), futuresState('9.99'), config())).toBeUndefined();
    const state = futuresState('16');
    expect(futuresRiskLimitCheck(place({ symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '100', price: '60000', reduceOnly: true }), state, config())).toBeUndefined();
    expect(futuresRiskLimitCheck(place({ side: 'buy', quantity: '100', price: '2000' }), state, config())).toBeUndefined();
  });

  it('a higher leverage lowers the limit (integer power)', () => {
    // 2000000 / 20^2 = 5000 < 11800 + 11999.9 + 60
    const state = futuresState('20', '2000000', '2');
    expect(futuresRiskLimitCheck(order('0.001'), state, config())?.reason).toMatch(/risk limit 5000 at leverage 20/);
  });
});
