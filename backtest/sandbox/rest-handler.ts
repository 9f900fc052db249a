import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../framework/exchange/errors.js';
import type { LatencyKind, LatencyModel } from '../venue/matching/latency-model.js';
import { VenueRejection } from '../venue/venue-types.js';
import type { FaultInjector } from './fault-injector.js';
import { RateLimited, type RequestBudget } from './request-budget.js';
import { decodeBody, type Params } from './request-params.js';
import { matchRoute, type Route } from './rest-route.js';
import { SandboxAuth } from './sandbox-auth.js';
import type { ResolvedApiKey } from './sandbox-config.js';

/** Options of {@link RestHandler}. */
export interface RestHandlerOptions {
  readonly routes: readonly Route[];
  readonly auth: SandboxAuth;
  readonly faults: FaultInjector;
  /** The request budgets, shared with the streams. */
  readonly budget: RequestBudget;
  readonly now: () => number;
  /** Delays between the client and the engine, both ways; none when absent. */
  readonly latency?: LatencyModel;
}

const API_PREFIX = '/api/3';
/** Largest body accepted; order lists are the biggest legitimate requests, far below this. */
const MAX_BODY_BYTES = 1 << 20;
/** Oversized bytes read and dropped to keep the connection usable; beyond, it is closed. */
const MAX_DRAINED_BYTES = 64 << 20;

/**
 * Serves one REST request as the exchange does: injected faults first, then route lookup (800/404
 * for an unknown path), authentication over the raw bytes received, the route's right, the
 * scope's request budget (429 with Retry-After), then the handler. Every error is the exchange's
 * envelope with the table's HTTP status.
 */
export class RestHandler {
  constructor(private readonly options: RestHandlerOptions) {}

  /** Answers `req`; never rejects. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw: Buffer;
    try {
      raw = await readBody(req, res);
    } catch (error) {
      answerError(res, error instanceof VenueRejection ? error : new VenueRejection(ErrorCode.ValidationError, 'unreadable body'));
      return;
    }
    const delay = this.options.faults.nextRestDelay();
    if (delay > 0) await sleep(delay);
    let call: () => unknown;
    let kind: LatencyKind = 'query';
    try {
      ({ call, kind } = this.prepare(req, raw));
    } catch (error) {
      answerError(res, asRejection(error));
      return;
    }
    const latency = this.options.latency;
    if (latency) await sleep(latency.entryDelayMs(this.options.now(), kind));
    let status = 200;
    let body: unknown;
    let rejection: VenueRejection | undefined;
    try {
      body = call();
    } catch (error) {
      rejection = asRejection(error);
      status = rejection.httpStatus;
    }
    if (latency) await sleep(latency.responseDelayMs(this.options.now(), kind));
    if (rejection) answerError(res, rejection);
    else answer(res, status, body);
  }

  /**
   * Everything that happens before the request reaches the engine (faults, routing, auth, rights,
   * budgets); returns the engine call, run after the entry latency.
   */
  private prepare(req: IncomingMessage, raw: Buffer): { call: () => unknown; kind: LatencyKind } {
    const fault = this.options.faults.nextRestFault();
    if (fault) throw new VenueRejection(fault.status, 'injected fault');
    const target = req.url ?? '/';
    const url = new URL(target, 'http://sandbox.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) throw new VenueRejection(ErrorCode.ResourceNotFound, url.pathname);
    const path = url.pathname.slice(API_PREFIX.length);
    const found = matchRoute(this.options.routes, method, path);
    if (found === undefined) throw new VenueRejection(ErrorCode.ResourceNotFound, `${method} ${url.pathname}`);
    const { route, params } = found;
    let key: ResolvedApiKey | undefined;
    if (route.right === undefined) {
      this.options.budget.spend('public', req.socket.remoteAddress ?? '');
    } else {
      key = this.options.auth.authenticateRest(header(req, 'authorization'), { method, target, body: raw });
      SandboxAuth.requireRight(key, route.right);
      this.options.budget.spend(route.scope === 'trading' ? 'trading' : 'other', key.apiKey);
    }
    const query: Params = Object.fromEntries(url.searchParams);
    const body = decodeBody(raw, header(req, 'content-type'));
    const kind = route.scope === 'trading' ? tradingKind(method, path, params.length > 0) : 'query';
    return { call: () => route.handle({ params, query, body, key }), kind };
  }

}

/** What a trading route does, for the latency model. */
function tradingKind(method: string, path: string, namesAnOrder: boolean): LatencyKind {
  if (method === 'POST') return path.endsWith('/list') ? 'placeList' : 'place';
  if (method === 'PATCH') return 'replace';
  if (method === 'DELETE') return namesAnOrder ? 'cancel' : 'cancelAll';
  return 'query';
}

function asRejection(error: unknown): VenueRejection {
  return error instanceof VenueRejection ? error : new VenueRejection(ErrorCode.InternalError, 'internal error');
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The body, or a 10001 rejection when it is larger than {@link MAX_BODY_BYTES}. An oversized body
 * is still read to its end (and dropped): answering in the middle of it would leave the rest on
 * the connection, and destroying the request would reset a keep-alive connection the client
 * means to use again. Past {@link MAX_DRAINED_BYTES} the connection is closed after the answer.
 */
function readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAINED_BYTES) {
        res.shouldKeepAlive = false;
        reject(tooLarge());
        req.pause();
        return;
      }
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => (size > MAX_BODY_BYTES ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function tooLarge(): VenueRejection {
  return new VenueRejection(ErrorCode.ValidationError, `body larger than ${MAX_BODY_BYTES} bytes`);
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function answerError(res: ServerResponse, rejection: VenueRejection): void {
  const headers: Record<string, string> = rejection instanceof RateLimited ? { 'retry-after': String(Math.ceil(rejection.retryAfterMs / 1000)) } : {};
  answer(res, rejection.httpStatus, rejection.toWire(), headers);
}
