import { Subject, type Observable } from 'rxjs';
import { ValidationError } from '../../model/errors.js';
import { parseWalletBalance, parseWalletBalanceList, type WalletBalance } from '../../model/resources/balance.js';
import { parseTransactionList, TRANSACTION_STATUSES, type Transaction } from '../../model/resources/wallet.js';
import {
  parseBalanceNotification, parseTransactionNotification, type BalanceNotification, type TransactionNotification,
} from '../../model/stream/balance-update.js';
import type { ApiCredentials } from '../rest/credentials.js';
import { TRANSACTION_ORDER_KEYS, type TransactionsParams } from '../rest/endpoints/wallet.js';
import {
  enumParam, limitParam, offsetParam, optionalCodeList, optionalDateTime, optionalEnum, optionalId, SORT_DIRECTIONS,
} from '../rest/params.js';
import { AuthenticatedSession, route, type AuthenticatedSessionOptions } from './authenticated-session.js';
import type { RpcConnection, RpcNotification } from './rpc-connection.js';

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

  private readonly routes = [route(parseTransactionNotification, this.transactionSubject), route(parseBalanceNotification, this.balanceSubject)];

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

  /** Transaction history; the filters and their validation are those of the REST history. */
  async getTransactions(query: TransactionsParams = {}): Promise<Transaction[]> {
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
    this.dispatch(notification, this.routes);
  }

  protected completeStreams(): void {
    this.transactionSubject.complete();
    this.balanceSubject.complete();
  }
}

function transactionParams(query: TransactionsParams): Record<string, unknown> {
  const statuses = query.statuses === undefined ? undefined : typeof query.statuses === 'string' ? [query.statuses] : query.statuses;
  if (statuses !== undefined && !Array.isArray(statuses)) throw new ValidationError('statuses', 'must be a status or an array of statuses', statuses);
  return {
    from: optionalDateTime('from', query.from),
    till: optionalDateTime('till', query.till),
    types: optionalCodeList('types', query.types),
    subtypes: optionalCodeList('subtypes', query.subtypes),
    statuses: statuses?.map((status: unknown, i) => enumParam(`statuses[${i}]`, status, TRANSACTION_STATUSES)),
    currencies: optionalCodeList('currencies', query.currencies),
    id_from: optionalId('id_from', query.id_from),
    id_till: optionalId('id_till', query.id_till),
    tx_ids: optionalCodeList('tx_ids', query.tx_ids),
    order_by: optionalEnum('order_by', query.order_by, TRANSACTION_ORDER_KEYS),
    sort: optionalEnum('sort', query.sort, SORT_DIRECTIONS),
    limit: limitParam(query.limit),
    offset: offsetParam(query.offset),
  };
}
