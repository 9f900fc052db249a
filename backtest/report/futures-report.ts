import { ZERO, type Decimal } from '../../framework/model/decimal.js';
import { toCsv } from './csv.js';
import type { FuturesPositionRow } from './futures-positions.js';
import { iso } from './report-files.js';

export type { FuturesPositionRow } from './futures-positions.js';

/** A futures account's margin at one sample time, in the run's quote (margin) currency. */
export interface MarginSample {
  readonly time: number;
  /** Cash + unrealized PnL at the venue's marks. */
  readonly marginBalance: Decimal;
  /** Margin held for open positions. */
  readonly positionMargin: Decimal;
  /** Margin held for open orders. */
  readonly orderMargin: Decimal;
  readonly available: Decimal;
  /** Open positions' |quantity| x mark. */
  readonly notional: Decimal;
}

/** What a report shows of a futures run beyond its fills: margin over time and each position. */
export interface FuturesReport {
  /** The currency the margin figures are in. */
  readonly currency: string;
  /** Sampled with the equity (bounded: coarser buckets on long runs), oldest first. */
  readonly margin: readonly MarginSample[];
  /** Every position, in the order it opened. */
  readonly positions: readonly FuturesPositionRow[];
}

/** Effective leverage: notional / margin balance; undefined when the margin balance is not positive. */
export function leverageOf(sample: MarginSample): Decimal | undefined {
  return sample.marginBalance.greaterThan(0) ? sample.notional.dividedBy(sample.marginBalance) : undefined;
}

/** Share of the margin balance held for positions and orders; undefined when the margin balance is not positive. */
export function marginUseOf(sample: MarginSample): Decimal | undefined {
  return sample.marginBalance.greaterThan(0) ? sample.positionMargin.plus(sample.orderMargin).dividedBy(sample.marginBalance) : undefined;
}

/** Columns of futures-margin.csv. */
export const MARGIN_COLUMNS: readonly string[] = [
  'time', 'time_iso', 'currency', 'margin_balance', 'position_margin', 'order_margin', 'available', 'notional', 'leverage', 'margin_use',
];

/** Columns of futures-positions.csv. */
export const POSITION_COLUMNS: readonly string[] = [
  'symbol', 'position_id', 'side', 'state', 'opened', 'opened_iso', 'closed', 'closed_iso', 'max_quantity', 'entry_price', 'exit_price',
  'realized_pnl', 'fees', 'funding', 'net_pnl',
];

/** Ratios are written to 12 decimal places (they are quotients, not money); money stays exact. */
const RATIO_PLACES = 12;

/**
 * futures-margin.csv: one row per margin sample; leverage and margin use empty while the margin
 * balance is not positive.
 */
export function futuresMarginCsv(report: FuturesReport): string {
  return toCsv(MARGIN_COLUMNS, report.margin.map((s) => {
    const leverage = leverageOf(s);
    const use = marginUseOf(s);
    return [
      String(s.time), iso(s.time), report.currency, s.marginBalance.toFixed(), s.positionMargin.toFixed(), s.orderMargin.toFixed(),
      s.available.toFixed(), s.notional.toFixed(), leverage?.toFixed(RATIO_PLACES) ?? '', use?.toFixed(RATIO_PLACES) ?? '',
    ];
  }));
}

/** futures-positions.csv: one row per position, exact figures (prices are averages, to the library's precision). */
export function futuresPositionsCsv(report: FuturesReport): string {
  return toCsv(POSITION_COLUMNS, report.positions.map((p) => [
    p.symbol, p.positionId, p.side, p.state, String(p.openedAt), iso(p.openedAt), p.closedAt === undefined ? '' : String(p.closedAt),
    p.closedAt === undefined ? '' : iso(p.closedAt), p.maxQuantity.toFixed(), p.entryPrice.toFixed(), p.exitPrice?.toFixed() ?? '',
    p.realized.toFixed(), p.fees.toFixed(), p.funding.toFixed(), p.net.toFixed(),
  ]));
}

/** Totals over the positions: realized, fees, funding, net. */
export function positionTotals(rows: readonly FuturesPositionRow[]): { realized: Decimal; fees: Decimal; funding: Decimal; net: Decimal } {
  let realized = ZERO;
  let fees = ZERO;
  let funding = ZERO;
  for (const r of rows) {
    realized = realized.plus(r.realized);
    fees = fees.plus(r.fees);
    funding = funding.plus(r.funding);
  }
  return { realized, fees, funding, net: realized.minus(fees).plus(funding) };
}
