import { Decimal } from '../../framework/model/decimal.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import type { JournalRecord } from './journal-tail.js';

/** What the exchange and the bot's files say at the end of a soak run. */
export interface SoakEvidence {
  /** The account's open orders on the exchange after the final stop. */
  readonly openOrders: readonly Order[];
  /** The account's whole order history (open and closed). */
  readonly orderHistory: readonly Order[];
  /** The account's executions. */
  readonly trades: readonly TradeHistoryRecord[];
  /** The account's spot balances at start (currency -> amount). */
  readonly initialBalances: Readonly<Record<string, string>>;
  /** The account's spot balances after the final stop. */
  readonly finalBalances: readonly TradingBalance[];
  /** Every record of the bot's journal, all lives. */
  readonly journal: readonly JournalRecord[];
  /** How the last life (stopped with SIGTERM) ended; undefined when it never ended. */
  readonly finalExit: { readonly code: number | null; readonly signal: string | null } | undefined;
  /** client_order_ids the exchange refused as used before (code 20008). */
  readonly duplicateIdRejections: readonly string[];
}

/** One verdict of a soak run. */
export interface SoakCheck {
  readonly name: string;
  readonly pass: boolean;
  /** Evidence: what differed (empty when it passed with nothing to say). */
  readonly detail: string;
}

/**
 * Judges a soak run from raw evidence with arithmetic of its own (sums of the exchange's
 * executions, set comparisons), not with the bot's code: the account belongs to the bot alone, so
 * every order and execution on it is the bot's.
 */
export function checkSoak(e: SoakEvidence): SoakCheck[] {
  const journalOrders = e.journal.filter((r) => r['k'] === 'order').map((r) => String(r['id']));
  const journaled = new Set(journalOrders);
  const historyIds = e.orderHistory.map((o) => o.client_order_id);
  const stopped = lastStopped(e.journal);
  return [
    check('stopped with exit code 0', e.finalExit?.code === 0, e.finalExit === undefined ? 'did not exit' : `code ${e.finalExit.code} signal ${e.finalExit.signal}`),
    check('no order open on the exchange', e.openOrders.length === 0, e.openOrders.map((o) => `${o.client_order_id} ${o.side} ${o.status}`).join(', ')),
    // A 20008 answer alone is no reuse: it is how a retried placement learns its first attempt arrived. It is shown as evidence.
    check('no client_order_id used twice', duplicates(historyIds).length === 0 && duplicates(journalOrders).length === 0, [
      listed('twice in the exchange history', duplicates(historyIds)),
      listed('journaled as new orders twice', duplicates(journalOrders)),
      e.duplicateIdRejections.length > 0 ? `(${e.duplicateIdRejections.length} placements refused as used before, 20008: ${e.duplicateIdRejections.slice(0, 4).join(', ')})` : '',
    ].filter(Boolean).join('; ')),
    check('every exchange order in the journal', historyIds.every((id) => journaled.has(id)), listed('missing', historyIds.filter((id) => !journaled.has(id)))),
    fillsCheck(e.trades, e.journal),
    positionCheck(e.trades, stopped),
    balancesCheck(e, stopped),
  ];
}

function positionCheck(trades: readonly TradeHistoryRecord[], stopped: JournalRecord | undefined): SoakCheck {
  const exchange = new Map<string, Decimal>();
  for (const t of trades) exchange.set(t.symbol, (exchange.get(t.symbol) ?? new Decimal(0)).plus(t.side === 'buy' ? t.quantity : t.quantity.neg()));
  const reported = record(stopped?.['positions']);
  if (reported === undefined) return check('position equals the exchange\'s', false, 'no stopped record with positions after the last start');
  const symbols = new Set([...exchange.keys(), ...Object.keys(reported)]);
  const wrong = [...symbols].filter((s) => !new Decimal(reported[s] ?? '0').equals(exchange.get(s) ?? 0));
  return check('position equals the exchange\'s', wrong.length === 0,
    [...symbols].map((s) => `${s} bot ${reported[s] ?? '-'} exchange ${(exchange.get(s) ?? new Decimal(0)).toFixed()}`).join(', '));
}

function balancesCheck(e: SoakEvidence, stopped: JournalRecord | undefined): SoakCheck {
  const flows = record(stopped?.['flows']);
  const balances = record(stopped?.['balances']);
  if (flows === undefined || balances === undefined) return check('balances equal the exchange\'s', false, 'no stopped record with flows and balances after the last start');
  const final = new Map(e.finalBalances.filter((b) => b.currency !== undefined).map((b) => [b.currency!, b.available.plus(b.reserved)]));
  const currencies = new Set([...Object.keys(e.initialBalances), ...final.keys(), ...Object.keys(flows)]);
  const wrong: string[] = [];
  for (const c of currencies) {
    const exchange = final.get(c) ?? new Decimal(0);
    const accounted = new Decimal(e.initialBalances[c] ?? '0').plus(flows[c] ?? '0');
    const seen = balances[c];
    if (!accounted.equals(exchange)) wrong.push(`${c}: start + bot's fills ${accounted.toFixed()} != exchange ${exchange.toFixed()}`);
    if (seen === undefined || !new Decimal(seen).equals(exchange)) wrong.push(`${c}: bot's last balance ${seen ?? '-'} != exchange ${exchange.toFixed()}`);
  }
  return check('balances equal the exchange\'s', wrong.length === 0, wrong.join('; '));
}

/** Each execution journaled with the exchange's quantity, price and fee; none journaled that the exchange does not have. */
function fillsCheck(trades: readonly TradeHistoryRecord[], journal: readonly JournalRecord[]): SoakCheck {
  const fills = new Map<string, JournalRecord[]>();
  for (const r of journal) if (r['k'] === 'fill') fills.set(String(r['trade']), [...(fills.get(String(r['trade'])) ?? []), r]);
  const missing: string[] = [];
  const different: string[] = [];
  for (const t of trades) {
    const booked = fills.get(t.id);
    if (booked === undefined) {
      missing.push(`${t.id} (${t.client_order_id})`);
      continue;
    }
    for (const f of booked) {
      if (f['id'] !== t.client_order_id || !new Decimal(String(f['quantity'])).equals(t.quantity) || !new Decimal(String(f['price'])).equals(t.price) || !new Decimal(String(f['fee'])).equals(t.fee)) {
        different.push(`${t.id}: journal ${String(f['id'])} ${String(f['quantity'])}@${String(f['price'])} fee ${String(f['fee'])}, exchange ${t.client_order_id} ${t.quantity.toFixed()}@${t.price.toFixed()} fee ${t.fee.toFixed()}`);
      }
    }
  }
  const known = new Set(trades.map((t) => t.id));
  const invented = [...fills.keys()].filter((id) => !known.has(id));
  const twice = [...fills.entries()].filter(([, list]) => list.length > 1).length;
  return check('every execution in the journal, exactly as the exchange has it', missing.length + different.length + invented.length === 0, [
    listed('missing', missing), listed('different', different), listed('not on the exchange', invented), twice > 0 ? `(${twice} executions journaled more than once; recovery ignores repeats)` : '',
  ].filter(Boolean).join('; '));
}

/** The journal's `stopped` note, provided it is the last life's (after the last `start`). */
function lastStopped(journal: readonly JournalRecord[]): JournalRecord | undefined {
  for (let i = journal.length - 1; i >= 0; i--) {
    const r = journal[i]!;
    if (r['k'] === 'start') return undefined;
    if (r['k'] === 'note' && r['event'] === 'stopped') return r;
  }
  return undefined;
}

function record(value: unknown): Record<string, string> | undefined {
  return value !== null && typeof value === 'object' ? (value as Record<string, string>) : undefined;
}

function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}

function listed(what: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  return `${what}: ${items.slice(0, 8).join(', ')}${items.length > 8 ? ` and ${items.length - 8} more` : ''}`;
}

function check(name: string, pass: boolean, detail: string): SoakCheck {
  return { name, pass, detail };
}
