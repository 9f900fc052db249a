import { Subject, type Observable } from 'rxjs';
import { parseBalanceNotification, type BalanceNotification } from '../../model/stream/balance-update.js';
import { parseOrderReportNotification, type OrderReportNotification } from '../../model/stream/order-report.js';
import type { ApiCredentials } from '../rest/credentials.js';
import { AuthenticatedSession, route, type AuthenticatedSessionOptions } from './authenticated-session.js';
import type { RpcConnection, RpcNotification } from './rpc-connection.js';
import { TradingAccountApi } from './trading-account-api.js';

/**
 * A trading session on `/api/3/ws/trading`: login, typed order and balance methods per account
 * (`spot`, `margin`, `futures`), and the order-report and balance streams. Subscriptions and the
 * login are restored after every reconnect; `resubscribed$` tells an order tracker to reconcile.
 */
export class TradingSession extends AuthenticatedSession {
  private readonly reportSubject = new Subject<OrderReportNotification>();
  private readonly balanceSubject = new Subject<BalanceNotification>();

  /** Order reports: snapshots after subscribing and one notification per change, every account. */
  readonly orderReports$: Observable<OrderReportNotification> = this.reportSubject.asObservable();
  /** Balance notifications of every account. */
  readonly balances$: Observable<BalanceNotification> = this.balanceSubject.asObservable();
  /** Spot methods (`spot_*`). */
  readonly spot = new TradingAccountApi(this, 'spot');
  /** Isolated-margin methods (`margin_*`). */
  readonly margin = new TradingAccountApi(this, 'margin');
  /** Futures methods (`futures_*`). */
  readonly futures = new TradingAccountApi(this, 'futures');

  private readonly routes = [route(parseOrderReportNotification, this.reportSubject), route(parseBalanceNotification, this.balanceSubject)];

  constructor(rpc: RpcConnection, credentials: ApiCredentials, waitForOpenMs?: number, signingNow?: () => number) {
    super(rpc, credentials, waitForOpenMs, signingNow);
  }

  /** Builds the socket and request layer from options (not yet connected). */
  static create(options: AuthenticatedSessionOptions): TradingSession {
    return new TradingSession(AuthenticatedSession.connection(options), options.credentials, options.requestTimeoutMs);
  }

  protected onNotification(notification: RpcNotification): void {
    this.dispatch(notification, this.routes);
  }

  protected completeStreams(): void {
    this.reportSubject.complete();
    this.balanceSubject.complete();
  }
}
