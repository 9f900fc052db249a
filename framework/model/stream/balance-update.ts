import type { Decimal } from '../decimal.js';
import { ParseError } from '../errors.js';
import { parseTransaction, type Transaction } from '../resources/wallet.js';
import { asObject, mapArray, optDecimal, reqDecimal, reqString } from '../wire.js';

/** Accounts whose balances the trading and wallet streams report. */
export const BALANCE_ACCOUNTS = ['spot', 'margin', 'futures', 'wallet'] as const;
export type BalanceAccount = (typeof BALANCE_ACCOUNTS)[number];

/** One currency's balance as a balance notification reports it (absolute values, not deltas). */
export interface BalanceUpdate {
  readonly currency: string;
  readonly available: Decimal;
  readonly reserved: Decimal;
  readonly reserved_margin?: Decimal;
}

/**
 * Balances of one notification. The exchange puts no time in balance frames, so `exchangeTime`
 * is the receive time: the best bound available, and it keeps replay ordering consistent.
 */
export interface BalanceNotification {
  readonly kind: 'balances';
  readonly account: BalanceAccount;
  readonly balances: readonly BalanceUpdate[];
  readonly exchangeTime: number;
  readonly receivedAt: number;
}

/** A wallet `transaction_update` notification. */
export interface TransactionNotification {
  readonly kind: 'transaction';
  readonly transaction: Transaction;
  /** The transaction's `updated_at`, UNIX ms. */
  readonly exchangeTime: number;
  readonly receivedAt: number;
}

/** Parses one balance entry. */
export function parseBalanceUpdate(value: unknown, path = 'balance'): BalanceUpdate {
  const o = asObject(value, path);
  return {
    currency: reqString(o, 'currency', path),
    available: reqDecimal(o, 'available', path),
    reserved: reqDecimal(o, 'reserved', path),
    reserved_margin: optDecimal(o, 'reserved_margin', path),
  };
}

/*
 * Observed and documented names: spot_balance (trading stream), wallet_balances and
 * wallet_balance_update (subscribe_wallet_balances). Variants with or without the plural and the
 * `_update` suffix are accepted for every account because the spec does not list them.
 */
const BALANCE_METHOD = /^(spot|margin|futures|wallet)_balances?(?:_update)?$/;

/**
 * Parses `{"method":"spot_balance"|"futures_balance"|"wallet_balances"|..., "params":[...]}`; a
 * single object in `params` is accepted as a one-entry list. Returns null for other frames.
 */
export function parseBalanceNotification(frame: unknown, receivedAt: number): BalanceNotification | null {
  const msg = asObject(frame, 'frame');
  const method = msg['method'];
  if (typeof method !== 'string') return null;
  const m = BALANCE_METHOD.exec(method);
  if (m === null) return null;
  const raw = msg['params'];
  if (raw == null) throw new ParseError('params', 'is required');
  const balances = Array.isArray(raw) ? mapArray(raw, 'params', (v, p) => parseBalanceUpdate(v, p)) : [parseBalanceUpdate(raw, 'params')];
  return { kind: 'balances', account: m[1] as BalanceAccount, balances, exchangeTime: receivedAt, receivedAt };
}

/** Parses `{"method":"transaction_update","params":{Transaction}}`; null for other frames. */
export function parseTransactionNotification(frame: unknown, receivedAt: number): TransactionNotification | null {
  const msg = asObject(frame, 'frame');
  if (msg['method'] !== 'transaction_update') return null;
  if (msg['params'] == null) throw new ParseError('params', 'is required');
  const transaction = parseTransaction(msg['params'], 'params');
  return { kind: 'transaction', transaction, exchangeTime: transaction.updated_at, receivedAt };
}
