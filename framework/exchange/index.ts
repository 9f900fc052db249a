/**
 * `tradeloop/exchange`: the typed client of Exchange API v3 on its own, for programs that talk to
 * the exchange without running a bot: REST over undici (a typed method per endpoint, HS256/Basic
 * signing, client-side rate limits, safe retries) and the reconnecting WebSocket sessions (public
 * market data, trading, wallet). Errors are typed (`ExchangeError`, `RateLimitError`,
 * `NetworkError`, `TimeoutError` from `tradeloop`) and say whether a retry can help.
 *
 * @packageDocumentation
 */

export { ApiCredentials, type ApiCredentialsInput, type AuthScheme } from './rest/credentials.js';
export { RestTransport, type RestTransportOptions } from './rest/rest-transport.js';
export { RestClient } from './rest/rest-client.js';
export { PublicSession, type PublicSessionOptions } from './ws/public-session.js';
export { TradingSession } from './ws/trading-session.js';
export { WalletSession } from './ws/wallet-session.js';
export type { AuthenticatedSessionOptions } from './ws/authenticated-session.js';
export type { Resubscription, SessionEvent } from './ws/session-event.js';
export { OrderBook, type BookSide } from './book/order-book.js';
export type { BookFrame, BookLevelText, OrderBookFrame, ScaledOrderBookFrame } from './book/order-book-frame.js';
export type { BookScales } from './book/order-book-message-decoder.js';
export * from '../model/resources/index.js';
