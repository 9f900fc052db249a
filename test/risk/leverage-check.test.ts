import { describe, expect, it } from 'vitest';
import { parseFuturesPositionConfig } from '../../framework/model/resources/futures-config.js';
import { leverageCheck, liquidationDistanceCheck } from '../../framework/risk/leverage-check.js';
import { RiskGate } from '../../framework/risk/risk-gate.js';
import { ReservationLedger } from '../../framework/risk/reservation-ledger.js';
import { OrderRateWindow } from '../../framework/risk/order-rate-window.js';
import { book, config, d, futuresInstrument, place, spotState } from './risk-fixtures.js';

const SYMBOL = 'BTCUSDT_PERP';

/** A BTCUSDT_PERP account at `leverage` (the contract allows 50), mid 60 000, short 0.2 when `short`. */
function state(leverage: string, short = false) {
  const s = spotState({ USDT: '1000000' });
  const perp = futuresInstrument();
  s.instruments.set(perp.symbol, perp);
  s.books.set(perp.symbol, book(perp, [['60000.5', '1']], [['59999.5', '1']]));
  s.futuresConfigs.set(perp.symbol, parseFuturesPositionConfig({
    symbol: perp.symbol, margin_call_leverage_mul: '1.2', liquidation_leverage_mul: '2', max_initial_leverage: '50',
    margin_mode: 'Isolated', force_close_fee: '0.001', enabled: true, active: true,
  }));
  s.leverages.set(perp.symbol, d(leverage));
  if (short) s.positionsBySymbol.set(perp.symbol, d('-0.2'));
  return s;
}

const buy = (quantity: string, reduceOnly?: boolean) => place({ symbol: SYMBOL, side: 'buy', quantity, price: '60000', reduceOnly });
const sell = (quantity: string) => place({ symbol: SYMBOL, side: 'sell', quantity, price: '60000' });

describe('leverageCheck', () => {
  it('refuses orders that open or grow a position above the configured max leverage; exactly at it passes', () => {
    const limits = config({ defaultLimits: { maxLeverage: '10' } });
    expect(leverageCheck(buy('0.1'), state('10'), limits)).toBeUndefined();
    expect(leverageCheck(buy('0.1'), state('10.5'), limits)).toEqual({
      check: 'leverage', reason: 'BTCUSDT_PERP: account leverage 10.5 exceeds max leverage (risk limits) 10',
    });
  });

  it('refuses above the contract\'s own max initial leverage, with no limit of ours', () => {
    expect(leverageCheck(buy('0.1'), state('51'), config())?.reason).toBe("BTCUSDT_PERP: account leverage 51 exceeds the contract's max initial leverage 50");
  });

  it('lets reduce-only orders and orders that only shrink the position through, and spot orders', () => {
    const limits = config({ defaultLimits: { maxLeverage: '10' } });
    expect(leverageCheck(buy('0.1', true), state('20'), limits)).toBeUndefined();
    // Short 0.2: a buy up to 0.2 shrinks it; 0.3 would flip it long.
    expect(leverageCheck(buy('0.2'), state('20', true), limits)).toBeUndefined();
    expect(leverageCheck(buy('0.3'), state('20', true), limits)?.check).toBe('leverage');
    expect(leverageCheck(sell('0.1'), state('20', true), limits)?.check).toBe('leverage');
    expect(leverageCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state('20'), limits)).toBeUndefined();
  });
});

describe('liquidationDistanceCheck', () => {
  it('refuses a leverage whose margin is thinner than the minimum distance (1/L): exactly at it passes', () => {
    const limits = config({ defaultLimits: { minLiquidationDistance: '0.1' } });
    expect(liquidationDistanceCheck(buy('0.1'), state('10'), limits)).toBeUndefined();
    expect(liquidationDistanceCheck(buy('0.1'), state('12.5'), limits)).toEqual({
      check: 'liquidation-distance', reason: 'BTCUSDT_PERP: at leverage 12.5 liquidation comes within 0.08 of the entry, under the minimum distance 0.1',
    });
  });

  it('refuses growing a position whose reported liquidation price is too near the mid; shrinking it passes', () => {
    const limits = config({ defaultLimits: { minLiquidationDistance: '0.05' } });
    const s = state('5', true);
    s.liquidationPrices.set(SYMBOL, d('62400')); // 2400 / 60000 = 0.04 from the mid
    expect(liquidationDistanceCheck(sell('0.1'), s, limits)?.reason).toBe('BTCUSDT_PERP: the position\'s liquidation price 62400 is 0.04 from the mid 60000, under the minimum distance 0.05');
    expect(liquidationDistanceCheck(buy('0.1'), s, limits)).toBeUndefined();
    s.liquidationPrices.set(SYMBOL, d('63000')); // exactly 0.05
    expect(liquidationDistanceCheck(sell('0.1'), s, limits)).toBeUndefined();
  });

  it('runs in the gate only when a minimum is configured', () => {
    const ledger = new ReservationLedger();
    const s = state('12.5');
    const off = new RiskGate({ checks: ['liquidation-distance'] }, ledger, new OrderRateWindow());
    expect(off.evaluate(buy('0.1'), s).kind).toBe('passed');
    const on = new RiskGate({ checks: ['liquidation-distance'], defaultLimits: { minLiquidationDistance: '0.1' } }, ledger, new OrderRateWindow());
    expect(on.evaluate(buy('0.1'), s)).toMatchObject({ kind: 'denied', check: 'liquidation-distance' });
  });

  it('a gate for spot instruments only leaves the futures checks out', () => {
    const s = state('60');
    const limits = { checks: ['leverage'], defaultLimits: { maxLeverage: '10' } };
    const futuresGate = new RiskGate(limits, new ReservationLedger(), new OrderRateWindow(), [futuresInstrument()]);
    expect(futuresGate.evaluate(buy('0.1'), s)).toMatchObject({ kind: 'denied', check: 'leverage' });
    const spotGate = new RiskGate(limits, new ReservationLedger(), new OrderRateWindow(), [...s.instruments.values()].filter((i) => i.info.type !== 'futures'));
    expect(spotGate.evaluate(buy('0.1'), s).kind).toBe('passed');
    // The same pairs traded on a margin account can hold positions: the checks stay.
    const spotPairs = [...s.instruments.values()].filter((i) => i.info.type !== 'futures');
    expect(new RiskGate(limits, new ReservationLedger(), new OrderRateWindow(), spotPairs, 'spot').evaluate(buy('0.1'), s).kind).toBe('passed');
    expect(new RiskGate(limits, new ReservationLedger(), new OrderRateWindow(), spotPairs, 'margin').evaluate(buy('0.1'), s)).toMatchObject({ kind: 'denied', check: 'leverage' });
  });
});
