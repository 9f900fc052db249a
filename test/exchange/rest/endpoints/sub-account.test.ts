import { describe, expect, it } from 'vitest';
import { SubAccountEndpoints } from '../../../../framework/exchange/rest/endpoints/sub-account.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import type { SubAccount, SubAccountAcl, SubAccountBalance } from '../../../../framework/model/resources/sub-account.js';
import { RecordingExecutor, shapeOf, type RequestShape } from './recording-executor.js';
import * as wire from './wire-fixtures.js';

interface Row {
  readonly name: string;
  readonly call: (api: SubAccountEndpoints) => Promise<unknown>;
  readonly answer: unknown;
  readonly request: RequestShape;
  readonly check: (result: unknown) => void;
}

const get = (path: string, query?: Record<string, unknown>): RequestShape => ({
  method: 'GET', path, ...(query === undefined ? {} : { query }), scope: 'other', auth: true, idempotent: true,
});
const post = (path: string, body: Record<string, unknown>, idempotent = false): RequestShape => ({
  method: 'POST', path, body, scope: 'other', auth: true, idempotent,
});

const ROWS: readonly Row[] = [
  {
    name: 'list', call: (api) => api.list(), answer: wire.subAccounts, request: get('/sub-account'),
    check: (r) => expect((r as SubAccount[])[0]?.status).toBe('active'),
  },
  {
    name: 'freeze', call: (api) => api.freeze({ sub_account_ids: ['6f1b0f4e1a2b', '7a2c'] }), answer: { result: true },
    request: post('/sub-account/freeze', { sub_account_ids: '6f1b0f4e1a2b,7a2c' }), check: (r) => expect(r).toEqual({ result: true }),
  },
  {
    name: 'activate', call: (api) => api.activate({ sub_account_ids: '6f1b0f4e1a2b' }), answer: { result: false },
    request: post('/sub-account/activate', { sub_account_ids: '6f1b0f4e1a2b' }), check: (r) => expect(r).toEqual({ result: false }),
  },
  {
    name: 'transfer', call: (api) => api.transfer({ sub_account_id: '6f1b0f4e1a2b', amount: new Decimal('2.50'), currency: 'USDT', type: 'to_sub_account' }),
    answer: { result: '6e3b4c9c' },
    request: post('/sub-account/transfer', { sub_account_id: '6f1b0f4e1a2b', amount: '2.5', currency: 'USDT', type: 'to_sub_account' }),
    check: (r) => expect(r).toBe('6e3b4c9c'),
  },
  {
    name: 'getAcl', call: (api) => api.getAcl({ sub_account_ids: ['6f1b0f4e1a2b'] }), answer: wire.subAccountAcl,
    request: get('/sub-account/acl', { sub_account_ids: ['6f1b0f4e1a2b'] }),
    check: (r) => expect((r as SubAccountAcl[])[0]?.withdraw_enabled).toBe(false),
  },
  {
    name: 'setAcl',
    call: (api) => api.setAcl({ sub_account_ids: ['6f1b0f4e1a2b'], deposit_address_generation_enabled: true, withdraw_enabled: false, description: '' }),
    answer: wire.subAccountAcl,
    request: post('/sub-account/acl', {
      sub_account_ids: '6f1b0f4e1a2b', deposit_address_generation_enabled: true, withdraw_enabled: false, description: '',
    }, true),
    check: (r) => expect((r as SubAccountAcl[])[0]?.created_at).toBe(wire.T1_MS),
  },
  {
    name: 'getBalance', call: (api) => api.getBalance('6f1b0f4e1a2b'), answer: wire.subAccountBalance, request: get('/sub-account/balance/6f1b0f4e1a2b'),
    check: (r) => expect((r as SubAccountBalance).spot?.[0]?.reserved.toString()).toBe('1'),
  },
  {
    name: 'getDepositAddress', call: (api) => api.getDepositAddress('6f1b0f4e1a2b', 'BTC'), answer: wire.subAccountAddress,
    request: get('/sub-account/crypto/address/6f1b0f4e1a2b/BTC'),
    check: (r) => expect(r).toEqual({ address: wire.subAccountAddress.result.address, payment_id: undefined, public_key: undefined }),
  },
];

describe('SubAccountEndpoints', () => {
  it.each(ROWS)('$name', async ({ call, answer, request, check }) => {
    const executor = new RecordingExecutor().answer(answer);
    const result = await call(new SubAccountEndpoints(executor));
    expect(shapeOf(executor.last)).toEqual(request);
    check(result);
  });
});

describe('SubAccountEndpoints validation', () => {
  const api = new SubAccountEndpoints(new RecordingExecutor());
  const cases: readonly [string, string, () => Promise<unknown>][] = [
    ['freezing no sub-account', 'sub_account_ids', () => api.freeze({ sub_account_ids: [] })],
    ['an empty id in the list', 'sub_account_ids[1]', () => api.activate({ sub_account_ids: ['a', ''] })],
    ['an unknown transfer direction', 'type', () => api.transfer({ sub_account_id: 'a', amount: '1', currency: 'USDT', type: 'sideways' as 'to_sub_account' })],
    ['a zero transfer', 'amount', () => api.transfer({ sub_account_id: 'a', amount: '0', currency: 'USDT', type: 'to_sub_account' })],
    ['a transfer without sub-account', 'sub_account_id', () => api.transfer({ sub_account_id: '', amount: '1', currency: 'USDT', type: 'to_sub_account' })],
    ['a non-boolean ACL flag', 'withdraw_enabled', () => api.setAcl({ sub_account_ids: 'a', withdraw_enabled: 'no' as unknown as boolean })],
    ['an address without currency', 'currency', () => api.getDepositAddress('a', '')],
    ['a balance without id', 'sub_acc_id', () => api.getBalance('')],
  ];

  it.each(cases)('rejects %s, naming %s', async (_name, field, call) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
  });
});
