import { Decimal, isDecimalString } from '../../../framework/model/decimal.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { Instrument } from '../../../framework/model/instrument.js';
import type { SymbolInfo } from '../../../framework/model/resources/symbol.js';
import type { RecordedFrame } from '../../recording/recording-format.js';
import type { ResolvedSymbol } from './synthetic-config.js';

/** A futures contract of the synthetic market, following one of its spot symbols. */
export interface SyntheticFuturesOptions {
  /** Contract code, e.g. `BTCUSDT_PERP`. */
  readonly symbol: string;
  /** The spot symbol of the market whose book and trades the contract follows. */
  readonly underlying: string;
  /** Default `perpetual`. */
  readonly contractType?: 'perpetual' | 'cash_settled';
  /** Expiry, UNIX ms: required for (and only for) a cash-settled contract. */
  readonly expiry?: number;
  /** Contract price minus spot price, in ticks (a constant basis); default 0. */
  readonly basisTicks?: number;
  /** Funding rate of every period (perpetual); default `0.0001`. */
  readonly fundingRate?: string;
  /** Funding period (perpetual), from UNIX epoch; default 8 h. */
  readonly fundingIntervalMs?: number;
  /** How often futures info is polled, ms; default 60 000. */
  readonly infoEveryMs?: number;
  /** Open interest at the start; default `100`. */
  readonly openInterest?: string;
  /** Default `20`. */
  readonly maxLeverage?: string;
  /** Default `0.0005`. */
  readonly takeRate?: string;
  /** Default `0.0002`. */
  readonly makeRate?: string;
}

/** A contract's options after defaults and validation. */
export interface ResolvedFutures {
  readonly symbol: string;
  readonly underlying: string;
  readonly info: SymbolInfo;
  readonly instrument: Instrument;
  readonly perpetual: boolean;
  readonly expiry: number | null;
  readonly basisTicks: number;
  readonly fundingRate: string;
  readonly fundingIntervalMs: number;
  readonly infoEveryUs: number;
  readonly openInterest: Decimal;
}

const HOUR_MS = 3_600_000;

/** Validates a contract's options against the spot symbols of the market; `path` prefixes field names in errors. */
export function resolveFutures(options: SyntheticFuturesOptions, spot: readonly ResolvedSymbol[], path: string): ResolvedFutures {
  if (typeof options.symbol !== 'string' || !/^[A-Z0-9][A-Z0-9_]{1,29}$/.test(options.symbol)) {
    throw new ValidationError(`${path}.symbol`, 'must be 2 to 30 upper-case letters, digits or underscores', options.symbol);
  }
  const underlying = spot.find((s) => s.symbol === options.underlying);
  if (underlying === undefined) throw new ValidationError(`${path}.underlying`, 'must be a spot symbol of the market', options.underlying);
  const perpetual = (options.contractType ?? 'perpetual') === 'perpetual';
  if (options.contractType !== undefined && options.contractType !== 'perpetual' && options.contractType !== 'cash_settled') {
    throw new ValidationError(`${path}.contractType`, 'must be perpetual or cash_settled', options.contractType);
  }
  if (perpetual && options.expiry !== undefined) throw new ValidationError(`${path}.expiry`, 'must be absent for a perpetual', options.expiry);
  if (!perpetual && !(Number.isSafeInteger(options.expiry) && (options.expiry ?? 0) > 0)) {
    throw new ValidationError(`${path}.expiry`, 'must be a UNIX time in integer ms for a cash-settled contract', options.expiry);
  }
  const basisTicks = options.basisTicks ?? 0;
  if (!Number.isSafeInteger(basisTicks)) throw new ValidationError(`${path}.basisTicks`, 'must be an integer', basisTicks);
  if (Math.abs(basisTicks) * 4 > underlying.floorTicks) throw new ValidationError(`${path}.basisTicks`, `must stay within ${Math.floor(underlying.floorTicks / 4)} ticks of the spot price`, basisTicks);
  const fundingRate = decimalText(options.fundingRate ?? '0.0001', `${path}.fundingRate`);
  const fundingIntervalMs = positiveInteger(options.fundingIntervalMs ?? 8 * HOUR_MS, `${path}.fundingIntervalMs`);
  const infoEveryMs = positiveInteger(options.infoEveryMs ?? 60_000, `${path}.infoEveryMs`);
  const openInterest = new Decimal(decimalText(options.openInterest ?? '100', `${path}.openInterest`));
  if (openInterest.isNegative()) throw new ValidationError(`${path}.openInterest`, 'must not be negative', options.openInterest);
  const spotInfo = underlying.info;
  const info: SymbolInfo = {
    type: 'futures',
    contract_type: perpetual ? 'perpetual' : 'cash_settled',
    expiry: perpetual ? null : (options.expiry as number),
    underlying: spotInfo.base_currency ?? underlying.symbol,
    base_currency: null,
    quote_currency: spotInfo.quote_currency,
    status: 'working',
    quantity_increment: spotInfo.quantity_increment,
    tick_size: spotInfo.tick_size,
    take_rate: new Decimal(decimalText(options.takeRate ?? '0.0005', `${path}.takeRate`)),
    make_rate: new Decimal(decimalText(options.makeRate ?? '0.0002', `${path}.makeRate`)),
    fee_currency: spotInfo.quote_currency,
    margin_trading: true,
    max_initial_leverage: new Decimal(decimalText(options.maxLeverage ?? '20', `${path}.maxLeverage`)),
  };
  return {
    symbol: options.symbol, underlying: underlying.symbol, info, instrument: new Instrument(options.symbol, info), perpetual,
    expiry: info.expiry, basisTicks, fundingRate, fundingIntervalMs, infoEveryUs: infoEveryMs * 1000, openInterest,
  };
}

/** The underlying spot market's best prices, in its ticks. */
export type BestTicks = () => { readonly bid: number | undefined; readonly ask: number | undefined };

/**
 * One futures contract of the synthetic market. Model (a sketch, stated as such):
 * - its book and trades are its underlying spot symbol's, message for message (same sequence
 *   numbers, quantities and trade ids), every price moved by a constant basis of `basisTicks`;
 *   a cash-settled contract's stream stops at its expiry;
 * - futures info (`GET /api/3/public/futures/info` answers, as the recorder polls them) every
 *   `infoEveryMs` from the start: mark = the contract's mid, index = the spot mid, a constant
 *   funding rate with the next funding time on the period grid (perpetual), the settlement
 *   estimate = the index (cash-settled), and an open interest that moves with the contract's
 *   trades (buyer-initiated trades add their quantity, seller-initiated ones take it, never below
 *   zero): no participant's positions are modeled.
 */
export class FuturesMirror {
  private interest: Decimal;
  nextEventUs: number;

  constructor(
    readonly config: ResolvedFutures,
    private readonly spot: Instrument,
    private readonly best: BestTicks,
    startUs: number,
    private readonly latencyUs: number,
  ) {
    this.interest = config.openInterest;
    this.nextEventUs = startUs;
  }

  /** True while the contract trades at exchange time `ms` (a cash-settled one until its expiry). */
  trading(ms: number): boolean {
    return this.config.expiry === null || ms < this.config.expiry;
  }

  /** The contract's copy of one of its underlying's public frames (undefined for another symbol's, or after expiry). */
  mirror(frame: RecordedFrame): RecordedFrame | undefined {
    const msg = frame.msg as { ch: string; snapshot?: Record<string, unknown>; update?: Record<string, unknown> };
    const key = msg.snapshot !== undefined ? 'snapshot' : 'update';
    const payload = msg[key]?.[this.config.underlying];
    if (payload === undefined || !this.trading(Math.floor(frame.t))) return undefined;
    let copy: unknown;
    if (msg.ch === 'orderbook/full') {
      const book = payload as { t: number; s: number; a: [string, string][]; b: [string, string][] };
      copy = { ...book, a: book.a.map((l) => this.level(l)), b: book.b.map((l) => this.level(l)) };
    } else if (msg.ch === 'trades') {
      copy = (payload as { t: number; i: number; p: string; q: string; s: string }[]).map((t) => {
        this.interest = Decimal.max(0, t.s === 'buy' ? this.interest.plus(t.q) : this.interest.minus(t.q));
        return { ...t, p: this.shift(t.p) };
      });
    } else if (msg.ch === 'candles/M1') {
      copy = (payload as Record<string, string | number>[]).map((c) => ({
        ...c, o: this.shift(c.o as string), c: this.shift(c.c as string), h: this.shift(c.h as string), l: this.shift(c.l as string),
        q: this.quoteVolume(c),
      }));
    } else return undefined;
    return { t: frame.t, src: frame.src, msg: { ch: msg.ch, [key]: { [this.config.symbol]: copy } } };
  }

  /** The futures info answer due now (call when `nextEventUs` comes); none after a cash-settled contract's expiry. */
  step(out: RecordedFrame[]): void {
    const us = this.nextEventUs;
    this.nextEventUs += this.config.infoEveryUs;
    const ms = Math.floor(us / 1000);
    if (!this.trading(ms)) {
      this.nextEventUs = Number.POSITIVE_INFINITY;
      return;
    }
    const { bid, ask } = this.best();
    if (bid === undefined || ask === undefined) return;
    const c = this.config;
    const index = this.spot.ticksToDecimal(bid).plus(this.spot.ticksToDecimal(ask)).dividedBy(2);
    const mark = c.instrument.ticksToDecimal(bid + c.basisTicks).plus(c.instrument.ticksToDecimal(ask + c.basisTicks)).dividedBy(2);
    const info: Record<string, unknown> = {
      contract_type: c.perpetual ? 'perpetual' : 'cash_settled', mark_price: mark.toFixed(), index_price: index.toFixed(),
      open_interest: this.interest.toFixed(), timestamp: new Date(ms).toISOString(),
    };
    if (c.perpetual) {
      const next = (Math.floor(ms / c.fundingIntervalMs) + 1) * c.fundingIntervalMs;
      Object.assign(info, { funding_rate: c.fundingRate, indicative_funding_rate: c.fundingRate, next_funding_time: new Date(next).toISOString() });
    } else {
      Object.assign(info, { indicative_settlement_price: index.toFixed(), expiry: new Date(c.expiry as number).toISOString() });
    }
    out.push({
      t: (us + this.latencyUs) / 1000, src: 'rest',
      msg: { method: 'GET', path: `/api/3/public/futures/info?symbols=${c.symbol}`, status: 200, body: { [c.symbol]: info } },
    });
  }

  private level([price, quantity]: [string, string]): [string, string] {
    return [this.shift(price), quantity];
  }

  private shift(price: string): string {
    if (this.config.basisTicks === 0) return price;
    return this.spot.ticksToPrice(this.spot.priceToTicks(price) + this.config.basisTicks);
  }

  /** A candle's quote volume moved by the basis: base volume x basis price added (exact). */
  private quoteVolume(candle: Record<string, string | number>): string | number {
    const q = candle.q;
    if (this.config.basisTicks === 0 || typeof q !== 'string' || typeof candle.v !== 'string') return q as string;
    return new Decimal(q).plus(new Decimal(candle.v).times(this.spot.tickSize.times(this.config.basisTicks))).toFixed();
  }
}

function decimalText(text: unknown, field: string): string {
  if (typeof text !== 'string' || !isDecimalString(text)) throw new ValidationError(field, 'must be a decimal number text', text);
  return text;
}

function positiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw new ValidationError(field, 'must be a positive integer', value);
  return value;
}
