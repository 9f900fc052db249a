import type { AccessRight, ResolvedApiKey } from './sandbox-config.js';
import type { Params } from './request-params.js';

/** Which request budget a route spends (document 000, Limits). */
export type RouteScope = 'public' | 'trading' | 'other';

/** What a route handler is given. */
export interface RouteContext {
  /** Decoded path parameters, in pattern order. */
  readonly params: readonly string[];
  readonly query: Params;
  readonly body: Params;
  /** Set on authenticated routes. */
  readonly key: ResolvedApiKey | undefined;
}

/** One REST endpoint of the sandbox. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Matched against the path after `/api/3`; groups are path parameters. */
  readonly pattern: RegExp;
  readonly scope: RouteScope;
  /** Required right; undefined for public market data. */
  readonly right?: AccessRight;
  /** Returns the JSON answer (status 200) or throws a VenueRejection. */
  readonly handle: (context: RouteContext) => unknown;
}

/** Finds the route of `method path`; `undefined` when no route has this path at all. */
export function matchRoute(routes: readonly Route[], method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (m) return { route, params: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return undefined;
}

/** The account a handler acts for (authenticated routes only). */
export function accountOf(context: RouteContext): string {
  if (context.key === undefined) throw new Error('route declared public but reads an account');
  return context.key.account;
}
