import { Pool } from 'undici';
import { Subject } from 'rxjs';
import type { Clock } from '../../time/clock.js';
import { LiveClock } from '../../time/clock.js';
import { ParseError, TradeloopError, ValidationError } from '../../model/errors.js';
import { ConnectionStateError, NetworkError, RateLimitError, TimeoutError } from '../errors.js';
import type { ApiCredentials } from './credentials.js';
import { RateLimiter, realTimers, sleep } from './rate-limiter.js';
import type { RateLimits, Timers } from './rate-limiter.js';
import type { RestEvent } from './rest-events.js';
import type { RestExecutor, RestRequest } from './rest-request.js';
import { RetryPolicy, isOutcomeUnknown, mayHaveTakenEffect } from './retry-policy.js';
import { basicAuthorization, hs256Authorization } from './sign.js';
import {
  buildBodyText, buildQueryString, checkExtraHeaders, checkRequestPath, errorFromAnswer, parseRetryAfter,
} from './rest-wire.js';

/** Time limits of one attempt, in ms. */
export interface RestTimeouts {
  /** Opening the TCP/TLS connection. */
  readonly connectMs: number;
  /** From sending to the complete response headers. */
  readonly headersMs: number;
  /** Longest silence while reading the body. */
  readonly bodyMs: number;
  /** The whole attempt, from sending to the last body byte. */
  readonly overallMs: number;
}

/** Options of {@link RestTransport}. */
export interface RestTransportOptions {
  /** `https://host[/prefix]`; requests go to `{baseUrl}/api/3{path}`. */
  readonly baseUrl: string;
  /** Required for requests with `auth: true`. */
  readonly credentials?: ApiCredentials;
  readonly timeouts?: Partial<RestTimeouts>;
  /** Sockets kept to the exchange (undici Pool `connections`). */
  readonly connections?: number;
  /** How long an idle keep-alive socket stays open. */
  readonly keepAliveMs?: number;
  /** Budgets of the limiter built when `rateLimiter` is not given. */
  readonly limits?: Partial<RateLimits>;
  /**
   * A limiter shared with other transports spending the same budgets (public: same IP; trading and
   * other: same user). When given, `limits` is ignored.
   */
  readonly rateLimiter?: RateLimiter;
  readonly retryPolicy?: RetryPolicy;
  /** Time of signatures, limiter windows and events. */
  readonly clock?: Clock;
  /** Drives limiter waits, retry pauses and the overall timeout. */
  readonly timers?: Timers;
  readonly userAgent?: string;
}

/** Defaults of {@link RestTimeouts}. */
export const DEFAULT_REST_TIMEOUTS: RestTimeouts = { connectMs: 5000, headersMs: 10_000, bodyMs: 10_000, overallMs: 15_000 };

const API_PREFIX = '/api/3';

/**
 * The REST transport of API v3 over one undici keep-alive Pool: builds the URL, query string and
 * JSON body, signs (Basic or HS256, over the very text sent), waits for the rate limiter, sends,
 * maps answers and failures to typed errors, and retries what is safe to retry (see
 * {@link RetryPolicy}). `events$` reports what happens, without secrets.
 *
 * HS256 signs the path from `/api/3` on: a base URL prefix belongs to a proxy in front of the
 * exchange, and the exchange sees (and verifies) the path without it.
 */
export class RestTransport implements RestExecutor {
  /** Requests sent, answers, retries, 429 pauses, limiter waits, failures. */
  readonly events$ = new Subject<RestEvent>();
  /** The limiter this transport spends from (shared when one was passed in). */
  readonly rateLimiter: RateLimiter;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly timeouts: RestTimeouts;
  private readonly retry: RetryPolicy;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly credentials: ApiCredentials | undefined;
  private readonly userAgent: string;
  private readonly ownsRateLimiter: boolean;
  private closed = false;

  constructor(options: RestTransportOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new ValidationError('baseUrl', 'must be an absolute URL', options.baseUrl);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new ValidationError('baseUrl', 'must be http or https', options.baseUrl);
    }
    if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
      throw new ValidationError('baseUrl', 'must not carry a query, fragment or user info');
    }
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.timeouts = { ...DEFAULT_REST_TIMEOUTS, ...options.timeouts };
    for (const [name, ms] of Object.entries(this.timeouts)) {
      if (!(ms > 0) || !Number.isFinite(ms)) throw new ValidationError(`timeouts.${name}`, 'must be a positive number of ms', ms);
    }
    const connections = options.connections ?? 4;
    if (!Number.isSafeInteger(connections) || connections < 1) {
      throw new ValidationError('connections', 'must be a positive integer', connections);
    }
    const keepAliveMs = options.keepAliveMs ?? 30_000;
    this.clock = options.clock ?? new LiveClock();
    this.timers = options.timers ?? realTimers;
    this.credentials = options.credentials;
    this.userAgent = options.userAgent ?? 'tradeloop/0.1';
    this.retry = options.retryPolicy ?? new RetryPolicy();
    this.ownsRateLimiter = options.rateLimiter === undefined;
    this.rateLimiter = options.rateLimiter ?? new RateLimiter({ clock: this.clock, timers: this.timers, limits: options.limits });
    this.pool = new Pool(url.origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: keepAliveMs,
      keepAliveMaxTimeout: Math.max(keepAliveMs, 60_000),
      connect: { timeout: this.timeouts.connectMs },
      headersTimeout: this.timeouts.headersMs,
      bodyTimeout: this.timeouts.bodyMs,
    });
  }

  /** Carries out `request`, retrying where safe; resolves with its parsed answer. */
  async execute<T>(request: RestRequest<T>): Promise<T> {
    checkRequestPath(request.path);
    checkExtraHeaders(request.headers);
    if (request.auth && this.credentials === undefined) {
      throw new ValidationError('credentials', `are required for ${request.method} ${request.path}`);
    }
    const query = buildQueryString(request.query);
    const bodyText = buildBodyText(request);
    const label = `${request.method} ${request.path}`;
    let earlierMayHaveActed = false;
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw new ConnectionStateError(`REST transport is closed (${label})`);
      // A wait is reported only when the limiter queued the request: timing the admission of one
      // it let through at once would report a wait whenever the clock's millisecond turned.
      if (!this.rateLimiter.tryAcquire(request.scope)) {
        const before = this.clock.now();
        await this.rateLimiter.acquire(request.scope);
        const waitedMs = this.clock.now() - before;
        if (waitedMs > 0) this.emit(request, attempt, { kind: 'rate-limit-wait', waitedMs });
      }
      try {
        return await this.attempt(request, attempt, query, bodyText, label);
      } catch (error) {
        let delayMs: number | undefined;
        if (error instanceof RateLimitError) {
          delayMs = this.rateLimiter.pause(request.scope, error.retryAfterMs);
          this.emit(request, attempt, { kind: 'rate-limited', pauseMs: delayMs, retryAfterMs: error.retryAfterMs });
        }
        const lookup = request.lookupAfterDuplicate;
        if (lookup && request.clientOrderId !== undefined && this.retry.isDuplicateOfEarlierAttempt(request, error, earlierMayHaveActed)) {
          this.emit(request, attempt, { kind: 'duplicate-resolved', clientOrderId: request.clientOrderId });
          return await lookup();
        }
        if (this.closed || !this.retry.shouldRetry(request, error, attempt)) {
          this.emit(request, attempt, {
            kind: 'request-failed',
            errorCode: error instanceof TradeloopError ? error.code : 'UNKNOWN',
            outcomeUnknown: isOutcomeUnknown(error),
          });
          throw error;
        }
        earlierMayHaveActed ||= mayHaveTakenEffect(error);
        // After a 429 the limiter's pause is the delay; waiting twice would only lose time.
        delayMs ??= this.retry.delayMs(attempt);
        this.emit(request, attempt, { kind: 'retry-scheduled', reason: (error as TradeloopError).code, delayMs });
        if (!(error instanceof RateLimitError) && delayMs > 0) await sleep(this.timers, delayMs);
      }
    }
  }

  /**
   * Ends the pool (in-flight attempts finish, nothing new is sent) and completes `events$`. A
   * limiter this transport built is closed too; a shared one is left to its owner.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsRateLimiter) this.rateLimiter.close();
    try {
      await this.pool.close();
    } finally {
      this.events$.complete();
    }
  }

  private async attempt<T>(request: RestRequest<T>, attempt: number, query: string, bodyText: string | undefined, label: string): Promise<T> {
    const apiPathAndQuery = `${API_PREFIX}${request.path}${query === '' ? '' : `?${query}`}`;
    const headers: Record<string, string> = { ...request.headers, accept: 'application/json', 'user-agent': this.userAgent };
    if (bodyText !== undefined) headers['content-type'] = 'application/json';
    if (request.auth) headers.authorization = this.authorization(request.method, apiPathAndQuery, bodyText);

    const controller = new AbortController();
    let timedOut = false;
    const timer = this.timers.set(() => {
      timedOut = true;
      controller.abort();
    }, this.timeouts.overallMs);
    const sentAt = this.clock.now();
    this.emit(request, attempt, { kind: 'request-sent' });
    let status: number;
    let text: string;
    let retryAfter: string | string[] | undefined;
    try {
      const answer = await this.pool.request({
        method: request.method,
        path: `${this.basePath}${apiPathAndQuery}`,
        headers,
        body: bodyText,
        signal: controller.signal,
      });
      status = answer.statusCode;
      retryAfter = answer.headers['retry-after'];
      text = await answer.body.text();
    } catch (error) {
      throw transportFailure(error, label, timedOut, this.timeouts);
    } finally {
      this.timers.clear(timer);
    }
    this.emit(request, attempt, { kind: 'response', status, durationMs: this.clock.now() - sentAt });
    if (status !== 429) this.rateLimiter.noteSuccess(request.scope);
    if (status < 200 || status >= 300) {
      throw errorFromAnswer(status, text, parseRetryAfter(retryAfter, this.clock.now()), label);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ParseError(`(body of ${label})`, 'must be JSON', text);
    }
    return request.parse(json);
  }

  private authorization(method: string, apiPathAndQuery: string, bodyText: string | undefined): string {
    const credentials = this.credentials as ApiCredentials;
    if (credentials.scheme === 'basic') return basicAuthorization(credentials.apiKey, credentials.secretKey);
    return hs256Authorization({
      apiKey: credentials.apiKey,
      secretKey: credentials.secretKey,
      method,
      pathAndQuery: apiPathAndQuery,
      body: bodyText,
      timestamp: Math.floor(this.clock.now()),
      window: credentials.window,
    });
  }

  private emit(request: RestRequest<unknown>, attempt: number, event: DistributiveOmit<RestEvent, 'at' | 'method' | 'path' | 'scope' | 'attempt'>): void {
    if (!this.events$.observed) return;
    this.events$.next({ ...event, at: this.clock.now(), method: request.method, path: request.path, scope: request.scope, attempt } as RestEvent);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Error codes meaning the connection never opened, so nothing reached the exchange. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

function transportFailure(error: unknown, label: string, overallTimedOut: boolean, timeouts: RestTimeouts): TradeloopError {
  if (error instanceof TradeloopError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (overallTimedOut) {
    return new TimeoutError(`${label}: no complete answer within ${timeouts.overallMs} ms`, { cause: error, outcomeUnknown: true });
  }
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new TimeoutError(`${label}: no connection within ${timeouts.connectMs} ms`, { cause: error, outcomeUnknown: false });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new TimeoutError(`${label}: no answer headers within ${timeouts.headersMs} ms`, { cause: error, outcomeUnknown: true });
    case 'UND_ERR_BODY_TIMEOUT':
      return new TimeoutError(`${label}: answer body stalled for ${timeouts.bodyMs} ms`, { cause: error, outcomeUnknown: true });
    case 'UND_ERR_CLOSED':
    case 'UND_ERR_DESTROYED':
      return new ConnectionStateError(`${label}: REST transport is closed`, { cause: error });
  }
  const notSent = typeof code === 'string' && NOT_SENT_CODES.has(code);
  const reason = error instanceof Error ? error.message : String(error);
  return new NetworkError(`${label}: ${notSent ? 'could not connect' : 'connection failed'} (${reason})`, { cause: error, outcomeUnknown: !notSent });
}
