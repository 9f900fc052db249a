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
import { createLiveContainer, resolveLiveBot, type LiveContainerInput } from '../framework/live/live-container.js';
import { lockstepWiring } from './lockstep-wiring.js';
import { marketTimeSchedulers } from '../framework/runtime/market-time-scheduler.js';
import { MarketClock } from '../framework/time/market-clock.js';
import { createLogger } from '../framework/log/logger.js';
import { toWire } from '../framework/model/decimal.js';
import { ValidationError } from '../framework/model/errors.js';
import { examples, type CliCommand } from './command.js';
import { loadConfiguredStrategy } from './load-configured-strategy.js';
import { paperSummary } from './paper-summary.js';
import { positiveNumber } from './option-parsers.js';
import { stopSignal } from './stop-signal.js';
import { checkWritableDir } from './check-writable.js';
import { LiveRunReport } from '../backtest/replay/live-run-report.js';
import type { Decimal } from '../framework/model/decimal.js';

/**
 * `tradeloop live --config FILE`: runs the bot against the exchange named in the config
 * (`exchange.baseUrl`, `exchange.wsBaseUrl`; keys from the environment or a key file) until
 * SIGINT or SIGTERM.
 */
export const liveCommand: CliCommand<{ readonly config: string; readonly out?: string }> = {
  name: 'live',
  define(command) {
    command
      .description('Run a bot against the exchange named in its config (exchange.baseUrl, exchange.wsBaseUrl; API keys from the environment or a key file) until SIGINT or SIGTERM, then stop it cleanly (orders canceled unless execution.onShutdown is keep).')
      .requiredOption('--config <file>', 'bot config YAML')
      .option('--out <dir>', OUT_HELP)
      .addHelpText('after', examples(
        'tradeloop live --config my-bot.yaml   # keys in TRADELOOP_API_KEY, TRADELOOP_SECRET_KEY',
        'tradeloop live --config my-bot.yaml --out reports/live-day1',
      ));
  },
  async run(values) {
    const file = path.resolve(values.config);
    const config = loadBotConfig(file);
    const credentials = loadCredentials(config.exchange);
    const exchange = config.exchange!;
    const report = reportFolder(values.out, config);
    return runBot(config, file, exchange.baseUrl, exchange.wsBaseUrl, credentials, { report });
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
  readonly out?: string;
  readonly lockstep?: boolean;
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
      .option('--out <dir>', OUT_HELP)
      .option('--lockstep', 'lockstep replay: the next frame waits until the bot is idle; the bot runs on the recording\'s market time and fills as a backtest with the same latency does (default: paper.lockstep)')
      .addHelpText('after', examples(
        'tradeloop paper --config config/market-maker.yaml',
        'tradeloop paper --config my-bot.yaml --recording day1.jsonl.gz --out reports/paper-day1 --recorded-time',
        'tradeloop paper --config my-bot.yaml --recording day1.jsonl.gz --speed 10 --duration 60',
        'tradeloop paper --config my-bot.yaml --recording day1.jsonl.gz --lockstep   # fill for fill as a backtest',
      ));
  },
  async run(values) {
    const file = path.resolve(values.config);
    const loaded = loadBotConfig(file);
    // Each paper run trades on a fresh sandbox account: its journal must not restore another run's orders and positions.
    // Nor need it survive an operating-system crash: written without fsync.
    const runDir = path.join(loaded.journal.dir, 'paper', new Date().toISOString().replace(/[:.]/g, '-'));
    const config: BotConfig = { ...loaded, journal: { dir: runDir, durable: false } };
    const recording = values.recording === undefined ? config.paper.recording : path.resolve(values.recording);
    if (recording !== undefined && !existsSync(recording)) throw new ValidationError('--recording', 'no such file', recording);
    const speed = values.speed ?? config.paper.speed;
    const report = reportFolder(values.out, config, config.paper.balances);
    const lockstep = values.lockstep ?? config.paper.lockstep;
    const server = await SandboxServer.start({
      lockstep,
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
      const wiring = lockstep ? lockstepWiring(server) : undefined;
      // Market time: the replay's, standing at its start until the first frame, then at `speed` times the wall clock.
      const clock = new MarketClock({ start: server.venue.now(), rate: speed, waitForMarket: true });
      const parts = wiring === undefined
        ? { clock, schedulers: marketTimeSchedulers(clock, speed) }
        : { clock: wiring.clock, schedulers: wiring.schedulers, socketHooks: wiring.socketHooks };
      return await runBot(config, file, server.baseUrl, server.wsBaseUrl, credentials, {
        alsoStopOn: stopOn,
        afterRun: async (bot) => {
          console.log(await paperSummary(bot, server.baseUrl, credentials, config.paper.balances, config.bot.account));
          if (server.lockstep !== undefined) console.log(`lockstep: ${server.framesServed} frames in ${server.lockstep.rounds} rounds`);
        },
        beforeRun: wiring === undefined ? (bot) => void bot.trading.then(() => server.play()) : (bot) => wiring.begin(bot),
        paper: { parts, onStopping: () => wiring?.release() },
        report,
      });
    } finally {
      await server.close();
    }
  },
};

/** What a paper or live run adds around the bot. */
interface RunBotOptions {
  /** Besides a signal, these stop the bot (the replay's end, `--duration`). */
  readonly alsoStopOn?: readonly Promise<unknown>[];
  readonly afterRun?: (bot: LiveBot) => Promise<void>;
  readonly beforeRun?: (bot: LiveBot) => void;
  /** Paper: the bot's clock, schedulers and socket hooks, and what to do once it is stopping. */
  readonly paper?: { readonly parts: Pick<LiveContainerInput, 'clock' | 'schedulers' | 'socketHooks'>; readonly onStopping: () => void };
  /** The `--out` report folder. */
  readonly report?: LiveRunReport;
}

async function runBot(
  config: BotConfig, configFile: string, baseUrl: string, wsBaseUrl: string, credentials: ApiCredentials,
  { alsoStopOn = [], afterRun, beforeRun, paper, report }: RunBotOptions = {},
): Promise<number> {
  const logger = createLogger({ level: config.logging.level, file: config.logging.file, console: config.logging.console, secrets: [credentials.apiKey, credentials.secretKey] });
  const strategy = await loadConfiguredStrategy(config, configFile);
  const { bot, close } = resolveLiveBot(createLiveContainer({ config, baseUrl, wsBaseUrl, credentials, logger, strategy, ...paper?.parts }));
  const stop = stopSignal({ onStop: (reason) => console.log(`stopping (${reason === 'orphaned' ? 'parent process gone' : reason})...`) });
  try {
    beforeRun?.(bot);
    const stopping = Promise.race([stop.stopped, ...alsoStopOn]);
    // After the bot has marked itself stopping (no strategy timer may fire past the replay).
    if (paper !== undefined) void stopping.then(() => setImmediate(paper.onStopping));
    const code = await bot.run(stopping, report);
    await afterRun?.(bot);
    return code;
  } finally {
    stop.dispose();
    await close();
    await logger.close();
  }
}

const OUT_HELP = 'report folder, as backtest --out writes it (fills.csv, orders.csv, equity.csv as the run goes; summary.json, report.html at stop)';

/** The report folder of `--out`, checked writable before the bot starts; undefined without `--out`. */
function reportFolder(out: string | undefined, config: BotConfig, initialBalances?: Readonly<Record<string, Decimal>>): LiveRunReport | undefined {
  if (out === undefined) return undefined;
  const dir = path.resolve(out);
  checkWritableDir(dir, '--out');
  return new LiveRunReport({
    dir, strategy: config.strategy.name, params: config.strategy.params, ...(initialBalances === undefined ? {} : { initialBalances }),
    onWritten: (written) => console.log(`report: ${written.html}`),
  });
}

function marketSource(recording: string | undefined, seed: number): MarketSource {
  return recording === undefined ? syntheticMarketSource(seed) : { kind: 'recording', path: recording };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
