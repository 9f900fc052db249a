import 'reflect-metadata';
import { Container } from 'inversify';
import type { BotConfig } from '../config/bot-config.js';
import type { ClientVenuePort } from '../execution/client-venue-port.js';
import type { ApiCredentials } from '../exchange/rest/credentials.js';
import type { RestClient } from '../exchange/rest/rest-client.js';
import type { RestTransport } from '../exchange/rest/rest-transport.js';
import type { PublicSession } from '../exchange/ws/public-session.js';
import type { TradingSession } from '../exchange/ws/trading-session.js';
import type { BotLogger } from '../log/logger.js';
import type { LoadedStrategy } from '../runtime/plugin-loader.js';
import { liveSchedulers, type RuntimeSchedulers } from '../runtime/runtime-ports.js';
import type { Clock } from '../time/clock.js';
import { MarketClock } from '../time/market-clock.js';
import type { Journal } from './journal.js';
import { LiveBot } from './live-bot.js';
import {
  LiveBotHandle,
  LiveJournal,
  LivePublicSession,
  LiveRestClient,
  LiveRestTransport,
  LiveTradingSession,
  LiveVenuePort,
  type ExchangeEndpoints,
  type StreamSocketHooks,
} from './live-services.js';
import { TOKENS } from './tokens.js';

/** What the composition root needs that only the command line knows. */
export interface LiveContainerInput {
  readonly config: BotConfig;
  /** The exchange's base_url and ws_base_url (config, or the in-process sandbox for paper). */
  readonly baseUrl: string;
  readonly wsBaseUrl: string;
  readonly credentials: ApiCredentials;
  readonly logger: BotLogger;
  readonly strategy: LoadedStrategy;
  /** The bot's clock; default a {@link MarketClock} started at the wall clock (live). */
  readonly clock?: Clock;
  /** Where timers and the engine's drain run (default {@link liveSchedulers}; lockstep: the replay's virtual time). */
  readonly schedulers?: RuntimeSchedulers;
  /** Told of the public and trading streams' messages (a lockstep client counts them). */
  readonly socketHooks?: StreamSocketHooks;
}

/**
 * The one composition root of a live or paper bot. Values only the command line knows (config,
 * endpoints, key, logger, loaded strategy, clock) are constants; every part is a class built by
 * constructor injection, bound by symbol (REST and WebSocket clients of the exchange, the venue
 * port over them, the journal, the {@link LiveBot} that runs them). Nothing else resolves from the
 * container: {@link resolveLiveBot} makes its one `get`.
 */
export function createLiveContainer(input: LiveContainerInput): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  const wsBase = input.wsBaseUrl.replace(/\/+$/, '');
  const endpoints: ExchangeEndpoints = {
    baseUrl: input.baseUrl,
    publicStreamUrl: `${wsBase}/api/3/ws/public`,
    tradingStreamUrl: `${wsBase}/api/3/ws/trading`,
  };
  container.bind<BotConfig>(TOKENS.Config).toConstantValue(input.config);
  container.bind<ExchangeEndpoints>(TOKENS.Endpoints).toConstantValue(endpoints);
  // Market time: the exchange's time of the frames received, running on with the wall clock between them.
  container.bind<Clock>(TOKENS.Clock).toConstantValue(input.clock ?? new MarketClock({ start: Date.now() }));
  container.bind<RuntimeSchedulers>(TOKENS.Schedulers).toConstantValue(input.schedulers ?? liveSchedulers());
  container.bind<StreamSocketHooks>(TOKENS.SocketHooks).toConstantValue(input.socketHooks ?? {});
  container.bind<BotLogger>(TOKENS.Logger).toConstantValue(input.logger);
  container.bind<ApiCredentials>(TOKENS.Credentials).toConstantValue(input.credentials);
  container.bind<LoadedStrategy>(TOKENS.Strategy).toConstantValue(input.strategy);
  container.bind<RestTransport>(TOKENS.RestTransport).to(LiveRestTransport);
  container.bind<RestClient>(TOKENS.RestClient).to(LiveRestClient);
  container.bind<PublicSession>(TOKENS.PublicSession).to(LivePublicSession);
  container.bind<TradingSession>(TOKENS.TradingSession).to(LiveTradingSession);
  container.bind<ClientVenuePort>(TOKENS.VenuePort).to(LiveVenuePort);
  container.bind<Journal>(TOKENS.Journal).to(LiveJournal);
  container.bind<LiveBot>(TOKENS.LiveBot).to(LiveBot);
  container.bind<LiveBotHandle>(TOKENS.LiveBotHandle).to(LiveBotHandle);
  return container;
}

/** Resolves the bot and what to close after it: the program's one `get`. */
export function resolveLiveBot(container: Container): { bot: LiveBot; close: () => Promise<void> } {
  const handle = container.get<LiveBotHandle>(TOKENS.LiveBotHandle);
  return { bot: handle.bot, close: () => handle.close() };
}
