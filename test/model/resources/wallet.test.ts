import { describe, expect, it } from 'vitest';
import {
  parseBooleanResult, parseDepositAddress, parseDepositAddressList, parseIdResult, parseStringResult, parseTransaction,
  parseTransactionIdsResult, parseTransactionList,
} from '../../../framework/model/resources/wallet.js';

const deposit = {
  id: 2081226, status: 'SUCCESS', type: 'DEPOSIT', subtype: 'BLOCKCHAIN', created_at: '2021-08-13T14:13:13.883Z',
  updated_at: '2021-08-13T14:46:18.386Z',
  native: {
    tx_id: 'a271c7b8-4e44-4e55-b07e-44a5c9e14ae7', index: 6436826, currency: 'USDT', amount: '25.00000000',
    hash: '0xfa5aaca0ea8e2fad3b2e4f64ddd68b08a26ed16f4a33a6d4dd07ab1ecf3b7e35', address: '0xd959463c3ae0a9a8e0b11a7e4d3bc7bd8ce1e101',
    confirmations: 22, senders: ['0x1234'],
  },
};

describe('deposit address', () => {
  it('reads a list and a single address', () => {
    const [a] = parseDepositAddressList([{ currency: 'XRP', address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', payment_id: '1234' }]);
    expect(a?.payment_id).toBe('1234');
    expect(() => parseDepositAddress({ currency: 'BTC' })).toThrow(/address\.address: is required/);
  });
});

describe('transaction', () => {
  it('reads a blockchain deposit', () => {
    const t = parseTransactionList([deposit])[0];
    expect(t?.id).toBe('2081226');
    expect(t?.native?.amount.toFixed()).toBe('25');
    expect(t?.native?.index).toBe('6436826');
    expect(t?.native?.senders).toEqual(['0x1234']);
  });

  it('keeps unknown type and subtype strings', () => {
    const t = parseTransaction({ ...deposit, type: 'SWAP', subtype: 'OFFCHAIN', native: undefined });
    expect(t.type).toBe('SWAP');
    expect(t.subtype).toBe('OFFCHAIN');
  });

  it('reads custodian and fiat metadata', () => {
    const t = parseTransaction({
      ...deposit,
      subtype: 'FIAT',
      custodian: { deposit: { id: 5, method_type: 'ACH', currency: 'USD', amount: '100', balance: '100' } },
      meta: { fiat_to_crypto: { id: 'abc', provider_name: 'Provider', source_amount: '100', status: 'ACTIVE', created_at: '2021-08-13T14:13:13.883Z' } },
    });
    expect(t.custodian?.deposit?.id).toBe('5');
    expect(t.meta?.fiat_to_crypto?.source_amount?.toFixed()).toBe('100');
  });

  it('names the failing field', () => {
    expect(() => parseTransaction({ ...deposit, status: 'DONE' })).toThrow(/transaction\.status/);
    expect(() => parseTransaction({ ...deposit, native: { ...deposit.native, senders: [1] } })).toThrow(/transaction\.native\.senders\[0\]: must be a string/);
  });
});

describe('small results', () => {
  it('reads id, boolean, ids and string results', () => {
    expect(parseIdResult({ id: 'd2ce578f-647d-4fa0-b1aa-4a27e5ee597b' }).id).toBe('d2ce578f-647d-4fa0-b1aa-4a27e5ee597b');
    expect(parseBooleanResult({ result: true }).result).toBe(true);
    expect(parseTransactionIdsResult({ result: ['d2ce578f', 12] })).toEqual(['d2ce578f', '12']);
    expect(parseStringResult({ result: 'fd3088da-31a6-428a-b9b6-c67194b29bdb' })).toBe('fd3088da-31a6-428a-b9b6-c67194b29bdb');
  });

  it('names the failing field', () => {
    expect(() => parseBooleanResult({ result: 'maybe' })).toThrow(/response\.result: must be a boolean/);
    expect(() => parseTransactionIdsResult({ result: [null] })).toThrow(/response\.result\[0\]/);
    expect(() => parseIdResult({})).toThrow(/response\.id: is required/);
  });
});
