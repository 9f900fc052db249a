import { invalid, optInt, optText, optTime, type Params } from './request-params.js';
import type { WireTransaction } from './transaction-log.js';

/** Transaction statuses the spec names (document 002). */
const STATUSES = ['CREATED', 'PENDING', 'FAILED', 'SUCCESS', 'ROLLED_BACK'] as const;

/**
 * `GET /wallet/transactions` (document 002): the account's transactions (`newestFirst`) filtered by
 * `types`, `subtypes`, `statuses`, `currencies`, `tx_ids` (comma-separated), `id_from`/`id_till`
 * and `from`/`till` (inclusive), ordered by `order_by` (created_at or id) in `sort` order (DESC by
 * default), then paged by `offset` and `limit` (default 100, at most 1000). A bad value is a
 * 10001 naming the parameter.
 */
export function queryTransactions(newestFirst: readonly WireTransaction[], query: Params): WireTransaction[] {
  const types = listOf(query, 'types');
  const subtypes = listOf(query, 'subtypes');
  const statuses = listOf(query, 'statuses');
  for (const s of statuses ?? []) if (!(STATUSES as readonly string[]).includes(s)) throw invalid('statuses', `must be among ${STATUSES.join(', ')}`);
  const currencies = listOf(query, 'currencies');
  const txIds = listOf(query, 'tx_ids');
  const idFrom = optInt(query, 'id_from', Number.MAX_SAFE_INTEGER) ?? 0;
  const idTill = optInt(query, 'id_till', Number.MAX_SAFE_INTEGER) ?? Number.MAX_SAFE_INTEGER;
  const from = optTime(query, 'from') ?? Number.MIN_SAFE_INTEGER;
  const till = optTime(query, 'till') ?? Number.MAX_SAFE_INTEGER;
  const orderBy = optText(query, 'order_by') ?? 'created_at';
  if (orderBy !== 'created_at' && orderBy !== 'id') throw invalid('order_by', 'must be created_at or id');
  const sort = optText(query, 'sort') ?? 'DESC';
  if (sort !== 'ASC' && sort !== 'DESC') throw invalid('sort', 'must be ASC or DESC');
  const limit = optInt(query, 'limit', 1000) ?? 100;
  const offset = optInt(query, 'offset', 100_000) ?? 0;

  const kept = newestFirst.filter((tx) => {
    const native = (tx['native'] ?? {}) as Record<string, unknown>;
    const id = tx['id'] as number;
    const created = Date.parse(tx['created_at'] as string);
    return (types === undefined || types.includes(tx['type'] as string))
      && (subtypes === undefined || subtypes.includes(tx['subtype'] as string))
      && (statuses === undefined || statuses.includes(tx['status'] as string))
      && (currencies === undefined || currencies.includes(native['currency'] as string))
      && (txIds === undefined || txIds.includes(native['tx_id'] as string))
      && id >= idFrom && id <= idTill && created >= from && created <= till;
  });
  const key = (tx: WireTransaction): number => (orderBy === 'id' ? (tx['id'] as number) : Date.parse(tx['created_at'] as string));
  // Ties on created_at keep the id order (ids rise with time).
  const sorted = kept.sort((a, b) => key(b) - key(a) || (b['id'] as number) - (a['id'] as number));
  if (sort === 'ASC') sorted.reverse();
  return sorted.slice(offset, offset + limit);
}

/** A comma-separated list parameter; undefined when absent or empty (all items, document 000). */
function listOf(query: Params, field: string): string[] | undefined {
  const text = optText(query, field);
  if (text === undefined) return undefined;
  const items = text.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  return items.length === 0 ? undefined : items;
}
