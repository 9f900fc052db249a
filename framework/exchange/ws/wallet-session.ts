import { Subject, type Observable } from 'rxjs';
import { ValidationError } from '../../model/errors.js';
import { parseWalletBalance, parseWalletBalanceList, type WalletBalance } from '../../model/resources/balance.js';
import { parseTransactionList, type Transaction } from '../../model/resources/wallet.js';
import {
  parseBalanceNotification, parseTransactionNotification, type BalanceNotification, type TransactionNotification,
} from '../../model/stream/balance-update.js';
import type { ApiCredentials } from '../rest/credentials.js';
import { AuthenticatedSession, type AuthenticatedSessionOptions } from './authenticated-session.js';
import type { RpcConnection, RpcNotification } from './rpc-connection.js';

/** Filters of `get_transactions`, as the REST transaction history takes them. */
export interface TransactionQuery {
  readonly currencies?: readonly string[];
  readonly types?: readonly string[];
  readonly subtypes?: readonly string[];
  readonly statuses?: readonly string[];
  readonly order_by?: 'created_at' | 'updated_at';
  readonly sort?: 'ASC' | 'DESC';
  /** UNIX ms or ISO 8601. */
  readonly from?: number | string;
  readonly till?: number | string;
  readonly id_from?: number;
  readonly id_till?: number;
  /** 1..1000. */
  readonly limit?: number;
  /** 0..100000. */
  readonly offset?: number;
}

const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * A wallet session on `/api/3/ws/wallet`: login, transactions and wallet balances, with their
 * subscriptions restored after every reconnect.
 */
export class WalletSession extends AuthenticatedSession {
  private readonly transactionSubject = new Subject<TransactionNotification>();
  private readonly balanceSubject = new Subject<BalanceNotification>();

  /** Transaction updates (after `subscribeTransactions`). */
  readonly transactions$: Observable<TransactionNotification> = this.transactionSubject.asObservable();
  /** Wallet balance snapshots and updates (after `subscribeWalletBalances`). */
  readonly balances$: Observable<BalanceNotification> = this.balanceSubject.asObservable();

  constructor(rpc: RpcConnection, credentials: ApiCredentials, waitForOpenMs?: number) {
    super(rpc, credentials, waitForOpenMs);
  }

  /** Builds the socket and request layer from options (not yet connected). */
  static create(options: AuthenticatedSessionOptions): WalletSession {
    return new WalletSession(AuthenticatedSession.connection(options), options.credentials, options.requestTimeoutMs);
  }

  /** Subscribes to transaction updates. */
  subscribeTransactions(): Promise<void> {
    return this.subscribeStream('subscribe_transactions', 'subscribe_transactions');
  }

  /** Stops transaction updates. */
  unsubscribeTransactions(): Promise<void> {
    return this.unsubscribeStream('subscribe_transactions', 'unsubscribe_transactions');
  }

  /** Transaction history. */
  async getTransactions(query: TransactionQuery = {}): Promise<Transaction[]> {
    return this.request('get_transactions', transactionParams(query), (r) => parseTransactionList(r, 'result'));
  }

  /** Subscribes to wallet balances (a snapshot, then updates). */
  subscribeWalletBalances(): Promise<void> {
    return this.subscribeStream('subscribe_wallet_balances', 'subscribe_wallet_balances');
  }

  /** Stops wallet balance notifications. */
  unsubscribeWalletBalances(): Promise<void> {
    return this.unsubscribeStream('subscribe_wallet_balances', 'unsubscribe_wallet_balances');
  }

  /** Every non-zero wallet balance. */
  walletBalances(): Promise<WalletBalance[]> {
    return this.request('wallet_balances', undefined, (r) => parseWalletBalanceList(r, 'result'));
  }

  /** The wallet balance of one currency. */
  async walletBalance(currency: string): Promise<WalletBalance> {
    if (typeof currency !== 'string' || !CODE.test(currency)) throw new ValidationError('currency', 'must be a currency code', currency);
    // The single-currency reply may leave the currency out, as its REST twin does.
    return this.request('wallet_balance', { currency }, (r) => parseWalletBalance(
      r !== null && typeof r === 'object' && !('currency' in r) ? { ...r, currency } : r, 'result'));
  }

  protected onNotification(notification: RpcNotification): void {
    const { frame, receivedAt } = notification;
    const method = typeof frame.method === 'string' ? frame.method : '(none)';
    try {
      const transaction = parseTransactionNotification(frame, receivedAt);
      if (transaction !== null) {
        this.transactionSubject.next(transaction);
        return;
      }
      const balances = parseBalanceNotification(frame, receivedAt);
      if (balances !== null) this.balanceSubject.next(balances);
    } catch (error) {
      this.reportParseError(method, receivedAt, error);
    }
  }

  protected completeStreams(): void {
    this.transactionSubject.complete();
    this.balanceSubject.complete();
  }
}

function transactionParams(query: TransactionQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['currencies', 'types', 'subtypes', 'statuses'] as const) {
    const list = query[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((v) => typeof v !== 'string' || v === '')) {
      throw new ValidationError(key, 'must be an array of non-empty strings', list);
    }
    out[key] = list;
  }
  if (query.order_by !== undefined) {
    if (query.order_by !== 'created_at' && query.order_by !== 'updated_at') throw new ValidationError('order_by', 'must be created_at or updated_at', query.order_by);
    out.order_by = query.order_by;
  }
  if (query.sort !== undefined) {
    if (query.sort !== 'ASC' && query.sort !== 'DESC') throw new ValidationError('sort', 'must be ASC or DESC', query.sort);
    out.sort = query.sort;
  }
  for (const key of ['from', 'till'] as const) {
    const v = query[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' && !(Number.isSafeInteger(v) && v >= 0)) throw new ValidationError(key, 'must be UNIX ms or ISO 8601 text', v);
    out[key] = v;
  }
  const ranges = { id_from: [0, Number.MAX_SAFE_INTEGER], id_till: [0, Number.MAX_SAFE_INTEGER], limit: [1, 1000], offset: [0, 100_000] } as const;
  for (const key of Object.keys(ranges) as Array<keyof typeof ranges>) {
    const v = query[key];
    if (v === undefined) continue;
    const [min, max] = ranges[key];
    if (!Number.isInteger(v) || v < min || v > max) throw new ValidationError(key, `must be an integer in ${min}..${max}`, v);
    out[key] = v;
  }
  return out;
}
