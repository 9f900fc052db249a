import path from 'node:path';
import { parseArgs } from 'node:util';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import type { MarketSource } from '../../backtest/sandbox/sandbox-config.js';
import { ConstantLatency } from '../../backtest/venue/matching/latency-model.js';
import { syntheticMarketSource } from '../../backtest/sandbox/synthetic-source.js';
import { loadBotConfig, type BotConfig } from '../config/bot-config.js';
import { loadCredentials } from '../config/secrets.js';
import { ApiCredentials } from '../exchange/rest/credentials.js';
import { createLiveContainer, resolveLiveBot } from '../live/live-container.js';
import { createLogger } from '../log/logger.js';
import { toWire } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';
import { loadStrategy } from '../runtime/plugin-loader.js';
import type { CliCommand } from './command.js';

/**
 * `tradeloop live --config FILE`: runs the bot against the exchange named in the config
 * (`exchange.baseUrl`, `exchange.wsBaseUrl`; keys from the environment or a key file) until
 * SIGINT or SIGTERM.
 */
export const liveCommand: CliCommand = {
  name: 'live',
  usage: 'live --config FILE',
  summary: 'run a bot against the exchange in the config (keys from env or a key file)',
  async run(args) {
    const { values } = parseArgs({ args: [...args], options: { config: { type: 'string' } }, strict: true });
    const file = requiredConfig(values.config);
    const config = loadBotConfig(file);
    const credentials = loadCredentials(config.exchange);
    const exchange = config.exchange!;
    return runBot(config, path.dirname(file), exchange.baseUrl, exchange.wsBaseUrl, credentials);
  },
};

/**
 * `tradeloop paper --config FILE [--recording FILE]`: the same bot, against an in-process sandbox
 * exchange over real loopback sockets, replaying the recording in real time (default: the
 * synthetic market), with the config's paper balances. No exchange account needed.
 */
export const paperCommand: CliCommand = {
  name: 'paper',
  usage: 'paper --config FILE [--recording FILE] [--speed X] [--duration SECONDS] [--recorded-time]',
  summary: 'run a bot against a local sandbox exchange replaying a recording (no account needed)',
  async run(args) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        config: { type: 'string' }, recording: { type: 'string' }, speed: { type: 'string' }, duration: { type: 'string' },
        'recorded-time': { type: 'boolean', default: false },
      },
      strict: true,
    });
    const file = requiredConfig(values.config);
    const loaded = loadBotConfig(file);
    // Each paper run trades on a fresh sandbox account: its journal must not restore another run's orders and positions.
    const runDir = path.join(loaded.journal.dir, 'paper', new Date().toISOString().replace(/[:.]/g, '-'));
    const config: BotConfig = { ...loaded, journal: { dir: runDir } };
    const recording = values.recording === undefined ? config.paper.recording : path.resolve(values.recording);
    const speed = values.speed === undefined ? config.paper.speed : Number(values.speed);
    const server = await SandboxServer.start({
      venue: simulatedVenueFactory(), market: marketSource(recording, config.paper.seed), speed,
      accounts: [{ id: 'main', spot: Object.fromEntries(Object.entries(config.paper.balances).map(([c, v]) => [c, toWire(v)])) }],
      latency: config.paper.latencyMs > 0 ? new ConstantLatency(config.paper.latencyMs) : undefined,
      // The bot asks for "since an hour ago" and stamps its journal with the wall clock: the market is served as now.
      shiftToNow: !values['recorded-time'],
    });
    const key = server.apiKeys[0]!;
    console.log(`paper exchange at ${server.baseUrl} (${recording === undefined ? `synthetic market, seed ${config.paper.seed}` : recording})`);
    const credentials = ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' });
    const duration = values.duration === undefined ? undefined : Number(values.duration) * 1000;
    try {
      return await runBot(config, path.dirname(file), server.baseUrl, server.wsBaseUrl, credentials, [server.done, ...(duration === undefined ? [] : [sleep(duration)])]);
    } finally {
      await server.close();
    }
  },
};

async function runBot(config: BotConfig, configDir: string, baseUrl: string, wsBaseUrl: string, credentials: ApiCredentials, alsoStopOn: Promise<unknown>[] = []): Promise<number> {
  const logger = createLogger({ level: config.logging.level, file: config.logging.file, console: config.logging.console, secrets: [credentials.apiKey, credentials.secretKey] });
  const strategy = await loadStrategy(config.strategy.name, config.strategy.params, { baseDir: configDir });
  const { bot, close } = resolveLiveBot(createLiveContainer({ config, baseUrl, wsBaseUrl, credentials, logger, strategy }));
  const stop = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  try {
    return await bot.run(Promise.race([stop, ...alsoStopOn]));
  } finally {
    await close();
    await logger.close();
  }
}

function requiredConfig(file: string | undefined): string {
  if (file === undefined) throw new ValidationError('--config', 'is required: the bot config YAML file');
  return path.resolve(file);
}

function marketSource(recording: string | undefined, seed: number): MarketSource {
  return recording === undefined ? syntheticMarketSource(seed) : { kind: 'recording', path: recording };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
