import { Decimal, type Decimal as DecimalValue } from '../../../framework/model/decimal.js';
import type { TradingBalance } from '../../../framework/model/resources/balance.js';
import type { ClearingRecord } from '../../../framework/model/resources/clearing.js';
import { parseFuturesInfoMap } from '../../../framework/model/resources/futures-info.js';
import type { AccountId } from '../venue-types.js';
import type { FundingEvent } from './funding.js';
import { PositionSection, type FuturesVenueHost } from './position-section.js';
import { liquidateIfDue, type LiquidationRecord } from './liquidation.js';
import type { FuturesTerms } from './futures-terms.js';
import { futuresBalances } from './futures-views.js';

export type { FuturesVenueHost } from './position-section.js';

/** A futures account's margin in one currency at one moment (see `SimulatedFuturesVenue.marginUse`). */
export interface MarginUse {
  readonly marginBalance: DecimalValue;
  readonly positionMargin: DecimalValue;
  readonly orderMargin: DecimalValue;
  readonly available: DecimalValue;
  readonly notional: DecimalValue;
}

/**
 * The futures side of `SimulatedVenue` (`venue.futures`): the requests of document 001's futures
 * section that concern accounts and positions (orders go through the venue's ordinary order methods,
 * which treat a futures symbol's orders by the futures rules), and the recorded futures data that
 * moves marks and funding. Every request method processes at the venue's current time and throws
 * `VenueRejection` on refusal, like the venue's.
 */
export class SimulatedFuturesVenue extends PositionSection {
  constructor(host: FuturesVenueHost) {
    super(host, host.engine.futuresBook);
  }

  /** Futures trading balances of the account (`GET /api/3/futures/balance`). */
  balances(account: AccountId): TradingBalance[] {
    this.host.begin(account);
    return futuresBalances(this.host.engine.futures, account);
  }

  /** The account's cash in a margin currency: its margin balance without unrealized PnL. */
  cash(account: AccountId, currency: string): DecimalValue {
    return this.host.engine.futures.cash(account, currency);
  }

  /** Funding payments of the account, newest first (`GET /api/3/futures/history/clearing`). */
  clearing(account: AccountId): ClearingRecord[] {
    this.host.begin(account);
    return this.host.engine.funding.clearing(account);
  }

  /**
   * Feeds recorded futures info (the body of `GET /api/3/public/futures/info`, keyed by contract)
   * received at `receivedAt`: time advances first (funding due before it is paid at the old marks),
   * then each known contract's `mark_price` becomes its mark and a perpetual's `funding_rate` and
   * `next_funding_time` its funding data, a cash-settled one's `indicative_settlement_price` its
   * settlement price; then liquidations are checked.
   */
  applyFuturesInfo(body: unknown, receivedAt: number): void {
    this.host.advanceTo(receivedAt);
    const engine = this.host.engine;
    const infos = Object.entries(parseFuturesInfoMap(body)).filter(([symbol]) => engine.futures.terms.has(symbol));
    // What this info makes happen (liquidations) is caused by it: one cause naming its contracts.
    engine.cause = { kind: 'market', frameTime: receivedAt, channel: 'futures/info', symbol: infos.map(([s]) => s).join(',') };
    for (const [symbol, info] of infos) {
      engine.marks.setRecorded(symbol, new Decimal(info.mark_price));
      const rate = info.funding_rate === undefined ? undefined : new Decimal(info.funding_rate);
      engine.funding.setRecorded(symbol, rate, info.next_funding_time, engine.time);
      if (info.indicative_settlement_price !== undefined) engine.contractExpiry.setSettlementPrice(symbol, new Decimal(info.indicative_settlement_price));
    }
    liquidateIfDue(engine);
    engine.commit();
  }

  /** The trading terms of every futures contract, by contract code (what `GET /api/3/futures/config` reports). */
  terms(): ReadonlyMap<string, FuturesTerms> {
    return this.host.engine.futures.terms;
  }

  /** Current mark price of a symbol (see `MarkPrices`), undefined when none is known. */
  markPrice(symbol: string): DecimalValue | undefined {
    return this.host.engine.marks.markOf(symbol);
  }

  /** The funding a perpetual will charge next: its rate and time (undefined for a cash-settled contract or unknown symbol). */
  nextFunding(symbol: string): { readonly rate: DecimalValue; readonly time: number } | undefined {
    const funding = this.host.engine.funding;
    const rate = funding.rateOf(symbol);
    const time = funding.nextTimeOf(symbol);
    return rate === undefined || time === undefined ? undefined : { rate, time };
  }

  /** Funding times of a perpetual that passed, oldest first, with their rates (see `FundingSchedule.history`). */
  fundingHistory(symbol: string): readonly FundingEvent[] {
    return this.host.engine.funding.history(symbol);
  }

  /** The latest recorded settlement price estimate of a cash-settled contract (undefined when none). */
  settlementPrice(symbol: string): DecimalValue | undefined {
    return this.host.engine.contractExpiry.settlementPriceOf(symbol);
  }

  /**
   * Open interest of a contract at the venue: the sum of |quantity| of every account's open position
   * on it (the venue's own positions only: the outside market's are not modeled).
   */
  openInterest(symbol: string): DecimalValue {
    const futures = this.host.engine.futures;
    if (!futures.terms.has(symbol)) return new Decimal(0);
    const inst = futures.instrumentOf(symbol);
    let lots = 0;
    for (const account of futures.accountsWithPosition(symbol)) lots += Math.abs(futures.positionLots(account, symbol));
    return inst.lotsToDecimal(lots);
  }

  /**
   * How much of the account's margin in a currency is in use, read without making a request (no
   * request id is spent: a report may sample it during a run without changing the run): the margin
   * balance (cash + unrealized PnL at the marks), the margin held for positions and for orders, what
   * is available, and the open positions' notional at their marks (|quantity| x mark; a position
   * without a mark counts at its entry value).
   */
  marginUse(account: AccountId, currency: string): MarginUse {
    const futures = this.host.engine.futures;
    const notional = futures.sumPositions(account, currency, (symbol) => {
      const mark = this.host.engine.marks.markOf(symbol);
      const lots = Math.abs(futures.positionLots(account, symbol));
      return mark === undefined ? futures.entryValue(account, symbol) : mark.times(futures.instrumentOf(symbol).lotsToDecimal(lots));
    });
    return {
      marginBalance: futures.marginBalance(account, currency),
      positionMargin: futures.positionsReserved(account, currency),
      orderMargin: futures.ordersReserved(account, currency),
      available: futures.available(account, currency),
      notional,
    };
  }

  /** Forced closes so far, in order. */
  liquidations(): readonly LiquidationRecord[] {
    return this.host.engine.liquidations;
  }

  /** What the insurance fund paid in a currency to cover liquidation deficits. */
  insurancePaid(currency: string): DecimalValue {
    return this.host.engine.insurancePaid.get(currency) ?? new Decimal(0);
  }
}
