import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { Instrument } from '../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import { passivePrice } from '../../strategies/market-maker/quote-prices.js';

const instrument = (tick: string): Instrument => new Instrument('ETHUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: tick,
  take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
}));

describe('passivePrice', () => {
  const instruments = ['0.01', '1', '0.0001', '0.05', '10', '0.25'].map(instrument);
  // Prices with long fractions, as a mid times a skew factor gives them.
  const price = fc.tuple(fc.integer({ min: 0, max: 9_999_999 }), fc.stringMatching(/^[0-9]{0,45}$/))
    .map(([whole, fraction]) => new Decimal(`${whole}${fraction === '' ? '' : `.${fraction}`}`));

  it('equals the instrument\'s passive rounding on both sides', () => {
    fc.assert(fc.property(fc.constantFrom(...instruments), fc.constantFrom('buy' as const, 'sell' as const), price, (inst, side, p) => {
      expect(passivePrice(inst, side, p).toFixed()).toBe(inst.roundPricePassive(side, p).toFixed());
    }), { numRuns: 3000 });
  });
});
