import { existsSync } from 'node:fs';
import path from 'node:path';
import { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../backtest/sandbox/simulated-venue-factory.js';
import type { MarketSource } from '../backtest/sandbox/sandbox-config.js';
import { addedLatency } from '../backtest/venue/matching/recorded-latency.js';
import { queueModelNamed } from '../backtest/venue/matching/queue-model.js';
import { FAULT_PRESETS, faultsFrom } from '../backtest/sandbox/fault-presets.js';
import { readYamlFile } from '../framework/config/read-yaml-file.js';
import { syntheticMarketSource } from '../backtest/sandbox/synthetic-source.js';
import { loadBotConfig, type BotConfig } from '../framework/config/bot-config.js';
import { loadCredentials } from '../framework/config/secrets.js';
import { ApiCredentials } from '../framework/exchange/rest/credentials.js';
import type { LiveBot } from '../framework/live/live-bot.js';
import { createLiveContainer, resolveLiveBot } from '../framework/live/live-container.js';
import { createLogger } from '../framework/log/logger.js';
import { toWire } from '../framework/model/decimal.js';
import { ValidationError } from '../framework/model/errors.js';
import { examples, type CliCommand } from './command.js';
import { loadConfiguredStrategy } from './load-configured-strategy.js';
import { paperSummary } from './paper-summary.js';
import { positiveNumber } from './option-parsers.js';
import { stopSignal } from './stop-signal.js';

/**
 * `tradeloop live --config FILE`: runs the bot against the exchange named in the config
 * (`exchange.baseUrl`, `exchange.wsBaseUrl`; keys from the environment or a key file) until
 * SIGINT or SIGTERM.
 */
export const liveCommand: CliCommand<{ readonly config: string }> = {
  name: 'live',
  define(command) {
    command
      .description('Run a bot against the exchange named in its config (exchange.baseUrl, exchange.wsBaseUrl; API keys from the environment or a key file) until SIGINT or SIGTERM, then stop it cleanly (orders canceled unless execution.onShutdown is keep).')
      .requiredOption('--config <file>', 'bot config YAML')
      .addHelpText('after', examples(
        'tradeloop live --config my-bot.yaml   # keys in TRADELOOP_API_KEY, TRADELOOP_SECRET_KEY',
      ));
  },
  async run(values) {
    const file = path.resolve(values.config);
    const config = loadBotConfig(file);
    const credentials = loadCredentials(config.exchange);
    const exchange = config.exchange!;
    return runBot(config, file, exchange.baseUrl, exchange.wsBaseUrl, credentials);
  },
};

interface PaperOptions {
  readonly config: string;
  readonly recording?: string;
  readonly speed?: number;
  readonly duration?: number;
  readonly recordedTime: boolean;
  readonly faults?: string;
  readonly faultSeed: string;
}

/**
 * `tradeloop paper --config FILE [--recording FILE]`: the same bot, against an in-process sandbox
 * exchange over real loopback sockets, replaying the recording in real time (default: the
 * synthetic market), with the config's paper balances. No exchange account needed.
 */
export const paperCommand: CliCommand<PaperOptions> = {
  name: 'paper',
  define(command) {
    command
      .description('Run a bot against an in-process sandbox exchange over loopback sockets, replaying a recording (default: the synthetic market) in real time, with the config\'s paper balances. Stops on SIGINT/SIGTERM or after --duration.')
      .requiredOption('--config <file>', 'bot config YAML')
      .option('--recording <file>', 'recording to replay (default: paper.recording, else synthetic)')
      .option('--speed <x>', 'replay speed factor (default: paper.speed)', positiveNumber)
      .option('--duration <seconds>', 'stop after this many seconds', positiveNumber)
      .option('--recorded-time', 'serve the recording with its recorded dates (default: shifted to now)', false)
      .option('--faults <spec>', `seeded faults of the paper exchange: none, ${Object.keys(FAULT_PRESETS).join(', ')} or a faults file (*.yaml) (default: paper.faults)`)
      .option('--fault-seed <text>', 'seed of the faults (the same seed strikes the same requests)', 'paper')
      .addHelpText('after', examples(
        'tradeloop paper --config config/market-maker.yaml',
        'tradeloop paper --config my-bot.yaml --recording day1.jsonl.gz --speed 10 --duration 60',
      ));
  },
  async run(values) {
    const file = path.resolve(values.config);
    const loaded = loadBotConfig(file);
    // Each paper run trades on a fresh sandbox account: its journal must not restore another run's orders and positions.
    const runDir = path.join(loaded.journal.dir, 'paper', new Date().toISOString().replace(/[:.]/g, '-'));
    const config: BotConfig = { ...loaded, journal: { dir: runDir } };
    const recording = values.recording === undefined ? config.paper.recording : path.resolve(values.recording);
    if (recording !== undefined && !existsSync(recording)) throw new ValidationError('--recording', 'no such file', recording);
    const speed = values.speed ?? config.paper.speed;
    const server = await SandboxServer.start({
      venue: simulatedVenueFactory(0, {}, queueModelNamed(config.paper.queueModel, 'paper.queueModel'), config.bot.account === 'margin' ? config.strategy.symbols : undefined), market: marketSource(recording, config.paper.seed), speed,
      // A futures bot's paper balances are its futures margin; a spot bot's its spot holdings; a
      // margin bot's quote currencies fund its symbols' isolated accounts (the factory moves them).
      accounts: [{ id: 'main', [config.bot.account === 'futures' ? 'futures' : 'spot']: Object.fromEntries(Object.entries(config.paper.balances).map(([c, v]) => [c, toWire(v)])) }],
      latency: addedLatency(config.paper.latency, config.paper.seed),
      // The bot asks for "since an hour ago" and stamps its journal with the wall clock: the market is served as now.
      shiftToNow: !values.recordedTime,
      // The replay starts once the bot has subscribed, so it sees the market from the first frame.
      paused: true,
      faults: faultsFrom(values.faults ?? config.paper.faults, values.faults === undefined ? 'paper.faults' : '--faults', (f) => readYamlFile(f, 'faults')), seed: values.faultSeed,
    });
    const key = server.apiKeys[0]!;
    console.log(`paper exchange at ${server.baseUrl} (${recording === undefined ? `synthetic market, seed ${config.paper.seed}` : recording})`);
    const credentials = ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' });
    const duration = values.duration === undefined ? undefined : values.duration * 1000;
    try {
      const stopOn = [server.done, ...(duration === undefined ? [] : [sleep(duration)])];
      return await runBot(config, file, server.baseUrl, server.wsBaseUrl, credentials, stopOn, async (bot) => {
        console.log(await paperSummary(bot, server.baseUrl, credentials, config.paper.balances, config.bot.account));
      }, (bot) => void bot.trading.then(() => server.play()));
    } finally {
      await server.close();
    }
  },
};

async function runBot(
  config: BotConfig, configFile: string, baseUrl: string, wsBaseUrl: string, credentials: ApiCredentials,
  alsoStopOn: Promise<unknown>[] = [], afterRun?: (bot: LiveBot) => Promise<void>, beforeRun?: (bot: LiveBot) => void,
): Promise<number> {
  const logger = createLogger({ level: config.logging.level, file: config.logging.file, console: config.logging.console, secrets: [credentials.apiKey, credentials.secretKey] });
  const strategy = await loadConfiguredStrategy(config, configFile);
  const { bot, close } = resolveLiveBot(createLiveContainer({ config, baseUrl, wsBaseUrl, credentials, logger, strategy }));
  const stop = stopSignal({ onStop: (reason) => console.log(`stopping (${reason === 'orphaned' ? 'parent process gone' : reason})...`) });
  try {
    beforeRun?.(bot);
    const code = await bot.run(Promise.race([stop.stopped, ...alsoStopOn]));
    await afterRun?.(bot);
    return code;
  } finally {
    stop.dispose();
    await close();
    await logger.close();
  }
}

function marketSource(recording: string | undefined, seed: number): MarketSource {
  return recording === undefined ? syntheticMarketSource(seed) : { kind: 'recording', path: recording };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
