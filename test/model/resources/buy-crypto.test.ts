import { describe, expect, it } from 'vitest';
import {
  parseBuyCryptoOrder, parseBuyCryptoOrderList, parseBuyCryptoProviderList, parseBuyCryptoRate,
} from '../../../framework/model/resources/buy-crypto.js';

const order = {
  id: 'f0e1d2c3', provider_id: 2, order_type: 'buy', source_code: 'USD', target_code: 'BTC', wallet_address: 'bc1qxyz',
  checkout_url: 'https://provider.example/checkout/1', status: 'in_progress', created_at: '2022-01-01T00:00:00.000Z',
};

describe('buy-crypto', () => {
  it('reads providers, rates and orders', () => {
    const [p] = parseBuyCryptoProviderList([{
      provider_id: 2, provider_name: 'Provider',
      methods: [{
        id: 11, name: 'Card', description: '', method_type: 'CREDIT_CARD', logo_url: 'https://x', status: 'active', type: 'card',
        supported_source: [{ code: 'USD', display_name: 'US Dollar' }], supported_target: [{ code: 'BTC', display_name: 'Bitcoin' }],
        transaction_limits: [{ currency_code: 'USD', target_code: 'BTC', source_min: '20', source_max: '20000' }],
      }],
    }]);
    expect(p?.provider_id).toBe('2');
    expect(p?.methods[0]?.transaction_limits[0]?.source_max.toFixed()).toBe('20000');
    const rate = parseBuyCryptoRate({
      spot_price: '42000.12',
      prices: [{ payment_method_id: 11, type: 'card', target_code: 'BTC', source_code: 'USD', target_amount: '0.0023', source_amount: '100' }],
    });
    expect(rate.prices[0]?.payment_method_id).toBe('11');
    expect(parseBuyCryptoOrderList([order])[0]?.status).toBe('in_progress');
  });

  it('names the failing field', () => {
    expect(() => parseBuyCryptoOrder({ ...order, status: 'paid' })).toThrow(/order\.status/);
    expect(() => parseBuyCryptoRate({ spot_price: '1', prices: [{ payment_method_id: 1 }] })).toThrow(/rate\.prices\[0\]\.type: is required/);
    expect(() => parseBuyCryptoProviderList([{ provider_id: 1, provider_name: 'x' }])).toThrow(/providers\[0\]\.methods: is required/);
  });
});
