import { BuyCryptoEndpoints } from './endpoints/buy-crypto.js';
import { FuturesEndpoints } from './endpoints/futures.js';
import { MarginEndpoints } from './endpoints/margin.js';
import { MarketDataEndpoints } from './endpoints/market-data.js';
import { SpotEndpoints } from './endpoints/spot.js';
import { SubAccountEndpoints } from './endpoints/sub-account.js';
import { WalletEndpoints } from './endpoints/wallet.js';
import type { RestExecutor } from './rest-request.js';

/**
 * The typed API v3 REST client: one method per documented endpoint, grouped by spec section.
 * Methods validate their parameters (throwing ValidationError before anything is sent), build a
 * request as data and hand it to the executor, which signs, rate-limits, sends, retries and parses.
 * Any {@link RestExecutor} works: the undici transport live or against the sandbox, or a test double.
 */
export class RestClient {
  /** Public market data (document 000). */
  readonly marketData: MarketDataEndpoints;
  /** Spot trading (document 001). */
  readonly spot: SpotEndpoints;
  /** Isolated margin trading (document 001). */
  readonly margin: MarginEndpoints;
  /** Futures trading (document 001). */
  readonly futures: FuturesEndpoints;
  /** Wallet (document 002). */
  readonly wallet: WalletEndpoints;
  /** Sub-accounts (document 002). */
  readonly subAccount: SubAccountEndpoints;
  /** Buying crypto through providers (document 002). */
  readonly buyCrypto: BuyCryptoEndpoints;

  constructor(executor: RestExecutor) {
    this.marketData = new MarketDataEndpoints(executor);
    this.spot = new SpotEndpoints(executor);
    this.margin = new MarginEndpoints(executor);
    this.futures = new FuturesEndpoints(executor);
    this.wallet = new WalletEndpoints(executor);
    this.subAccount = new SubAccountEndpoints(executor);
    this.buyCrypto = new BuyCryptoEndpoints(executor);
  }
}
