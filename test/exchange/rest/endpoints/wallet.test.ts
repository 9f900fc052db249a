import { describe, expect, it } from 'vitest';
import { WalletEndpoints } from '../../../../framework/exchange/rest/endpoints/wallet.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import type { DepositAddress, Transaction } from '../../../../framework/model/resources/wallet.js';
import { RecordingExecutor, shapeOf, type RequestShape } from './recording-executor.js';
import * as wire from './wire-fixtures.js';

interface Row {
  readonly name: string;
  readonly call: (api: WalletEndpoints) => Promise<unknown>;
  readonly answer: unknown;
  readonly request: RequestShape;
  readonly check: (result: unknown) => void;
}

const get = (path: string, query?: Record<string, unknown>): RequestShape => ({
  method: 'GET', path, ...(query === undefined ? {} : { query }), scope: 'other', auth: true, idempotent: true,
});
const call = (method: string, path: string, body: Record<string, unknown> | undefined, idempotent: boolean): RequestShape => ({
  method, path, ...(body === undefined ? {} : { body }), scope: 'other', auth: true, idempotent,
});

const ROWS: readonly Row[] = [
  {
    name: 'getBalances', call: (api) => api.getBalances(), answer: [wire.walletBalance], request: get('/wallet/balance'),
    check: (r) => expect((r as { available: Decimal }[])[0]?.available.toString()).toBe('100'),
  },
  {
    name: 'getBalance', call: (api) => api.getBalance('USDT'), answer: wire.walletBalance, request: get('/wallet/balance/USDT'),
    check: (r) => expect((r as { reserved: Decimal }).reserved).toBeInstanceOf(Decimal),
  },
  {
    name: 'getDepositAddresses', call: (api) => api.getDepositAddresses({ currency: 'XRP' }), answer: [wire.depositAddress],
    request: get('/wallet/crypto/address', { currency: 'XRP' }), check: (r) => expect((r as DepositAddress[])[0]?.payment_id).toBe('1234'),
  },
  {
    name: 'createDepositAddress', call: (api) => api.createDepositAddress({ currency: 'XRP' }), answer: wire.depositAddress,
    request: call('POST', '/wallet/crypto/address', { currency: 'XRP' }, false),
    check: (r) => expect((r as DepositAddress).address).toBe(wire.depositAddress.address),
  },
  {
    name: 'getRecentDepositAddresses', call: (api) => api.getRecentDepositAddresses({ currency: 'XRP' }), answer: [wire.depositAddress],
    request: get('/wallet/crypto/address/recent-deposit', { currency: 'XRP' }), check: (r) => expect(r).toHaveLength(1),
  },
  {
    name: 'getRecentWithdrawAddresses', call: (api) => api.getRecentWithdrawAddresses({ currency: 'XRP' }), answer: [],
    request: get('/wallet/crypto/address/recent-withdraw', { currency: 'XRP' }), check: (r) => expect(r).toEqual([]),
  },
  {
    name: 'withdraw (two-phase)',
    call: (api) => api.withdraw({
      currency: 'ETH', amount: new Decimal('0.50'), address: '0xabc', include_fee: true, auto_commit: false, use_offchain: 'never',
      public_comment: 'rent',
    }),
    answer: { id: 'd2ce578f-647d-4fa0-b1aa-4a27e5ee597b' },
    request: call('POST', '/wallet/crypto/withdraw', {
      currency: 'ETH', amount: '0.5', address: '0xabc', include_fee: true, auto_commit: false, use_offchain: 'never', public_comment: 'rent',
    }, false),
    check: (r) => expect((r as { id: string }).id).toBe('d2ce578f-647d-4fa0-b1aa-4a27e5ee597b'),
  },
  {
    name: 'commitWithdraw', call: (api) => api.commitWithdraw('d2ce/578f'), answer: { result: true },
    request: call('PUT', '/wallet/crypto/withdraw/d2ce%2F578f', undefined, true), check: (r) => expect(r).toEqual({ result: true }),
  },
  {
    name: 'rollbackWithdraw', call: (api) => api.rollbackWithdraw('d2ce578f'), answer: { result: false },
    request: call('DELETE', '/wallet/crypto/withdraw/d2ce578f', undefined, true), check: (r) => expect(r).toEqual({ result: false }),
  },
  {
    name: 'convert', call: (api) => api.convert({ from_currency: 'BTC', to_currency: 'ETH', amount: '0.001' }),
    answer: { result: ['d2ce578f', 1234] },
    request: call('POST', '/wallet/convert', { from_currency: 'BTC', to_currency: 'ETH', amount: '0.001' }, false),
    check: (r) => expect(r).toEqual(['d2ce578f', '1234']),
  },
  {
    name: 'checkAddressIsMine', call: (api) => api.checkAddressIsMine({ address: '0xabc' }), answer: { result: true },
    request: get('/wallet/crypto/address/check-mine', { address: '0xabc' }), check: (r) => expect(r).toEqual({ result: true }),
  },
  {
    name: 'transfer', call: (api) => api.transfer({ currency: 'USDT', amount: '10', source: 'wallet', destination: 'spot' }),
    answer: { id: '8a5ca9b5' },
    request: call('POST', '/wallet/transfer', { currency: 'USDT', amount: '10', source: 'wallet', destination: 'spot' }, false),
    check: (r) => expect(r).toEqual({ id: '8a5ca9b5' }),
  },
  {
    name: 'internalWithdraw', call: (api) => api.internalWithdraw({ currency: 'USDT', amount: '1', by: 'email', identifier: 'a@example.com' }),
    answer: { result: '6e3b4c9c' },
    request: call('POST', '/wallet/internal/withdraw', { currency: 'USDT', amount: '1', by: 'email', identifier: 'a@example.com' }, false),
    check: (r) => expect(r).toBe('6e3b4c9c'),
  },
  {
    name: 'getTransactions',
    call: (api) => api.getTransactions({
      from: wire.T1, till: 1_700_000_000_000, types: ['DEPOSIT', 'WITHDRAW'], subtypes: 'BLOCKCHAIN', statuses: ['SUCCESS', 'PENDING'],
      currencies: ['ETH'], id_from: 0, id_till: '99999', tx_ids: ['t1'], order_by: 'id', sort: 'ASC', limit: 1000, offset: 100_000,
    }),
    answer: [wire.transaction],
    request: get('/wallet/transactions', {
      from: wire.T1, till: 1_700_000_000_000, types: ['DEPOSIT', 'WITHDRAW'], subtypes: ['BLOCKCHAIN'], statuses: ['SUCCESS', 'PENDING'],
      currencies: ['ETH'], id_from: '0', id_till: '99999', tx_ids: ['t1'], order_by: 'id', sort: 'ASC', limit: 1000, offset: 100_000,
    }),
    check: (r) => expect((r as Transaction[])[0]?.native?.amount.toString()).toBe('0.5'),
  },
  {
    name: 'getTransaction', call: (api) => api.getTransaction(3333), answer: wire.transaction, request: get('/wallet/transactions/3333'),
    check: (r) => expect((r as Transaction).id).toBe('3333'),
  },
];

describe('WalletEndpoints', () => {
  it.each(ROWS)('$name', async ({ call: run, answer, request, check }) => {
    const executor = new RecordingExecutor().answer(answer);
    const result = await run(new WalletEndpoints(executor));
    expect(shapeOf(executor.last)).toEqual(request);
    check(result);
  });
});

describe('WalletEndpoints validation', () => {
  const api = new WalletEndpoints(new RecordingExecutor());
  const withdraw = { currency: 'ETH', amount: '1', address: '0xabc' };
  const cases: readonly [string, string, () => Promise<unknown>][] = [
    ['a transfer to the same account', 'destination', () => api.transfer({ currency: 'USDT', amount: '1', source: 'spot', destination: 'spot' })],
    ['an unknown transfer account', 'source', () => api.transfer({ currency: 'USDT', amount: '1', source: 'futures' as 'spot', destination: 'wallet' })],
    ['a zero transfer amount', 'amount', () => api.transfer({ currency: 'USDT', amount: '0', source: 'spot', destination: 'wallet' })],
    ['a public comment over 255 characters', 'public_comment', () => api.withdraw({ ...withdraw, public_comment: 'x'.repeat(256) })],
    ['a negative withdrawal', 'amount', () => api.withdraw({ ...withdraw, amount: '-1' })],
    ['a float withdrawal', 'amount', () => api.withdraw({ ...withdraw, amount: 0.1 as unknown as string })],
    ['a withdrawal without address', 'address', () => api.withdraw({ ...withdraw, address: '' })],
    ['an unknown offchain mode', 'use_offchain', () => api.withdraw({ ...withdraw, use_offchain: 'sometimes' as 'never' })],
    ['an empty withdrawal id', 'id', () => api.commitWithdraw('')],
    ['a conversion into the same currency', 'to_currency', () => api.convert({ from_currency: 'BTC', to_currency: 'BTC', amount: '1' })],
    ['an unknown recipient kind', 'by', () => api.internalWithdraw({ currency: 'USDT', amount: '1', by: 'phone' as 'email', identifier: 'x' })],
    ['an unknown status', 'statuses[1]', () => api.getTransactions({ statuses: ['SUCCESS', 'DONE' as 'SUCCESS'] })],
    ['a negative id bound', 'id_from', () => api.getTransactions({ id_from: -1 })],
    ['a transactions limit', 'limit', () => api.getTransactions({ limit: 1001 })],
    ['a transactions offset', 'offset', () => api.getTransactions({ offset: 100_001 })],
    ['an unknown order key', 'order_by', () => api.getTransactions({ order_by: 'amount' as 'id' })],
    ['a recent-address query without currency', 'currency', () => api.getRecentDepositAddresses({ currency: '' })],
  ];

  it.each(cases)('rejects %s, naming %s', async (_name, field, run) => {
    const error = await run().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });

  it('accepts a public comment of exactly 255 characters', async () => {
    const executor = new RecordingExecutor().answer({ id: '1' });
    await new WalletEndpoints(executor).withdraw({ ...withdraw, public_comment: 'x'.repeat(255) });
    expect((executor.last.body?.['public_comment'] as string).length).toBe(255);
  });
});
