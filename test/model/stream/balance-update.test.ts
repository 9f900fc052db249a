import { describe, expect, it } from 'vitest';
import {
  parseBalanceNotification, parseBalanceUpdate, parseTransactionNotification,
} from '../../../framework/model/stream/balance-update.js';

describe('parseBalanceNotification', () => {
  it('reads spot balances with reserved_margin', () => {
    const n = parseBalanceNotification({
      jsonrpc: '2.0',
      method: 'spot_balance',
      params: [{ currency: 'BTC', available: '0.0001', reserved: '0', reserved_margin: '0.5' }, { currency: 'USDT', available: '10', reserved: '1.5' }],
    }, 1000);
    expect(n?.account).toBe('spot');
    expect(n?.balances[0]?.reserved_margin?.toFixed()).toBe('0.5');
    expect(n?.balances[1]?.reserved.toFixed()).toBe('1.5');
    expect(n?.receivedAt).toBe(1000);
    expect(n?.exchangeTime).toBe(1000);
  });

  it('accepts the other accounts and method spellings, and a single object', () => {
    expect(parseBalanceNotification({ method: 'futures_balance', params: [] }, 1)?.account).toBe('futures');
    expect(parseBalanceNotification({ method: 'margin_balance', params: [] }, 1)?.account).toBe('margin');
    expect(parseBalanceNotification({ method: 'wallet_balances', params: [{ currency: 'BTC', available: '1', reserved: '0' }] }, 1)?.account).toBe('wallet');
    const single = parseBalanceNotification({ method: 'wallet_balance_update', params: { currency: 'ETH', available: '2', reserved: '0' } }, 1);
    expect(single?.balances[0]?.currency).toBe('ETH');
  });

  it('returns null for other frames and names the failing field otherwise', () => {
    expect(parseBalanceNotification({ method: 'spot_order', params: {} }, 1)).toBeNull();
    expect(parseBalanceNotification({ result: [], id: 1 }, 1)).toBeNull();
    expect(() => parseBalanceNotification({ method: 'spot_balance', params: [{ currency: 'BTC', available: 'x', reserved: '0' }] }, 1))
      .toThrow(/params\[0\]\.available: must be a decimal number/);
    expect(() => parseBalanceUpdate({ available: '1', reserved: '0' })).toThrow(/balance\.currency: is required/);
  });
});

describe('parseTransactionNotification', () => {
  const tx = {
    id: 2081226, status: 'PENDING', type: 'WITHDRAW', subtype: 'BLOCKCHAIN', created_at: '2021-08-13T14:13:13.883Z',
    updated_at: '2021-08-13T14:13:14.001Z', native: { tx_id: 'a271c7b8', currency: 'USDT', amount: '25', fee: '1.2' },
  };

  it('reads a transaction update with both times', () => {
    const n = parseTransactionNotification({ jsonrpc: '2.0', method: 'transaction_update', params: tx }, 99);
    expect(n?.transaction.native?.fee?.toFixed()).toBe('1.2');
    expect(n?.exchangeTime).toBe(Date.UTC(2021, 7, 13, 14, 13, 14, 1));
    expect(n?.receivedAt).toBe(99);
  });

  it('returns null for other frames and names the failing field otherwise', () => {
    expect(parseTransactionNotification({ method: 'wallet_balances', params: [] }, 1)).toBeNull();
    expect(() => parseTransactionNotification({ method: 'transaction_update', params: { ...tx, status: 'LOST' } }, 1)).toThrow(/params\.status/);
  });
});
