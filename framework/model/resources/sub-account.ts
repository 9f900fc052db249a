import {
  asObject, optArray, optString, optTime, reqArray, reqBool, reqEnum, reqObject, reqString,
} from '../wire.js';
import { parseWalletBalance, type WalletBalance } from './balance.js';

/** Sub-account statuses. */
export const SUB_ACCOUNT_STATUSES = ['new', 'active', 'disable'] as const;
export type SubAccountStatus = (typeof SUB_ACCOUNT_STATUSES)[number];

/** API v3 sub-account (`GET /api/3/sub-account`). */
export interface SubAccount {
  /** Hex identifier. */
  readonly sub_account_id: string;
  readonly email: string;
  readonly status: SubAccountStatus;
}

/** Sub-account withdrawal and deposit settings (`/api/3/sub-account/acl`). */
export interface SubAccountAcl {
  readonly sub_account_id: string;
  readonly deposit_address_generation_enabled: boolean;
  readonly withdraw_enabled: boolean;
  /** Normally empty. */
  readonly description: string;
  readonly created_at?: number;
  readonly updated_at?: number;
}

/** Sub-account balances by account type; a type appears only with a non-zero balance. */
export interface SubAccountBalance {
  readonly wallet?: readonly WalletBalance[];
  readonly spot?: readonly WalletBalance[];
}

/** Deposit address of a sub-account. */
export interface SubAccountAddress {
  readonly address: string;
  readonly payment_id?: string;
  readonly public_key?: string;
}

function parseSubAccount(value: unknown, path: string): SubAccount {
  const o = asObject(value, path);
  return {
    sub_account_id: reqString(o, 'sub_account_id', path),
    email: reqString(o, 'email', path),
    status: reqEnum(o, 'status', SUB_ACCOUNT_STATUSES, path),
  };
}

function parseAcl(value: unknown, path: string): SubAccountAcl {
  const o = asObject(value, path);
  return {
    sub_account_id: reqString(o, 'sub_account_id', path),
    deposit_address_generation_enabled: reqBool(o, 'deposit_address_generation_enabled', path),
    withdraw_enabled: reqBool(o, 'withdraw_enabled', path),
    description: optString(o, 'description', path) ?? '',
    created_at: optTime(o, 'created_at', path),
    updated_at: optTime(o, 'updated_at', path),
  };
}

/** Parses `{ result: [sub-accounts] }` (an empty array when there are none). */
export function parseSubAccountListResult(value: unknown, path = 'response'): SubAccount[] {
  return reqArray(asObject(value, path), 'result', path, parseSubAccount);
}

/** Parses `{ result: [ACL records] }` (GET and POST of `/api/3/sub-account/acl`). */
export function parseSubAccountAclResult(value: unknown, path = 'response'): SubAccountAcl[] {
  return reqArray(asObject(value, path), 'result', path, parseAcl);
}

/** Parses `{ result: { wallet?, spot? } }` of `GET /api/3/sub-account/balance/{id}`. */
export function parseSubAccountBalance(value: unknown, path = 'response'): SubAccountBalance {
  return reqObject(asObject(value, path), 'result', path, (v, p) => {
    const o = asObject(v, p);
    return {
      wallet: optArray(o, 'wallet', p, (x, q) => parseWalletBalance(x, q)),
      spot: optArray(o, 'spot', p, (x, q) => parseWalletBalance(x, q)),
    };
  });
}

/** Parses `{ result: { address, payment_id?, public_key? } }`. */
export function parseSubAccountAddressResult(value: unknown, path = 'response'): SubAccountAddress {
  return reqObject(asObject(value, path), 'result', path, (v, p) => {
    const o = asObject(v, p);
    return {
      address: reqString(o, 'address', p),
      payment_id: optString(o, 'payment_id', p),
      public_key: optString(o, 'public_key', p),
    };
  });
}

