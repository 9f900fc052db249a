import { dirname, resolve } from 'node:path';
import type { AuthScheme } from '../exchange/rest/credentials.js';
import { Decimal } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';
import { ValidationErrors } from '../model/validation-errors.js';
import type { CandlePeriod } from '../model/resources/candle.js';
import { resolveConfigPath } from './config-paths.js';
import { parseLatencySpec, type LatencySpec } from './latency-spec.js';
import { mergeConfig } from './merge-config.js';
import { readYamlFile } from './read-yaml-file.js';
import { refuseSecrets } from './refuse-secrets.js';
import { schemaErrorToValidationError } from './schema-errors.js';
import { botConfigValidator } from './bot-config-validator.js';
import { packageFile } from '../package-root.js';

/** Log levels, most severe first. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** Where the API key pair lives (never the pair itself). */
export interface CredentialsConfig {
  readonly apiKeyEnv: string;
  readonly secretKeyEnv: string;
  /** Absolute path of a YAML/JSON file with `apiKey` and `secretKey`, read when the env vars are unset. */
  readonly keyFile?: string;
}

/** The live exchange. */
export interface ExchangeConfig {
  readonly baseUrl: string;
  readonly wsBaseUrl: string;
  readonly auth: AuthScheme;
  /** hs256 only: allowed distance (ms) of a request's timestamp from the exchange's clock. */
  readonly signatureWindowMs?: number;
  readonly credentials: CredentialsConfig;
}

/** The strategy plugin and what it trades. */
export interface StrategyConfig {
  readonly name: string;
  readonly symbols: readonly string[];
  readonly candles?: CandlePeriod;
  readonly errorPolicy: 'halt' | 'continue';
  /** Free-form; the plugin's parameter schema checks it. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** Starting balances per currency. */
export type Balances = Readonly<Record<string, Decimal>>;

/** A validated bot config with defaults filled, amounts as Decimal and paths absolute. */
export interface BotConfig {
  readonly bot: {
    readonly id: string;
    readonly account: 'spot' | 'margin' | 'futures';
    /** Futures: the leverage set on each listed contract's isolated account before the strategy starts. */
    readonly leverage: Readonly<Record<string, Decimal>>;
  };
  /** Absent unless the file has it; `tradeloop live` requires it. */
  readonly exchange?: ExchangeConfig;
  readonly strategy: StrategyConfig;
  /** Free-form; `parseRiskConfig` (framework/risk/risk-config.ts) checks it. */
  readonly risk: Readonly<Record<string, unknown>>;
  readonly execution: {
    readonly unknownOrders: 'adopt' | 'cancel';
    readonly onShutdown: 'cancel' | 'keep';
    /** At stop, the wait for answers of requests in flight, ms; absent: the kernel's default. */
    readonly shutdownTimeoutMs?: number;
    /** Keeps the order path warm: a rehearsal of it at start, then every this many ms a book for the standing rehearsal and dry runs of the risk checks; absent or 0: off. */
    readonly keepOrderPathWarmMs?: number;
    /** Linux: the niceness of the process's threads but the main one (0: left as they are). */
    readonly helperThreadNiceness: number;
  };
  /**
   * `dir` is absolute. `durable: false` (set by paper runs, not by a config file) writes records
   * without fsync: a simulated exchange's journal needs no protection from an operating-system
   * crash, and a lockstep replay would otherwise wait on the disk for every order.
   */
  readonly journal: { readonly dir: string; readonly durable?: boolean };
  /** `file` is absolute. */
  readonly logging: { readonly level: LogLevel; readonly file?: string; readonly console: 'pretty' | 'json' | 'off' };
  readonly status: { readonly intervalMs: number };
  readonly paper: {
    /** Absolute path of the replayed recording; absent: the sandbox's synthetic market. */
    readonly recording?: string;
    readonly speed: number;
    /** Lockstep replay: the bot's idleness, not the wall clock, releases the next frame (framework/live/lockstep-protocol.ts). */
    readonly lockstep: boolean;
    readonly balances: Balances;
    /** The sandbox's order latency. */
    readonly latency: LatencySpec;
    /** Seeded faults of the paper exchange: `none`, a preset's name, or an absolute faults file path. */
    readonly faults: string;
    /** Queue position model of the paper exchange's resting orders (`trades-only`, `proportional`, `log`, `power:N`). */
    readonly queueModel: string;
    readonly seed: number;
  };
  readonly backtest: {
    readonly balances: Balances; readonly seed: number; readonly candleSlippageBps: number;
    /** Queue position model of resting orders (`trades-only`, `proportional`, `log`, `power:N`). */
    readonly queueModel: string;
    /** The simulated venue's order latency. */
    readonly latency: LatencySpec;
    /** Refuse a damaged recording instead of replaying what is readable (`--strict`). */
    readonly strictRecordings: boolean;
    /** How far a frame's time may go back and still be replayed, at the earlier frame's time. */
    readonly backwardsToleranceMs: number;
  };
}

/** The JSON schema file (single source of truth of the shape, also used by editors). */
export const BOT_CONFIG_SCHEMA_FILE = packageFile('config', 'bot-config.schema.json');
/** The packaged defaults every bot file overrides. */
export const DEFAULT_CONFIG_FILE = packageFile('config', 'default.yaml');

/**
 * Validates parsed config data against config/bot-config.schema.json, fills the defaults,
 * converts amounts to Decimal and resolves relative paths against `sourceDir` (the config
 * file's folder). Throws a ValidationError naming the dotted field path and the rule (a
 * ValidationErrors listing them all when there are several); a key that holds a secret (`apiKey`,
 * `secret`, `password`...) anywhere is refused. `raw` is not changed.
 */
export function parseBotConfig(raw: unknown, sourceDir: string, env: NodeJS.ProcessEnv = process.env): BotConfig {
  refuseSecrets(raw);
  const data: unknown = raw === undefined || raw === null ? {} : structuredClone(raw);
  const check = botConfigValidator(BOT_CONFIG_SCHEMA_FILE);
  if (!check(data)) {
    // A value of the wrong type also breaks its enum or pattern: name only the type, once.
    const mistyped = new Set((check.errors ?? []).filter((e) => e.keyword === 'type').map((e) => e.instancePath));
    const errors = (check.errors ?? [])
      .filter((e) => e.keyword === 'type' || !mistyped.has(e.instancePath))
      .map((e) => schemaErrorToValidationError(e, data));
    // One mistake can break two rules of the same value (type and pattern): report it once.
    const unique = [...new Map(errors.map((e) => [e.message, e])).values()];
    if (unique.length === 0) throw new Error('bot config: schema validation failed without an error');
    ValidationErrors.throwIfAny(unique);
  }
  return finish(data as RawConfig, sourceDir, env);
}

/** Options of {@link loadBotConfig}. */
export interface LoadBotConfigOptions {
  /** Environment for `~` (HOME); defaults to process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Defaults file layered under the bot file; defaults to config/default.yaml; null: none. */
  readonly defaultsFile?: string | null;
}

/**
 * Reads a bot config file (YAML), layers it over the defaults file, then {@link parseBotConfig}
 * with the file's folder as the base of relative paths. A missing file is
 * `ValidationError('config', 'no such file')`; a YAML syntax error names the file and the line;
 * the errors of the content come together as ValidationErrors whose `source` is the file.
 */
export function loadBotConfig(file: string, options: LoadBotConfigOptions = {}): BotConfig {
  const path = resolve(file);
  const bot = readConfigData(path, 'config');
  const defaultsFile = options.defaultsFile === undefined ? DEFAULT_CONFIG_FILE : options.defaultsFile;
  const base = defaultsFile === null ? {} : readConfigData(resolve(defaultsFile), 'defaults');
  // Each file on its own: a key in the defaults must be refused even where the bot file overrides it.
  refuseSecrets(base);
  try {
    refuseSecrets(bot);
    return parseBotConfig(mergeConfig(base, bot), dirname(path), options.env);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationErrors(error instanceof ValidationErrors ? error.errors : [error], path);
  }
}

function readConfigData(path: string, field: string): unknown {
  return readYamlFile(path, field, AMOUNT_MAPS) ?? {};
}

/** Mappings of amounts, whose YAML numbers are read through their source text. */
const AMOUNT_MAPS = [['paper', 'balances'], ['backtest', 'balances']] as const;

type RawBalances = Record<string, string | number>;
type RawConfig = Omit<BotConfig, 'paper' | 'backtest' | 'exchange' | 'bot'> & {
  bot: Omit<BotConfig['bot'], 'leverage'> & { leverage: Record<string, string> };
  $schema?: string;
  exchange?: ExchangeConfig;
  paper: Omit<BotConfig['paper'], 'balances' | 'recording' | 'latency'> & { balances: RawBalances; recording: string | null; latency: unknown };
  backtest: Omit<BotConfig['backtest'], 'balances' | 'latency'> & { balances: RawBalances; latency: unknown };
};

/** `bot.leverage`: margin and futures accounts only, symbols the strategy trades, above zero. */
function botLeverage(c: RawConfig): Readonly<Record<string, Decimal>> {
  const out: Record<string, Decimal> = {};
  for (const [symbol, text] of Object.entries(c.bot.leverage)) {
    const field = `bot.leverage.${symbol}`;
    if (c.bot.account === 'spot') throw new ValidationError(field, 'is for margin and futures accounts (bot.account: margin or futures)', text);
    if (!c.strategy.symbols.includes(symbol)) throw new ValidationError(field, 'must name one of strategy.symbols', symbol);
    const leverage = new Decimal(text);
    if (!leverage.isPositive() || leverage.isZero()) throw new ValidationError(field, 'must be above 0', text);
    out[symbol] = leverage;
  }
  return Object.freeze(out);
}

function balances(raw: RawBalances): Balances {
  // The schema admitted only non-negative plain decimals and numbers; numbers go through their
  // shortest text, as every YAML number the user wrote is read.
  const out: Record<string, Decimal> = {};
  for (const [currency, amount] of Object.entries(raw)) out[currency] = new Decimal(String(amount));
  return Object.freeze(out);
}

function finish(c: RawConfig, dir: string, env: NodeJS.ProcessEnv): BotConfig {
  const exchange = c.exchange === undefined ? undefined : {
    ...c.exchange,
    credentials: {
      ...c.exchange.credentials,
      ...(c.exchange.credentials.keyFile === undefined ? {} : { keyFile: resolveConfigPath(c.exchange.credentials.keyFile, dir, env) }),
    },
  };
  const { recording, ...paper } = c.paper;
  const { $schema: _schema, ...rest } = c;
  return {
    ...rest,
    bot: { ...c.bot, leverage: botLeverage(c) },
    ...(exchange === undefined ? {} : { exchange }),
    journal: { dir: resolveConfigPath(c.journal.dir, dir, env) },
    logging: { ...c.logging, ...(c.logging.file === undefined ? {} : { file: resolveConfigPath(c.logging.file, dir, env) }) },
    paper: {
      ...paper, balances: balances(c.paper.balances), latency: parseLatencySpec(c.paper.latency, 'paper.latency', dir, env),
      faults: /\.ya?ml$/.test(c.paper.faults) ? resolveConfigPath(c.paper.faults, dir, env) : c.paper.faults,
      ...(recording === null ? {} : { recording: resolveConfigPath(recording, dir, env) }),
    },
    backtest: { ...c.backtest, balances: balances(c.backtest.balances), latency: parseLatencySpec(c.backtest.latency, 'backtest.latency', dir, env) },
  };
}
