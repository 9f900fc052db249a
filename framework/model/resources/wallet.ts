import type { Decimal } from '../decimal.js';
import { ParseError } from '../errors.js';
import {
  asObject, childPath, mapArray, optArray, optDecimal, optId, optInt, optObject, optString, optTime, reqBool, reqDecimal,
  reqEnum, reqId, reqString, reqTime,
} from '../wire.js';

/** Transaction statuses. */
export const TRANSACTION_STATUSES = ['CREATED', 'PENDING', 'FAILED', 'SUCCESS', 'ROLLED_BACK'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/**
 * Documented transaction types. Others exist ("not shown" in the spec), so `Transaction.type` is
 * any string and this list only names the ones the framework acts on.
 */
export const TRANSACTION_TYPES = ['DEPOSIT', 'WITHDRAW', 'TRANSFER'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** API v3 deposit address (`/api/3/wallet/crypto/address`). */
export interface DepositAddress {
  readonly currency?: string;
  readonly address: string;
  /** Memo-like extra identifier. */
  readonly payment_id?: string;
  readonly public_key?: string;
}

/** Parses a deposit address. */
export function parseDepositAddress(value: unknown, path = 'address'): DepositAddress {
  const o = asObject(value, path);
  return {
    currency: optString(o, 'currency', path),
    address: reqString(o, 'address', path),
    payment_id: optString(o, 'payment_id', path),
    public_key: optString(o, 'public_key', path),
  };
}

/** Parses an array of deposit addresses. */
export function parseDepositAddressList(value: unknown, path = 'addresses'): DepositAddress[] {
  return mapArray(value, path, (v, p) => parseDepositAddress(v, p));
}

/** On-chain part of a transaction. */
export interface TransactionNative {
  readonly tx_id: string;
  /** Internal update index. */
  readonly index?: string;
  readonly currency: string;
  readonly amount: Decimal;
  readonly fee?: Decimal;
  readonly address?: string;
  readonly payment_id?: string;
  readonly hash?: string;
  /** External system id. */
  readonly offchain_id?: string;
  readonly confirmations?: number;
  readonly public_comment?: string;
  /** Payout error such as INVALID_ADDRESS, INVALID_PAYMENT_ID, BAD_PRECISION. */
  readonly error_code?: string;
  /** Deposits only. */
  readonly senders?: readonly string[];
}

/** One leg of a trust-custody transaction; every field is optional in the API. */
export interface CustodianLeg {
  readonly id?: string;
  readonly tx_id?: string;
  readonly provider_id?: string;
  readonly method_id?: string;
  /** ACH, CREDIT_CARD or WIRE. */
  readonly method_type?: string;
  readonly currency?: string;
  readonly amount?: Decimal;
  readonly balance?: Decimal;
}

/** Trust-custody attributes of a transaction. */
export interface TransactionCustodian {
  readonly deposit?: CustodianLeg;
  readonly withdrawal?: CustodianLeg;
  readonly transfer?: CustodianLeg;
}

/** Fiat-to-crypto purchase details (subtype FIAT); all fields optional, times in UNIX ms. */
export interface FiatToCrypto {
  readonly id?: string;
  readonly provider_name?: string;
  readonly order_type?: string;
  readonly source_currency?: string;
  readonly target_currency?: string;
  readonly wallet_address?: string;
  readonly tx_hash?: string;
  readonly target_amount?: Decimal;
  readonly source_amount?: Decimal;
  /** ACTIVE or INACTIVE. */
  readonly status?: string;
  readonly created_at?: number;
  readonly updated_at?: number;
  readonly deleted_at?: number;
  readonly payment_method_type?: string;
}

/** Extra transaction metadata. */
export interface TransactionMeta {
  readonly fiat_to_crypto?: FiatToCrypto;
}

/** API v3 wallet transaction (`GET /api/3/wallet/transactions`, `transaction_update` notifications). */
export interface Transaction {
  readonly id: string;
  readonly status: TransactionStatus;
  /** DEPOSIT, WITHDRAW, TRANSFER or another type the spec does not list. */
  readonly type: string;
  /** For example BLOCKCHAIN, FIAT. */
  readonly subtype: string;
  readonly created_at: number;
  readonly updated_at: number;
  readonly native?: TransactionNative;
  readonly custodian?: TransactionCustodian;
  readonly meta?: TransactionMeta;
}

function parseNative(value: unknown, path: string): TransactionNative {
  const o = asObject(value, path);
  return {
    tx_id: reqString(o, 'tx_id', path),
    index: optId(o, 'index', path),
    currency: reqString(o, 'currency', path),
    amount: reqDecimal(o, 'amount', path),
    fee: optDecimal(o, 'fee', path),
    address: optString(o, 'address', path),
    payment_id: optString(o, 'payment_id', path),
    hash: optString(o, 'hash', path),
    offchain_id: optString(o, 'offchain_id', path),
    confirmations: optInt(o, 'confirmations', path),
    public_comment: optString(o, 'public_comment', path),
    error_code: optString(o, 'error_code', path),
    senders: optArray(o, 'senders', path, stringAt),
  };
}

function parseCustodianLeg(value: unknown, path: string): CustodianLeg {
  const o = asObject(value, path);
  return {
    id: optId(o, 'id', path),
    tx_id: optString(o, 'tx_id', path),
    provider_id: optId(o, 'provider_id', path),
    method_id: optId(o, 'method_id', path),
    method_type: optString(o, 'method_type', path),
    currency: optString(o, 'currency', path),
    amount: optDecimal(o, 'amount', path),
    balance: optDecimal(o, 'balance', path),
  };
}

function parseCustodian(value: unknown, path: string): TransactionCustodian {
  const o = asObject(value, path);
  return {
    deposit: optObject(o, 'deposit', path, parseCustodianLeg),
    withdrawal: optObject(o, 'withdrawal', path, parseCustodianLeg),
    transfer: optObject(o, 'transfer', path, parseCustodianLeg),
  };
}

function parseFiatToCrypto(value: unknown, path: string): FiatToCrypto {
  const o = asObject(value, path);
  return {
    id: optId(o, 'id', path),
    provider_name: optString(o, 'provider_name', path),
    order_type: optString(o, 'order_type', path),
    source_currency: optString(o, 'source_currency', path),
    target_currency: optString(o, 'target_currency', path),
    wallet_address: optString(o, 'wallet_address', path),
    tx_hash: optString(o, 'tx_hash', path),
    target_amount: optDecimal(o, 'target_amount', path),
    source_amount: optDecimal(o, 'source_amount', path),
    status: optString(o, 'status', path),
    created_at: optTime(o, 'created_at', path),
    updated_at: optTime(o, 'updated_at', path),
    deleted_at: optTime(o, 'deleted_at', path),
    payment_method_type: optString(o, 'payment_method_type', path),
  };
}

function parseMeta(value: unknown, path: string): TransactionMeta {
  const o = asObject(value, path);
  return { fiat_to_crypto: optObject(o, 'fiat_to_crypto', path, parseFiatToCrypto) };
}

/** Parses a wallet transaction; unknown `type` and `subtype` strings are kept as sent. */
export function parseTransaction(value: unknown, path = 'transaction'): Transaction {
  const o = asObject(value, path);
  return {
    id: reqId(o, 'id', path),
    status: reqEnum(o, 'status', TRANSACTION_STATUSES, path),
    type: reqString(o, 'type', path),
    subtype: reqString(o, 'subtype', path),
    created_at: reqTime(o, 'created_at', path),
    updated_at: reqTime(o, 'updated_at', path),
    native: optObject(o, 'native', path, parseNative),
    custodian: optObject(o, 'custodian', path, parseCustodian),
    meta: optObject(o, 'meta', path, parseMeta),
  };
}

/** Parses the array response of `GET /api/3/wallet/transactions`. */
export function parseTransactionList(value: unknown, path = 'transactions'): Transaction[] {
  return mapArray(value, path, (v, p) => parseTransaction(v, p));
}

/** `{ id: String }` (withdraw, transfer). */
export interface IdResult {
  readonly id: string;
}

/** Parses `{ id }`. */
export function parseIdResult(value: unknown, path = 'response'): IdResult {
  return { id: reqId(asObject(value, path), 'id', path) };
}

/** `{ result: Boolean }` (withdraw commit and rollback, check-mine, sub-account freeze). */
export interface BooleanResult {
  readonly result: boolean;
}

/** Parses `{ result: Boolean }`. */
export function parseBooleanResult(value: unknown, path = 'response'): BooleanResult {
  return { result: reqBool(asObject(value, path), 'result', path) };
}

/** Parses `{ result: [transaction ids] }` (convert); ids sent as numbers become strings. */
export function parseTransactionIdsResult(value: unknown, path = 'response'): string[] {
  const o = asObject(value, path);
  return mapArray(o['result'], childPath(path, 'result'), idAt);
}

/** Parses `{ result: String }` (internal withdraw, sub-account transfer). */
export function parseStringResult(value: unknown, path = 'response'): string {
  return reqId(asObject(value, path), 'result', path);
}

function stringAt(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new ParseError(path, 'must be a string', value);
  return value;
}

function idAt(value: unknown, path: string): string {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw new ParseError(path, 'must be an identifier (string or integer)', value);
}
