import { TradeloopError } from '../framework/model/errors.js';

/** Codes of Node system and zlib errors that come from the user's input or machine, not from a bug. */
const USER_ERROR_CODE = /^(E[A-Z0-9]+|Z_[A-Z_]+|ERR_INVALID_URL)$/;

/** Hints for system errors whose Node message says what failed but not what to do. */
const HINTS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'another process listens on that address; choose another --port or stop it',
  EACCES: 'permission denied',
  ECONNREFUSED: 'nothing listens there; is the exchange or sandbox running?',
  Z_DATA_ERROR: 'the file is not valid gzip (corrupt, or not compressed)',
  Z_BUF_ERROR: 'the gzip file is truncated',
};

/** True when `error` is a user error: a TradeloopError, or a Node system error with a code such as ENOENT. */
export function isUserError(error: unknown): error is Error {
  if (error instanceof TradeloopError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && USER_ERROR_CODE.test(code);
}

/** The one line shown for a user error, without the `tradeloop <command>:` prefix. */
export function userErrorLine(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (error instanceof TradeloopError || typeof code !== 'string') return error.message;
  const message = error.message.includes(code) ? error.message : `${error.message} (${code})`;
  const hint = HINTS[code];
  return hint === undefined || message.includes(hint) ? message : `${message}: ${hint}`;
}

/**
 * Prints `error` for the command `context` and returns the exit code (1). A user error is one line;
 * anything else is a bug and gets its stack. With `debug`, every error gets its stack and its chain
 * of causes.
 */
export function reportError(error: unknown, context: string, debug: boolean, write: (text: string) => void = (t) => process.stderr.write(t)): number {
  const prefix = context === '' ? 'tradeloop' : `tradeloop ${context}`;
  if (isUserError(error)) {
    write(`${prefix}: ${userErrorLine(error)}\n`);
    if (debug) write(details(error));
    return 1;
  }
  write(`${prefix}: unexpected error, a bug in tradeloop (run with --debug for all details):\n${details(error)}`);
  return 1;
}

function details(error: unknown): string {
  let out = '';
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 8; depth++) {
    const text = current instanceof Error ? current.stack ?? `${current.name}: ${current.message}` : String(current);
    out += `${depth === 0 ? '' : 'caused by: '}${text}\n`;
    current = current instanceof Error ? current.cause : undefined;
  }
  return out;
}
