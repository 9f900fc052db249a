import { createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type winston from 'winston';
import type { LogLevel } from '../config/bot-config.js';
import { ValidationError } from '../model/errors.js';
import type { RuntimeLogger } from '../runtime/runtime-ports.js';
import { formatJsonLine, formatPrettyLine, type LogRecord } from './log-line.js';
import { createRedactor, type Redactor } from './redact.js';

/** Severity order of tradeloop's levels (winston's convention: lower is more severe). */
export const LOG_LEVELS: Readonly<Record<LogLevel, number>> = { error: 0, warn: 1, info: 2, debug: 3 };

// winston (through triple-beam) keys the level and the finished line by these registered symbols.
const LEVEL = Symbol.for('level');
const MESSAGE = Symbol.for('message');

/**
 * winston, loaded when a logger first writes or is first asked for: a backtest that logs
 * nothing never loads it (about 300 KiB of code, read and compiled at start otherwise).
 */
let winstonModule: typeof winston | undefined;
function loadWinston(): typeof winston {
  return (winstonModule ??= createRequire(import.meta.url)('winston') as typeof winston);
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Lowest level written. */
  readonly level: LogLevel;
  /** JSON lines file, appended to; its folder is created. */
  readonly file?: string;
  /** Console output: one readable line per entry, JSON lines, or nothing. */
  readonly console: 'pretty' | 'json' | 'off';
  /** Known secret texts (API keys) replaced wherever they appear; see {@link createRedactor}. */
  readonly secrets?: readonly string[];
  /** Where console lines go; defaults to process.stdout. */
  readonly consoleStream?: NodeJS.WritableStream;
  /** ANSI colors on the pretty console; defaults to whether `consoleStream` is a terminal. */
  readonly colors?: boolean;
  /** Time of each entry in UNIX ms (a backtest passes its virtual clock); defaults to the wall clock. */
  readonly now?: () => number;
}

/** A logger and its views. */
export interface BotLogger {
  /** The winston logger (made when first asked for or written to); whatever is logged through it is redacted too. */
  readonly logger: winston.Logger;
  /** The runtime's port: `fields` land under `fields` in the JSON line. */
  readonly runtime: RuntimeLogger;
  /** Adds secrets learned after the logger was made (credentials are loaded after logging starts). */
  addSecrets(secrets: readonly string[]): void;
  /** Flushes and closes the outputs; resolves when the file holds every line. */
  close(): Promise<void>;
}

/**
 * Creates the bot's logger: redaction first (secret-named keys and known secret texts, in the
 * message, fields, meta and errors), then a timestamp, then one line per output. The redaction
 * runs once per entry, before any transport, so no output can see an unredacted value.
 */
export function createLogger(options: LoggerOptions): BotLogger {
  let redactor: Redactor = createRedactor(options.secrets);
  let secrets = [...(options.secrets ?? [])];
  // Opened now, so that a folder that cannot be created fails the start with a named error.
  const fileStream = options.file === undefined ? undefined : openLogFile(options.file);
  const outputs = (fileStream === undefined ? 0 : 1) + (options.console === 'off' ? 0 : 1);
  let made: { readonly logger: winston.Logger; readonly transports: readonly winston.transport[] } | undefined;
  const make = (): NonNullable<typeof made> =>
    (made ??= makeWinstonLogger(options, fileStream, (text) => redactor.text(text), (value) => redactor.value(value)));

  const runtime: RuntimeLogger = {
    log: (level, message, fields) => {
      // Until winston is made its level is the option's: nothing can have changed it.
      if (made === undefined && (outputs === 0 || LOG_LEVELS[level] > LOG_LEVELS[options.level])) return;
      const { logger } = make();
      if (!logger.isLevelEnabled(level)) return;
      logger.log(fields === undefined ? { level, message } : { level, message, fields });
    },
  };

  return {
    get logger() {
      return make().logger;
    },
    runtime,
    addSecrets(more) {
      secrets = [...secrets, ...more];
      redactor = createRedactor(secrets);
    },
    close: () => (made === undefined ? endStream(fileStream) : closeLogger(made.logger, made.transports, fileStream)),
  };
}

/** The winston logger behind {@link createLogger}: redaction, timestamp, one line per output. */
function makeWinstonLogger(
  options: LoggerOptions, fileStream: WriteStream | undefined, redactText: (text: string) => string, redactValue: (value: unknown) => unknown,
): { logger: winston.Logger; transports: winston.transport[] } {
  const winston = loadWinston();
  const now = options.now ?? ((): number => Date.now());
  const prepare = winston.format((info) => {
    const source = info as unknown as Record<string | symbol, unknown>;
    // winston filters by level after the logger's format: drop first, so a debug entry costs no
    // redaction when debug is off.
    if (!logger.isLevelEnabled(String(source['level']))) return false;
    // A fresh entry: `logger.error(err)` hands over the caller's Error itself, which must not be
    // changed; winston's splat copy of the raw arguments is left behind, unredacted as it is.
    const meta: Record<string, unknown> = {};
    for (const key of Object.keys(source)) if (key !== 'level' && key !== 'message') meta[key] = source[key];
    if (source instanceof Error && meta['stack'] === undefined && source.stack !== undefined) meta['stack'] = source.stack;
    const message = source['message'];
    const entry: Record<string | symbol, unknown> = {
      [LEVEL]: source[LEVEL],
      level: source['level'],
      message: typeof message === 'string' ? redactText(message) : JSON.stringify(redactValue(message)) ?? String(message),
      ...(redactValue(meta) as Record<string, unknown>),
      timestamp: new Date(now()).toISOString(),
    };
    return entry as unknown as winston.Logform.TransformableInfo;
  });
  const line = (render: (r: LogRecord) => string): winston.Logform.Format =>
    winston.format((info) => {
      (info as Record<symbol, unknown>)[MESSAGE] = render(info as unknown as LogRecord);
      return info;
    })();

  const transports: winston.transport[] = [];
  if (fileStream !== undefined) transports.push(new winston.transports.Stream({ stream: fileStream, format: line(formatJsonLine) }));
  if (options.console !== 'off') {
    const stream = options.consoleStream ?? process.stdout;
    const colors = options.colors ?? (stream as { isTTY?: boolean }).isTTY === true;
    const render = options.console === 'json' ? formatJsonLine : (r: LogRecord): string => formatPrettyLine(r, colors);
    transports.push(new winston.transports.Stream({ stream, format: line(render) }));
  }

  const logger = winston.createLogger({
    levels: LOG_LEVELS,
    level: options.level,
    format: prepare(),
    transports,
    // An entry with no output (console off, no file) must not make winston warn about it.
    silent: transports.length === 0,
    exitOnError: false,
  });
  return { logger, transports };
}

/**
 * Opens the log file for appending now, so that a folder that cannot be created or a file that
 * cannot be written fails the start with a named error instead of a stream error later.
 */
function openLogFile(file: string): WriteStream {
  try {
    mkdirSync(dirname(file), { recursive: true });
    return createWriteStream('', { fd: openSync(file, 'a') });
  } catch (error) {
    throw new ValidationError('logging.file', `cannot be opened for writing (${(error as NodeJS.ErrnoException).code ?? 'error'})`, file);
  }
}

async function closeLogger(logger: winston.Logger, transports: readonly winston.transport[], fileStream: WriteStream | undefined): Promise<void> {
  // A transport finishes once every entry piped to it was written to its stream; only then is
  // the file ended, so close() resolving means the file is complete on disk.
  const finished = transports.map((t) => new Promise<void>((resolve) => t.once('finish', () => resolve())));
  logger.end();
  await Promise.all(finished);
  await endStream(fileStream);
}

async function endStream(stream: WriteStream | undefined): Promise<void> {
  if (stream === undefined) return;
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}
