import type { ClearingRecord } from '../../framework/model/resources/clearing.js';
import type { Position } from '../../framework/model/resources/margin-account.js';
import type { PositionSection } from '../venue/futures/position-section.js';
import type { AccountId } from '../venue/venue-types.js';
import { paging } from './account-routes.js';
import { clearingToWire, marginAccountToWire, positionHistoryToWire, positionToWire } from './futures-wire.js';
import { invalid, optBool, optText, type Params } from './request-params.js';
import { accountOf, type Route, type RouteContext } from './rest-route.js';

const SEG = '([^/]+)';

/** The venue section a set of position routes serves (futures or isolated margin). */
export type PositionRoutesSection = PositionSection & { clearing(account: AccountId): ClearingRecord[] };

/** Which symbols a section knows: `require` answers the symbol, or refuses it (2001) as the section's. */
export interface SectionScope {
  require(symbol: string): string;
}

/**
 * The isolated-account and position endpoints that the futures and margin sections of document 001
 * share under their prefix: the accounts (all with a position, one by symbol), the account update
 * (`PUT`: `margin_balance`, which moves from or to the spot trading account, and `leverage`),
 * closing positions (all at market, one at market or at a limit `price`), and the position and
 * clearing histories (`from`/`till` in nanoseconds, `sort`, `limit`, `offset`).
 */
export function positionAccountRoutes(prefix: 'futures' | 'margin', section: PositionRoutesSection, scope: SectionScope): Route[] {
  return [
    { method: 'GET', pattern: new RegExp(`^/${prefix}/account$`), scope: 'other', right: 'orderbook',
      handle: (c) => section.accounts(accountOf(c)).map(marginAccountToWire) },
    { method: 'GET', pattern: new RegExp(`^/${prefix}/account/isolated/${SEG}$`), scope: 'other', right: 'orderbook',
      handle: (c) => marginAccountToWire(section.account(accountOf(c), scope.require(c.params[0] ?? ''))) },
    { method: 'PUT', pattern: new RegExp(`^/${prefix}/account/isolated/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => {
        const symbol = scope.require(c.params[0] ?? '');
        const request = { margin_balance: optText(c.body, 'margin_balance'), leverage: optText(c.body, 'leverage') };
        return marginAccountToWire(section.updateAccount(accountOf(c), symbol, request));
      } },
    { method: 'DELETE', pattern: new RegExp(`^/${prefix}/position$`), scope: 'other', right: 'trading',
      handle: (c) => {
        const account = accountOf(c);
        const open = section.accounts(account).flatMap((a) => a.positions ?? []);
        section.closeAllPositions(account);
        return open.map(positionToWire);
      } },
    { method: 'DELETE', pattern: new RegExp(`^/${prefix}/position/isolated/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => closeOne(section, scope, c) },
    { method: 'GET', pattern: new RegExp(`^/${prefix}/history/positions$`), scope: 'other', right: 'orderbook',
      handle: (c) => {
        const range = nanoRange(c.query);
        const list = section.positionHistory(accountOf(c)).filter((r) => range(r.create_timestamp));
        return page(list, c.query).map(positionHistoryToWire);
      } },
    { method: 'GET', pattern: new RegExp(`^/${prefix}/history/clearing$`), scope: 'other', right: 'orderbook',
      handle: (c) => {
        const currency = optText(c.query, 'currency');
        const range = nanoRange(c.query);
        const list = section.clearing(accountOf(c)).filter((r) => (currency === undefined || r.currency === currency) && range(r.timestamp));
        return page(list, c.query).map(clearingToWire);
      } },
  ];
}

/**
 * `DELETE /{futures|margin}/position/isolated/{symbol}`: the position as it stood when the close was sent
 * (price and strict_validate from the query, or from a JSON body as many clients send it).
 */
function closeOne(section: PositionRoutesSection, scope: SectionScope, c: RouteContext): Record<string, unknown>[] {
  const account = accountOf(c);
  const symbol = scope.require(c.params[0] ?? '');
  const open: readonly Position[] = section.account(account, symbol).positions ?? [];
  const price = optText(c.query, 'price') ?? optText(c.body, 'price');
  const strict = optBool(c.query, 'strict_validate') ?? optBool(c.body, 'strict_validate') ?? false;
  section.closePosition(account, symbol, price, strict);
  return open.map(positionToWire);
}

/** Newest first as the venue lists them; `sort=ASC` reverses; then `offset` and `limit`. */
function page<T>(list: readonly T[], query: Params): T[] {
  const { sort, limit, offset } = paging(query);
  const ordered = sort === 'ASC' ? [...list].reverse() : list;
  return ordered.slice(offset, offset + limit);
}

/** `from`/`till` in UNIX nanoseconds (inclusive), exact as bigints. */
function nanoRange(query: Params): (time: bigint) => boolean {
  const from = nanos(query, 'from') ?? 0n;
  const till = nanos(query, 'till');
  return (time) => time >= from && (till === undefined || time <= till);
}

function nanos(query: Params, field: string): bigint | undefined {
  const text = optText(query, field);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw invalid(field, 'must be UNIX nanoseconds (an integer)');
  return BigInt(text);
}
