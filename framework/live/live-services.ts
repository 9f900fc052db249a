import { inject, injectable } from 'inversify';
import type { BotConfig } from '../config/bot-config.js';
import { ClientVenuePort } from '../execution/client-venue-port.js';
import type { ApiCredentials } from '../exchange/rest/credentials.js';
import { RestClient } from '../exchange/rest/rest-client.js';
import { RestTransport } from '../exchange/rest/rest-transport.js';
import { PublicSession, type PublicSessionOptions } from '../exchange/ws/public-session.js';
import { ReconnectingSocket, type ReconnectingSocketOptions } from '../exchange/ws/reconnecting-socket.js';
import { RpcConnection } from '../exchange/ws/rpc-connection.js';
import { TradingSession } from '../exchange/ws/trading-session.js';
import type { Clock } from '../time/clock.js';
import { Journal } from './journal.js';
import type { LiveBot } from './live-bot.js';
import { TOKENS } from './tokens.js';

// The parts of a live bot as the container builds them. The framework's classes take options objects
// and know nothing of inversify; each class here is one of them with its constructor's parameters
// injected by symbol, so the composition root binds classes (`.to()`) and constant values only.

/** Where the exchange is (bound as a constant): REST base URL and the two stream URLs. */
export interface ExchangeEndpoints {
  readonly baseUrl: string;
  readonly publicStreamUrl: string;
  readonly tradingStreamUrl: string;
}

/** Message hooks of one stream's socket. */
export type SocketHooks = Pick<ReconnectingSocketOptions, 'onSent' | 'onReceived' | 'deliver'>;

/** Message hooks of the public and trading streams' sockets (bound as a constant; none by default). */
export interface StreamSocketHooks {
  readonly public?: SocketHooks;
  readonly trading?: SocketHooks;
}

/** The REST connection pool to the exchange, signing with the bot's key. */
@injectable()
export class LiveRestTransport extends RestTransport {
  constructor(@inject(TOKENS.Endpoints) endpoints: ExchangeEndpoints, @inject(TOKENS.Credentials) credentials: ApiCredentials) {
    super({ baseUrl: endpoints.baseUrl, credentials });
  }
}

/** The typed REST client over the bot's transport. */
@injectable()
export class LiveRestClient extends RestClient {
  constructor(@inject(TOKENS.RestTransport) transport: RestTransport) {
    super(transport);
  }
}

/** The public market-data stream (not yet connected). */
@injectable()
export class LivePublicSession extends PublicSession {
  constructor(@inject(TOKENS.Endpoints) endpoints: ExchangeEndpoints, @inject(TOKENS.Clock) clock: Clock, @inject(TOKENS.SocketHooks) hooks: StreamSocketHooks) {
    const options: PublicSessionOptions = { url: endpoints.publicStreamUrl, clock, ...hooks.public };
    super(new RpcConnection(new ReconnectingSocket(options), options));
  }
}

/** The trading stream, logging in with the bot's key (not yet connected). */
@injectable()
export class LiveTradingSession extends TradingSession {
  constructor(
    @inject(TOKENS.Endpoints) endpoints: ExchangeEndpoints,
    @inject(TOKENS.Clock) clock: Clock,
    @inject(TOKENS.Credentials) credentials: ApiCredentials,
    @inject(TOKENS.SocketHooks) hooks: StreamSocketHooks,
  ) {
    // The login signs the wall clock (the exchange checks it against its own); the bot's clock is market time.
    super(TradingSession.connection({ url: endpoints.tradingStreamUrl, clock, credentials, ...hooks.trading }), credentials, undefined, () => Date.now());
  }
}

/**
 * The venue port of the bot's account (`bot.account`: spot, margin or futures): the trading
 * stream, REST when it is down.
 */
@injectable()
export class LiveVenuePort extends ClientVenuePort {
  constructor(
    @inject(TOKENS.TradingSession) session: TradingSession,
    @inject(TOKENS.RestClient) rest: RestClient,
    @inject(TOKENS.Config) config: BotConfig,
  ) {
    super({ session, rest, account: config.bot.account });
  }
}

/** The bot's journal in the configured folder, stamped by the bot's clock. */
@injectable()
export class LiveJournal extends Journal {
  constructor(@inject(TOKENS.Config) config: BotConfig, @inject(TOKENS.Clock) clock: Clock) {
    super({ dir: config.journal.dir, botId: config.bot.id, now: () => clock.now(), durable: config.journal.durable });
  }
}

/** What a program resolves from the container: the bot, and the connections to close after it. */
@injectable()
export class LiveBotHandle {
  constructor(
    @inject(TOKENS.LiveBot) readonly bot: LiveBot,
    @inject(TOKENS.TradingSession) private readonly session: TradingSession,
    @inject(TOKENS.RestTransport) private readonly transport: RestTransport,
  ) {}

  /** Closes the trading stream and the REST pool (the bot closes the rest when it stops). */
  async close(): Promise<void> {
    await this.session.close();
    await this.transport.close();
  }
}
