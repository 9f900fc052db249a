import { tradingBalanceToWire } from '../../framework/model/resources/balance.js';
import type { Position } from '../../framework/model/resources/margin-account.js';
import { Decimal } from '../../framework/model/decimal.js';
import type { SimulatedFuturesVenue } from '../venue/futures/simulated-futures-venue.js';
import { paging } from './account-routes.js';
import type { FuturesScope } from './futures-scope.js';
import { clearingToWire, futuresConfigToWire, marginAccountToWire, positionHistoryToWire, positionToWire } from './futures-wire.js';
import { invalid, optBool, optText, type Params } from './request-params.js';
import { accountOf, type Route, type RouteContext } from './rest-route.js';

const SEG = '([^/]+)';

/**
 * Futures balances, accounts and positions (document 001, Futures) over the venue's futures
 * accounts: balances, isolated accounts, the contracts' position configuration, leverage and margin
 * balance (`PUT`: the margin moves from or to the spot trading account, the one transfer the venue
 * supports), closing positions, and the position and clearing histories. `GET .../account/isolated/{symbol}` takes the eased right (R1).
 */
export function futuresAccountRoutes(futures: SimulatedFuturesVenue, scope: FuturesScope): Route[] {
  return [
    { method: 'GET', pattern: /^\/futures\/balance$/, scope: 'other', right: 'orderbook',
      handle: (c) => futures.balances(accountOf(c)).map(tradingBalanceToWire) },
    { method: 'GET', pattern: new RegExp(`^/futures/balance/${SEG}$`), scope: 'other', right: 'orderbook',
      handle: (c) => {
        const currency = c.params[0] ?? '';
        const zero = new Decimal(0);
        const found = futures.balances(accountOf(c)).find((b) => b.currency === currency);
        return tradingBalanceToWire(found ?? { currency, available: zero, reserved: zero, reserved_margin: zero });
      } },
    { method: 'GET', pattern: /^\/futures\/account$/, scope: 'other', right: 'orderbook',
      handle: (c) => futures.accounts(accountOf(c)).map(marginAccountToWire) },
    { method: 'GET', pattern: new RegExp(`^/futures/account/isolated/${SEG}$`), scope: 'other', right: 'orderbook',
      handle: (c) => marginAccountToWire(futures.account(accountOf(c), scope.require(c.params[0] ?? ''))) },
    { method: 'PUT', pattern: new RegExp(`^/futures/account/isolated/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => {
        const symbol = scope.require(c.params[0] ?? '');
        const request = { margin_balance: optText(c.body, 'margin_balance'), leverage: optText(c.body, 'leverage') };
        return marginAccountToWire(futures.updateAccount(accountOf(c), symbol, request));
      } },
    { method: 'DELETE', pattern: /^\/futures\/position$/, scope: 'other', right: 'trading',
      handle: (c) => {
        const account = accountOf(c);
        const open = futures.accounts(account).flatMap((a) => a.positions ?? []);
        futures.closeAllPositions(account);
        return open.map(positionToWire);
      } },
    { method: 'DELETE', pattern: new RegExp(`^/futures/position/isolated/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => closeOne(futures, scope, c) },
    { method: 'GET', pattern: /^\/futures\/config$/, scope: 'other', right: 'orderbook',
      handle: () => ({ config: scope.symbols.flatMap((s) => {
        const terms = futures.terms().get(s);
        return terms === undefined ? [] : [futuresConfigToWire(terms)];
      }) }) },
    { method: 'GET', pattern: /^\/futures\/history\/positions$/, scope: 'other', right: 'orderbook',
      handle: (c) => {
        const range = nanoRange(c.query);
        const list = futures.positionHistory(accountOf(c)).filter((r) => range(r.create_timestamp));
        return page(list, c.query).map(positionHistoryToWire);
      } },
    { method: 'GET', pattern: /^\/futures\/history\/clearing$/, scope: 'other', right: 'orderbook',
      handle: (c) => {
        const currency = optText(c.query, 'currency');
        const range = nanoRange(c.query);
        const list = futures.clearing(accountOf(c)).filter((r) => (currency === undefined || r.currency === currency) && range(r.timestamp));
        return page(list, c.query).map(clearingToWire);
      } },
  ];
}

/**
 * `DELETE /futures/position/isolated/{symbol}`: the position as it stood when the close was sent
 * (price and strict_validate from the query, or from a JSON body as many clients send it).
 */
function closeOne(futures: SimulatedFuturesVenue, scope: FuturesScope, c: RouteContext): Record<string, unknown>[] {
  const account = accountOf(c);
  const symbol = scope.require(c.params[0] ?? '');
  const open: readonly Position[] = futures.account(account, symbol).positions ?? [];
  const price = optText(c.query, 'price') ?? optText(c.body, 'price');
  const strict = optBool(c.query, 'strict_validate') ?? optBool(c.body, 'strict_validate') ?? false;
  futures.closePosition(account, symbol, price, strict);
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
