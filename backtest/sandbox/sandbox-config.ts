import type { LatencyModel } from '../venue/matching/latency-model.js';
import { createHmac } from 'node:crypto';
import { ValidationError } from '../../framework/model/errors.js';
import type { SymbolInfo } from '../../framework/model/resources/symbol.js';
import type { RecordedFrame } from '../recording/recording-format.js';
import type { AccountId, InitialBalances, Venue, VenueEvent } from '../venue/venue-types.js';
import type { FaultOptions } from './fault-injector.js';

/**
 * API key access rights (document 000): `orderbook` = R1 Orderbook, History, Trading balance;
 * `trading` = R2 Place/cancel orders; `payment` = R3 Payment information; `withdraw` = R4.
 */
export const ACCESS_RIGHTS = ['orderbook', 'trading', 'payment', 'withdraw'] as const;
export type AccessRight = (typeof ACCESS_RIGHTS)[number];

/** One API key pair the sandbox accepts. */
export interface SandboxApiKey {
  readonly apiKey: string;
  readonly secretKey: string;
  /** Default: every right. */
  readonly rights?: readonly AccessRight[];
  /** The venue account the key trades for. Default: `main`. */
  readonly account?: AccountId;
}

/** A venue account and what it holds at start. */
export interface SandboxAccount {
  readonly id: AccountId;
  readonly spot?: InitialBalances;
  readonly wallet?: InitialBalances;
  /** Margin on the futures account (its margin currencies). */
  readonly futures?: InitialBalances;
  /** Margin balances of isolated margin accounts, by spot pair with margin trading (in its quote currency). */
  readonly margin?: InitialBalances;
}

/** Requests per second of each documented budget (document 000, Limits). */
export interface SandboxRateLimits {
  /** Per client IP, every `/public` request. Default 30. */
  readonly publicPerSecond: number;
  /** Per API key, place/replace/cancel. Default 300. */
  readonly tradingPerSecond: number;
  /** Per API key, every other authenticated request. Default 20. */
  readonly otherPerSecond: number;
}

/** What the venue factory is given: the market's symbols, the accounts and the event listener. */
export interface VenueContext {
  readonly symbols: Readonly<Record<string, SymbolInfo>>;
  readonly accounts: readonly SandboxAccount[];
  readonly onEvent: (event: VenueEvent) => void;
}

/** Builds the simulated venue the server fronts (the venue emits through `context.onEvent`). */
export type VenueFactory = (context: VenueContext) => Venue;

/** Where market frames come from. */
export type MarketSource =
  | { readonly kind: 'recording'; readonly path: string }
  /** Any frame producer (the synthetic market); called again for each loop. */
  | {
      readonly kind: 'frames';
      readonly symbols: Readonly<Record<string, SymbolInfo>>;
      readonly frames: () => AsyncIterable<RecordedFrame> | Iterable<RecordedFrame>;
      /** Time of the first frame (UNIX ms), the venue's time at start; default: the wall clock at start. */
      readonly startTime?: number;
    };

/** Options of the sandbox server. */
export interface SandboxOptions {
  readonly venue: VenueFactory;
  readonly market: MarketSource;
  /** Loopback by default. */
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Multiple of real time; `Infinity` replays as fast as possible. Default 1. */
  readonly speed?: number;
  readonly loop?: boolean;
  /** Wait for `play()` before replaying (tests that must subscribe first). */
  readonly paused?: boolean;
  /** Keys accepted; default: one key pair derived from `seed`, all rights, account `main`. */
  readonly apiKeys?: readonly SandboxApiKey[];
  /** Accounts and initial balances; default: `main` (and every account a key names) with nothing. */
  readonly accounts?: readonly SandboxAccount[];
  /** Seed of the default key pair and of fault injection. Default `sandbox`. */
  readonly seed?: string;
  readonly rateLimits?: Partial<SandboxRateLimits>;
  /** A WebSocket connection silent (no frame, no ping) this long is dropped. Default 30 000 ms. */
  readonly idleTimeoutMs?: number;
  readonly faults?: FaultOptions;
  /**
   * Order entry and response delays added on top of the real sockets' (REST and the trading
   * stream); default none, since a local socket already has some.
   */
  readonly latency?: LatencyModel;
  /** Wall clock of signatures, rate limits and timestamps; default Date.now. */
  readonly now?: () => number;
  /**
   * Serve the market as if it were happening now: every time the sandbox serves (frame times,
   * REST market data, order and trade times) is the recorded one moved by (wall clock at start -
   * the source's first frame time), so "trades since an hour ago" finds the replay's trades.
   * Default false: the recorded times.
   */
  readonly shiftToNow?: boolean;
  /**
   * Lockstep replay (framework/live/lockstep-protocol.ts): a bot connected to the control channel
   * drives the market clock; the trading stream's requests and the latency run in market time.
   * Implies the recorded times (no shift) and replays as fast as the bot goes. Default false.
   */
  readonly lockstep?: boolean;
}

/** A key as the server keeps it. */
export interface ResolvedApiKey {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly rights: ReadonlySet<AccessRight>;
  readonly account: AccountId;
}

/** Options after validation, defaults applied. */
export interface ResolvedSandboxOptions {
  readonly host: string;
  readonly port: number;
  readonly speed: number;
  readonly loop: boolean;
  readonly paused: boolean;
  readonly seed: string;
  readonly apiKeys: readonly ResolvedApiKey[];
  readonly accounts: readonly SandboxAccount[];
  readonly rateLimits: SandboxRateLimits;
  readonly idleTimeoutMs: number;
}

/** The documented budgets. */
export const DEFAULT_RATE_LIMITS: SandboxRateLimits = { publicPerSecond: 30, tradingPerSecond: 300, otherPerSecond: 20 };
const DEFAULT_ACCOUNT = 'main';
const KEY_TEXT = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The default key pair: derived from the seed (HMAC-SHA256), so a sandbox started twice with the
 * same seed accepts the same keys and a bot's config need not change between runs.
 */
export function defaultApiKey(seed: string): SandboxApiKey {
  const derive = (label: string) => createHmac('sha256', seed).update(label).digest('hex').slice(0, 32);
  return { apiKey: `sandbox-${derive('api-key')}`, secretKey: derive('secret-key'), rights: ACCESS_RIGHTS, account: DEFAULT_ACCOUNT };
}

/** Validates the options (ValidationError naming the field and the rule) and applies defaults. */
export function resolveSandboxOptions(options: SandboxOptions): ResolvedSandboxOptions {
  if (typeof options.venue !== 'function') throw new ValidationError('venue', 'must be a venue factory function');
  checkMarket(options.market);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ValidationError('port', 'must be an integer in 0..65535', port);
  const speed = options.speed ?? 1;
  if (typeof speed !== 'number' || !(speed > 0)) throw new ValidationError('speed', 'must be a positive number (Infinity: as fast as possible)', speed);
  const seed = options.seed ?? 'sandbox';
  if (typeof seed !== 'string' || seed.length === 0) throw new ValidationError('seed', 'must be a non-empty string', seed);
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  if (!(idleTimeoutMs > 0) || !Number.isFinite(idleTimeoutMs)) throw new ValidationError('idleTimeoutMs', 'must be a positive number of ms', idleTimeoutMs);
  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  for (const [name, value] of Object.entries(rateLimits)) {
    if (!Number.isInteger(value) || value < 1) throw new ValidationError(`rateLimits.${name}`, 'must be a positive integer', value);
  }
  const apiKeys = (options.apiKeys ?? [defaultApiKey(seed)]).map((key, i) => resolveKey(key, `apiKeys[${i}]`));
  if (apiKeys.length === 0) throw new ValidationError('apiKeys', 'must name at least one key (omit it for the default key)');
  const seen = new Set<string>();
  for (const [i, key] of apiKeys.entries()) {
    if (seen.has(key.apiKey)) throw new ValidationError(`apiKeys[${i}].apiKey`, 'must be unique');
    seen.add(key.apiKey);
  }
  return {
    host: options.host ?? '127.0.0.1',
    port,
    speed,
    loop: options.loop ?? false,
    paused: options.paused ?? false,
    seed,
    apiKeys,
    accounts: resolveAccounts(options.accounts, apiKeys),
    rateLimits,
    idleTimeoutMs,
  };
}

function checkMarket(market: MarketSource | undefined): void {
  if (market === undefined || market === null || typeof market !== 'object') throw new ValidationError('market', 'is required');
  if (market.kind === 'recording') {
    if (typeof market.path !== 'string' || market.path.length === 0) throw new ValidationError('market.path', 'must be a file path');
  } else if (market.kind === 'frames') {
    if (typeof market.frames !== 'function') throw new ValidationError('market.frames', 'must be a function returning frames');
    if (market.startTime !== undefined && !(Number.isSafeInteger(market.startTime) && market.startTime >= 0)) {
      throw new ValidationError('market.startTime', 'must be a UNIX time in integer ms', market.startTime);
    }
  } else {
    throw new ValidationError('market.kind', 'must be "recording" or "frames"', (market as { kind?: unknown }).kind);
  }
}

function resolveKey(key: SandboxApiKey, path: string): ResolvedApiKey {
  // Key texts go into `key:secret` strings split on ':': never echo the secret in the error.
  if (typeof key.apiKey !== 'string' || !KEY_TEXT.test(key.apiKey)) throw new ValidationError(`${path}.apiKey`, 'must be 1-128 of A-Z a-z 0-9 _ . -');
  if (typeof key.secretKey !== 'string' || !KEY_TEXT.test(key.secretKey)) throw new ValidationError(`${path}.secretKey`, 'must be 1-128 of A-Z a-z 0-9 _ . -');
  const rights = key.rights ?? ACCESS_RIGHTS;
  if (!Array.isArray(rights)) throw new ValidationError(`${path}.rights`, 'must be an array of access rights');
  for (const [i, right] of rights.entries()) {
    if (!(ACCESS_RIGHTS as readonly string[]).includes(right)) {
      throw new ValidationError(`${path}.rights[${i}]`, `must be one of ${ACCESS_RIGHTS.join(', ')}`, right);
    }
  }
  const account = key.account ?? DEFAULT_ACCOUNT;
  if (typeof account !== 'string' || account.length === 0) throw new ValidationError(`${path}.account`, 'must be a non-empty account id', account);
  return { apiKey: key.apiKey, secretKey: key.secretKey, rights: new Set(rights), account };
}

function resolveAccounts(accounts: readonly SandboxAccount[] | undefined, keys: readonly ResolvedApiKey[]): SandboxAccount[] {
  const out = new Map<string, SandboxAccount>();
  for (const [i, account] of (accounts ?? []).entries()) {
    if (typeof account.id !== 'string' || account.id.length === 0) throw new ValidationError(`accounts[${i}].id`, 'must be a non-empty string', account.id);
    for (const kind of ['spot', 'wallet', 'futures', 'margin'] as const) {
      for (const [currency, amount] of Object.entries(account[kind] ?? {})) {
        if (typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount)) {
          throw new ValidationError(`accounts[${i}].${kind}.${currency}`, 'must be a non-negative decimal string', amount);
        }
      }
    }
    if (out.has(account.id)) throw new ValidationError(`accounts[${i}].id`, 'must be unique', account.id);
    out.set(account.id, account);
  }
  for (const key of keys) if (!out.has(key.account)) out.set(key.account, { id: key.account });
  return [...out.values()];
}
