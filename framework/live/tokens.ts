/** Service identifiers of the live composition root (ports bound by symbol, never by class). */
export const TOKENS = {
  Config: Symbol.for('tradeloop.Config'),
  Clock: Symbol.for('tradeloop.Clock'),
  Schedulers: Symbol.for('tradeloop.Schedulers'),
  SocketHooks: Symbol.for('tradeloop.SocketHooks'),
  Logger: Symbol.for('tradeloop.Logger'),
  Credentials: Symbol.for('tradeloop.Credentials'),
  Endpoints: Symbol.for('tradeloop.Endpoints'),
  RestTransport: Symbol.for('tradeloop.RestTransport'),
  RestClient: Symbol.for('tradeloop.RestClient'),
  PublicSession: Symbol.for('tradeloop.PublicSession'),
  TradingSession: Symbol.for('tradeloop.TradingSession'),
  VenuePort: Symbol.for('tradeloop.VenuePort'),
  Journal: Symbol.for('tradeloop.Journal'),
  Strategy: Symbol.for('tradeloop.Strategy'),
  LiveBot: Symbol.for('tradeloop.LiveBot'),
  LiveBotHandle: Symbol.for('tradeloop.LiveBotHandle'),
} as const;
