import 'reflect-metadata';
import { Container } from 'inversify';
import type { BotConfig } from '../config/bot-config.js';
import { ClientVenuePort } from '../execution/client-venue-port.js';
import type { ApiCredentials } from '../exchange/rest/credentials.js';
import { RestClient } from '../exchange/rest/rest-client.js';
import { RestTransport } from '../exchange/rest/rest-transport.js';
import { PublicSession } from '../exchange/ws/public-session.js';
import { TradingSession } from '../exchange/ws/trading-session.js';
import type { BotLogger } from '../log/logger.js';
import type { LoadedStrategy } from '../runtime/plugin-loader.js';
import { LiveClock, type Clock } from '../time/clock.js';
import { Journal } from './journal.js';
import { LiveBot } from './live-bot.js';
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
  readonly clock?: Clock;
}

/**
 * The one composition root of a live or paper bot: binds every port by symbol (config, clock,
 * logging, REST and WebSocket clients of the exchange, the venue port over them, the journal, the
 * strategy) and the {@link LiveBot} that runs them. Nothing else resolves from the container.
 */
export function createLiveContainer(input: LiveContainerInput): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  const wsBase = input.wsBaseUrl.replace(/\/+$/, '');
  const { config } = input;
  container.bind<BotConfig>(TOKENS.Config).toConstantValue(config);
  container.bind<Clock>(TOKENS.Clock).toConstantValue(input.clock ?? new LiveClock());
  container.bind<BotLogger>(TOKENS.Logger).toConstantValue(input.logger);
  container.bind<ApiCredentials>(TOKENS.Credentials).toConstantValue(input.credentials);
  container.bind<LoadedStrategy>(TOKENS.Strategy).toConstantValue(input.strategy);
  container.bind<RestTransport>(TOKENS.RestTransport).toDynamicValue((ctx) => new RestTransport({
    baseUrl: input.baseUrl, credentials: ctx.get<ApiCredentials>(TOKENS.Credentials),
  }));
  container.bind<RestClient>(TOKENS.RestClient).toDynamicValue((ctx) => new RestClient(ctx.get<RestTransport>(TOKENS.RestTransport)));
  container.bind<PublicSession>(TOKENS.PublicSession).toDynamicValue((ctx) => PublicSession.create({
    url: `${wsBase}/api/3/ws/public`, clock: ctx.get<Clock>(TOKENS.Clock),
  }));
  container.bind<TradingSession>(TOKENS.TradingSession).toDynamicValue((ctx) => TradingSession.create({
    url: `${wsBase}/api/3/ws/trading`, clock: ctx.get<Clock>(TOKENS.Clock),
    credentials: ctx.get<ApiCredentials>(TOKENS.Credentials),
  }));
  container.bind<ClientVenuePort>(TOKENS.VenuePort).toDynamicValue((ctx) => new ClientVenuePort({
    session: ctx.get<TradingSession>(TOKENS.TradingSession), rest: ctx.get<RestClient>(TOKENS.RestClient),
  }));
  container.bind<Journal>(TOKENS.Journal).toDynamicValue((ctx) => new Journal({
    dir: config.journal.dir, botId: config.bot.id, now: () => ctx.get<Clock>(TOKENS.Clock).now(),
  }));
  container.bind<LiveBot>(TOKENS.LiveBot).to(LiveBot);
  return container;
}

/** Resolves the bot (the program's one `get`) and what to close after it: the trading stream and the REST pool. */
export function resolveLiveBot(container: Container): { bot: LiveBot; close: () => Promise<void> } {
  const bot = container.get<LiveBot>(TOKENS.LiveBot);
  const transport = container.get<RestTransport>(TOKENS.RestTransport);
  const session = container.get<TradingSession>(TOKENS.TradingSession);
  return {
    bot,
    close: async () => {
      await session.close();
      await transport.close();
    },
  };
}
