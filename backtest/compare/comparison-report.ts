import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toCsv } from '../report/csv.js';
import { escapeHtml } from '../report/html-escape.js';
import { iso } from '../report/report-files.js';
import type { RunFill } from './run-folder.js';
import type { ComparedPair, RunComparison } from './run-comparison.js';

/** Columns of comparison.csv: one line per pair of fills. */
export const COMPARISON_COLUMNS: readonly string[] = [
  'pair', 'status', 'cause', 'detail', 'matched_by', 'symbol', 'side',
  'a_time', 'b_time', 'a_price', 'b_price', 'a_quantity', 'b_quantity', 'a_fee', 'b_fee', 'a_liquidity', 'b_liquidity',
  'a_intent_id', 'b_intent_id', 'a_client_order_id', 'b_client_order_id', 'a_decision_sequence', 'b_decision_sequence',
  'a_decision_exchange_time', 'b_decision_exchange_time',
];

/** Pairs listed in the HTML page at most (comparison.csv has them all). */
export const HTML_PAIR_ROWS = 1_000;

/** Where {@link writeComparison} put its files. */
export interface WrittenComparison {
  readonly csv: string;
  readonly html: string;
}

/** Writes comparison.csv and comparison.html into `outDir` (created if missing). */
export async function writeComparison(comparison: RunComparison, outDir: string): Promise<WrittenComparison> {
  await mkdir(outDir, { recursive: true });
  const csv = path.join(outDir, 'comparison.csv');
  const html = path.join(outDir, 'comparison.html');
  await writeFile(csv, comparisonCsv(comparison), 'utf8');
  await writeFile(html, comparisonHtml(comparison), 'utf8');
  return { csv, html };
}

/** comparison.csv: every pair in time order. */
export function comparisonCsv(comparison: RunComparison): string {
  return toCsv(COMPARISON_COLUMNS, comparison.pairs.map(pairCells));
}

function pairCells(pair: ComparedPair, index: number): string[] {
  const { a, b, verdict } = pair;
  const either = (a ?? b)!;
  const cell = (f: RunFill | undefined, value: (f: RunFill) => string | undefined): string => (f === undefined ? '' : value(f) ?? '');
  const both = (value: (f: RunFill) => string | undefined): string[] => [cell(a, value), cell(b, value)];
  return [
    String(index + 1), status(pair), verdict.identical ? '' : verdict.cause, verdict.identical ? '' : verdict.detail, pair.matchedBy, either.symbol, either.side,
    ...both((f) => String(f.time)), ...both((f) => f.price.toFixed()), ...both((f) => f.quantity.toFixed()), ...both((f) => f.fee.toFixed()),
    ...both((f) => f.liquidity), ...both((f) => f.intentId), ...both((f) => f.clientOrderId),
    ...both((f) => (f.decision?.sequence === undefined ? undefined : String(f.decision.sequence))),
    ...both((f) => (f.decision?.exchangeTime === undefined ? undefined : String(f.decision.exchangeTime))),
  ];
}

function status(pair: ComparedPair): string {
  if (pair.verdict.identical) return 'identical';
  if (pair.a === undefined) return 'only_b';
  if (pair.b === undefined) return 'only_a';
  return 'divergent';
}

/** The console summary: share of identical fills, PnL difference, the first divergence, causes. */
export function formatComparison(comparison: RunComparison): string {
  const { a, b, pairs, identical } = comparison;
  const lines = [
    `A: ${a.dir} (${a.fills.length} fills)`,
    `B: ${b.dir} (${b.fills.length} fills)`,
    `identical fills: ${identical} of ${pairs.length} pairs (${percent(comparison.identicalShare)})`,
  ];
  if (a.strategy !== undefined && b.strategy !== undefined && a.strategy !== b.strategy) lines.push(`warning: the runs are of different strategies (${a.strategy}, ${b.strategy})`);
  lines.push(comparison.pnlDifference === undefined
    ? 'PnL difference: unknown (a summary.json lacks metrics.pnlQuote)'
    : `PnL: A ${a.pnl!.toFixed()}, B ${b.pnl!.toFixed()}, difference B - A ${comparison.pnlDifference.toFixed()} ${a.quoteCurrency ?? ''}`.trimEnd());
  const first = comparison.firstDivergence;
  if (first === undefined) lines.push('no divergence');
  else if (!first.verdict.identical) lines.push(`first divergence: pair ${pairs.indexOf(first) + 1} at ${iso(Math.floor(Math.min(first.a?.time ?? Infinity, first.b?.time ?? Infinity)))}: ${first.verdict.cause} (${first.verdict.detail})`);
  const causes = [...comparison.causes].filter(([, n]) => n > 0);
  if (causes.length > 0) lines.push(`causes: ${causes.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  return lines.join('\n');
}

/** comparison.html: the summary and a table of the first {@link HTML_PAIR_ROWS} pairs. */
export function comparisonHtml(comparison: RunComparison): string {
  const rows = comparison.pairs.slice(0, HTML_PAIR_ROWS).map((pair, i) => {
    const cells = pairCells(pair, i);
    return `<tr class="${escapeHtml(cells[1]!)}">${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const more = comparison.pairs.length > HTML_PAIR_ROWS ? `<p>${comparison.pairs.length - HTML_PAIR_ROWS} more pairs in comparison.csv.</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tradeloop compare</title>
<style>body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;white-space:nowrap}
tr.identical td{color:#555}tr.divergent td,tr.only_a td,tr.only_b td{background:#fff3f0}pre{background:#f6f6f6;padding:1em;white-space:pre-wrap}</style></head>
<body><h1>Fill-by-fill comparison</h1>
<pre>${escapeHtml(formatComparison(comparison))}</pre>
<table><thead><tr>${COMPARISON_COLUMNS.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>${more}
</body></html>
`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(share === 1 || share === 0 ? 0 : 2)}%`;
}
