import { ErrorCode } from '../../framework/exchange/errors.js';
import { toWire } from '../../framework/model/decimal.js';
import { parseFuturesInfoMap, type FuturesInfo } from '../../framework/model/resources/futures-info.js';
import { msToIso, wireRecord } from '../../framework/model/resources/wire-values.js';
import type { SimulatedFuturesVenue } from '../venue/futures/simulated-futures-venue.js';
import { VenueRejection } from '../venue/venue-types.js';
import type { FuturesScope } from './futures-scope.js';
import type { MarketState } from './market-state.js';

/** One open interest reading of a contract: when, and the quantity as decimal text. */
export interface OpenInterestSample {
  readonly t: number;
  readonly value: string;
}

/** A funding record in its wire shape (`GET /public/futures/history/funding`), with its time in ms for filtering. */
export interface WireFunding {
  readonly t: number;
  readonly record: Readonly<Record<string, unknown>>;
}

/** Open interest readings kept per contract (oldest dropped first). */
const SAMPLES_KEPT = 10_000;

/**
 * The public futures market data of the sandbox (document 000: Futures info, Funding history
 * record, open interest candles), per contract of the futures section, from one of two sources:
 *
 * - **recorded**: a contract that appeared in a recorded `GET /api/3/public/futures/info` answer
 *   (fed with {@link onRecordedInfo}) is served from the latest such answer, every field as
 *   recorded but `timestamp` (the request time, as the spec defines it). Its funding history is
 *   read off the recorded answers: each time `next_funding_time` moves on, the funding at the
 *   previous time is a record with the rate, `avg_premium_index` and `interest_rate` recorded
 *   before it. Its open interest readings are the recorded `open_interest` values.
 * - **derived** (no recorded answer for the contract): from the venue's state. `mark_price` is the
 *   venue's mark (the recorded one, else the book's mid, else the last trade; a contract with no
 *   price yet is left out), `index_price` equals it (no index is modeled); a perpetual's
 *   `funding_rate` and `indicative_funding_rate` are the rate its next funding will charge and
 *   `next_funding_time` that funding's time; a cash-settled one's `indicative_settlement_price` is
 *   the recorded estimate, else the mark, and `expiry` its Symbol's. `open_interest` is the sum of
 *   |quantity| of the venue accounts' open positions (the outside market's are not modeled), read
 *   after every change of positions. Funding history is the venue's funding times with the rate
 *   each charged; the venue models the whole rate as premium, so `avg_premium_index` equals
 *   `funding_rate` and `interest_rate` is 0. Premium indexes of the current period are left out.
 */
export class FuturesMarketData {
  private readonly recorded = new Map<string, FuturesInfo>();
  private readonly recordedWire = new Map<string, Readonly<Record<string, unknown>>>();
  private readonly recordedFunding = new Map<string, WireFunding[]>();
  private readonly interest = new Map<string, OpenInterestSample[]>();

  constructor(
    private readonly scope: FuturesScope,
    private readonly market: MarketState,
    private readonly venue: SimulatedFuturesVenue | undefined,
    private readonly now: () => number,
  ) {}

  /**
   * A recorded futures info answer (its body, keyed by contract) received at `receivedAt`: keeps
   * each futures contract's latest info, its funding history and open interest. A body the parser
   * refuses throws its ParseError and changes nothing.
   */
  onRecordedInfo(body: unknown, receivedAt: number): void {
    const infos = parseFuturesInfoMap(body);
    const raw = body as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    for (const [symbol, info] of Object.entries(infos)) {
      if (!this.scope.has(symbol)) continue;
      const previous = this.recorded.get(symbol);
      if (previous?.next_funding_time !== undefined && info.next_funding_time !== undefined
        && info.next_funding_time > previous.next_funding_time && previous.funding_rate !== undefined) {
        this.fundingList(symbol).push({
          t: previous.next_funding_time,
          record: {
            timestamp: msToIso(previous.next_funding_time),
            funding_rate: previous.funding_rate,
            avg_premium_index: previous.avg_premium_index ?? previous.funding_rate,
            interest_rate: previous.interest_rate ?? '0',
            next_funding_time: msToIso(info.next_funding_time),
          },
        });
      }
      this.recorded.set(symbol, info);
      this.recordedWire.set(symbol, raw[symbol] ?? {});
      this.sample(symbol, receivedAt, info.open_interest);
    }
  }

  /** Positions of these contracts changed at `time`: a derived contract's open interest is read again. */
  onPositionsChanged(symbols: readonly string[], time: number): void {
    if (this.venue === undefined) return;
    for (const symbol of symbols) {
      if (this.scope.has(symbol) && !this.recorded.has(symbol)) this.sample(symbol, time, toWire(this.venue.openInterest(symbol)));
    }
  }

  /** True when the contract is served from recorded answers. */
  isRecorded(symbol: string): boolean {
    return this.recorded.has(symbol);
  }

  /** The Futures info of a contract of the futures section, or undefined while no price is known for it. */
  info(symbol: string): Record<string, unknown> | undefined {
    this.scope.require(symbol);
    const timestamp = msToIso(this.market.nowOr(this.now()));
    const wire = this.recordedWire.get(symbol);
    if (wire !== undefined) return { ...wire, timestamp };
    return this.derivedInfo(symbol, timestamp);
  }

  /** The Futures info of one contract; 2001 when it is not a contract, or (saying so) while no price is known for it. */
  requireInfo(symbol: string): Record<string, unknown> {
    const info = this.info(symbol);
    if (info === undefined) throw new VenueRejection(ErrorCode.SymbolNotFound, `no price known yet for futures contract ${symbol}`);
    return info;
  }

  /** Funding history of a perpetual, oldest first (empty for a cash-settled contract). */
  fundingHistory(symbol: string): readonly WireFunding[] {
    this.scope.require(symbol);
    if (this.recorded.has(symbol)) return this.recordedFunding.get(symbol) ?? [];
    return (this.venue?.fundingHistory(symbol) ?? []).map((f) => ({
      t: f.time,
      record: {
        timestamp: msToIso(f.time), funding_rate: toWire(f.rate), avg_premium_index: toWire(f.rate), interest_rate: '0',
        next_funding_time: msToIso(f.nextTime),
      },
    }));
  }

  /** Open interest readings of a contract, oldest first. */
  openInterest(symbol: string): readonly OpenInterestSample[] {
    this.scope.require(symbol);
    return this.interest.get(symbol) ?? [];
  }

  private derivedInfo(symbol: string, timestamp: string): Record<string, unknown> | undefined {
    const venue = this.venue;
    const mark = venue?.markPrice(symbol);
    if (venue === undefined || mark === undefined) return undefined;
    const symbolInfo = this.market.symbols[symbol];
    const funding = venue.nextFunding(symbol);
    const perpetual = funding !== undefined;
    const markText = toWire(mark);
    return wireRecord({
      contract_type: perpetual ? 'perpetual' : 'cash_settled',
      mark_price: markText,
      index_price: markText,
      funding_rate: funding === undefined ? undefined : toWire(funding.rate),
      open_interest: toWire(venue.openInterest(symbol)),
      next_funding_time: funding === undefined ? undefined : msToIso(funding.time),
      indicative_funding_rate: funding === undefined ? undefined : toWire(funding.rate),
      indicative_settlement_price: perpetual ? undefined : toWire(venue.settlementPrice(symbol) ?? mark),
      expiry: perpetual || symbolInfo?.expiry == null ? undefined : msToIso(symbolInfo.expiry),
      timestamp,
    });
  }

  private fundingList(symbol: string): WireFunding[] {
    let list = this.recordedFunding.get(symbol);
    if (list === undefined) this.recordedFunding.set(symbol, (list = []));
    return list;
  }

  private sample(symbol: string, t: number, value: string): void {
    let list = this.interest.get(symbol);
    if (list === undefined) this.interest.set(symbol, (list = []));
    const last = list[list.length - 1];
    if (last !== undefined && last.value === value) return;
    list.push({ t, value });
    if (list.length > 2 * SAMPLES_KEPT) list.splice(0, list.length - SAMPLES_KEPT);
  }
}
