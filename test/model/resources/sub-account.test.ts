import { describe, expect, it } from 'vitest';
import {
  parseSubAccountAclResult, parseSubAccountAddressResult, parseSubAccountBalance, parseSubAccountListResult,
} from '../../../framework/model/resources/sub-account.js';

describe('sub-accounts', () => {
  it('reads the list, ACL, balance and address results', () => {
    const [s] = parseSubAccountListResult({ result: [{ sub_account_id: '2f2da6c3', email: 'sub@example.com', status: 'active' }] });
    expect(s?.status).toBe('active');
    expect(parseSubAccountListResult({ result: [] })).toEqual([]);
    const [acl] = parseSubAccountAclResult({
      result: [{
        sub_account_id: '2f2da6c3', deposit_address_generation_enabled: true, withdraw_enabled: false, description: '',
        created_at: '2021-01-01T00:00:00.000Z', updated_at: '2021-01-01T00:00:00.000Z',
      }],
    });
    expect(acl?.withdraw_enabled).toBe(false);
    const bal = parseSubAccountBalance({ result: { wallet: [{ currency: 'BTC', available: '0.1', reserved: '0' }] } });
    expect(bal.wallet?.[0]?.available.toFixed()).toBe('0.1');
    expect(bal.spot).toBeUndefined();
    expect(parseSubAccountAddressResult({ result: { address: 'bc1qxyz' } }).address).toBe('bc1qxyz');
  });

  it('names the failing field', () => {
    expect(() => parseSubAccountListResult({ result: [{ sub_account_id: 'a', email: 'e', status: 'frozen' }] }))
      .toThrow(/response\.result\[0\]\.status/);
    expect(() => parseSubAccountBalance({ result: { spot: [{ currency: 'BTC', available: '1' }] } }))
      .toThrow(/response\.result\.spot\[0\]\.reserved: is required/);
    expect(() => parseSubAccountAddressResult({ result: {} })).toThrow(/response\.result\.address: is required/);
  });
});
