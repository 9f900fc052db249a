import { describe, expect, it } from 'vitest';
import { parseCurrency, parseCurrencyMap, parseNetwork } from '../../../framework/model/resources/currency.js';

const network = {
  network: 'ETH', protocol: 'ERC20', default: true, payin_enabled: true, payout_enabled: true, precision_payout: '0.000000000000000001',
  payout_fee: '0.004800000000', payout_is_payment_id: false, payin_payment_id: false, payin_confirmations: 20,
  address_regex: '^[a-zA-Z0-9]{42}$', low_processing_time: '21.709', high_processing_time: '3639.385', avg_processing_time: '196.02',
};
const currency = {
  full_name: 'Ethereum', crypto: true, payin_enabled: true, payout_enabled: true, transfer_enabled: true,
  precision_transfer: '0.000000000001', networks: [network], delisted: false,
};

describe('currency', () => {
  it('reads a keyed response with networks', () => {
    const eth = parseCurrencyMap({ ETH: currency })['ETH'];
    expect(eth?.networks[0]?.payout_fee?.toFixed()).toBe('0.0048');
    expect(eth?.networks[0]?.payin_confirmations).toBe(20);
    expect(eth?.precision_transfer.toFixed()).toBe('0.000000000001');
  });

  it('accepts an empty protocol and absent optional fields', () => {
    const n = parseNetwork({ ...network, protocol: '', payout_fee: undefined, address_regex: undefined });
    expect(n.protocol).toBe('');
    expect(n.payout_fee).toBeUndefined();
  });

  it('names the failing field', () => {
    expect(() => parseCurrencyMap({ ETH: { ...currency, networks: [{ ...network, default: 'yes' }] } }))
      .toThrow(/currencies\.ETH\.networks\[0\]\.default: must be a boolean/);
    expect(() => parseCurrency({ ...currency, networks: undefined })).toThrow(/currency\.networks: is required/);
  });
});
