import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_TYPES, SYMBOL_STATUSES, parseSymbolInfo, parseSymbolMap, parseSymbolMapping, symbolInfoToWire, type SymbolInfo,
} from '../../../framework/model/resources/symbol.js';
import { code, compact, decimal, positiveDecimal, timeMs } from './arbitraries.js';

const spot = {
  type: 'spot', base_currency: 'ETH', quote_currency: 'BTC', status: 'working', quantity_increment: '0.001',
  tick_size: '0.000001', take_rate: '0.001', make_rate: '-0.0001', fee_currency: 'BTC', margin_trading: true,
  max_initial_leverage: '10.00',
};

describe('symbol', () => {
  it('reads spot and perpetual futures samples', () => {
    const map = parseSymbolMap({
      ETHBTC: spot,
      BTCUSDT_PERP: {
        type: 'futures', expiry: null, underlying: 'BTC', base_currency: null, quote_currency: 'USDT', quantity_increment: '0.00001',
        tick_size: '0.1', take_rate: '0.0005', make_rate: '0.0002', fee_currency: 'USDT', margin_trading: true, max_initial_leverage: '100.00',
        contract_type: 'perpetual',
      },
    });
    expect(map['ETHBTC']?.tick_size.toFixed()).toBe('0.000001');
    expect(map['BTCUSDT_PERP']?.expiry).toBeNull();
    expect(map['BTCUSDT_PERP']?.contract_type).toBe('perpetual');
  });

  it('names the failing field', () => {
    expect(() => parseSymbolInfo({ ...spot, tick_size: '0' })).toThrow(/symbol\.tick_size: must be greater than zero/);
    expect(() => parseSymbolMapping({ core_symbol_id: 'x' })).toThrow(/mapping\.core_symbol_id/);
  });

  it('round-trips', () => {
    const arb: fc.Arbitrary<SymbolInfo> = fc
      .record({
        type: fc.constantFrom('spot' as const, 'futures' as const),
        contract_type: fc.option(fc.constantFrom(...CONTRACT_TYPES), { nil: undefined }),
        expiry: fc.option(timeMs(), { nil: null }),
        underlying: fc.option(code(), { nil: undefined }),
        base_currency: fc.option(code(), { nil: null }),
        quote_currency: code(),
        status: fc.constantFrom(...SYMBOL_STATUSES),
        quantity_increment: positiveDecimal(),
        tick_size: positiveDecimal(),
        take_rate: decimal(),
        make_rate: decimal({ negative: true }),
        fee_currency: code(),
        margin_trading: fc.boolean(),
        max_initial_leverage: fc.option(positiveDecimal(), { nil: undefined }),
      })
      .map(compact);
    fc.assert(
      fc.property(arb, (s) => {
        expect(parseSymbolInfo(JSON.parse(JSON.stringify(symbolInfoToWire(s))))).toEqual(s);
      }),
    );
  });
});
