import { ZERO, type Decimal } from '../../../framework/model/decimal.js';
import { cancelWithList } from '../list-effects.js';
import { isActive } from '../order-state.js';
import type { VenueEngine } from '../venue-engine.js';
import type { AccountId, LiquidationRecord } from '../venue-types.js';
import { ceilToUnit } from './futures-terms.js';
import type { FuturesAccounts } from './futures-accounts.js';
import { FLAT } from './position-math.js';
import type { PositionBook } from './position-book.js';

export type { LiquidationRecord } from '../venue-types.js';

/**
 * Liquidation at the venue, the same in both position books (futures and isolated margin). The
 * rule, per account and pocket (futures: positions of a currency are margined from one balance;
 * margin: each symbol's isolated account is its own pocket):
 * - maintenance margin of a position = mark value / (L x liquidation_leverage_mul), rounded up to the
 *   notional unit (L the account's leverage on the symbol);
 * - when the margin balance (cash + unrealized PnL at the marks) is below the sum of the
 *   maintenance margins, the account is liquidated: its active orders on those symbols are canceled,
 *   then every position of the currency is closed at its mark price (no bankruptcy-price model and
 *   no market impact: the outside market takes the position at the mark), realizing its unrealized
 *   PnL and paying force_close_fee x notional to the venue;
 * - a negative margin cash left after that (the loss exceeded the margin: a gap through the
 *   liquidation price) is covered by the venue's insurance fund, which brings the cash to zero and
 *   records what it paid (`insurancePaid`, and `deficit` in the record);
 * - positions without a mark are neither valued nor closed.
 * Checked after every market frame, futures info and funding, never inside a request. Each closing
 * execution is a trade history record with `liquidation: true` and a `liquidation` venue event (no
 * order report is sent: the order is the venue's).
 */
export function liquidateIfDue(engine: VenueEngine): void {
  liquidateBookIfDue(engine, engine.futuresBook);
  liquidateBookIfDue(engine, engine.marginBook);
}

function liquidateBookIfDue(engine: VenueEngine, book: PositionBook): void {
  const futures = book.accounts;
  if (futures.openPositionCount() === 0 || !book.gate.changed(engine, futures)) return;
  for (const account of futures.accountsWithPositions()) {
    for (const pocket of futures.positionCurrencies(account)) {
      const maintenance = futures.sumPositions(account, pocket, (symbol) => maintenanceMargin(engine, account, symbol, futures));
      if (futures.marginBalance(account, pocket).lessThan(maintenance)) liquidate(engine, book, account, pocket);
    }
  }
}

/**
 * Lets the liquidation check run only when something it reads moved since its last run: the
 * futures accounts (cash, margins, positions, leverage), a recorded mark, or the best bid, best ask
 * or last trade of a futures symbol's market (what a derived mark comes from). Integer compares
 * only, so a frame that moves deep book levels costs no Decimal work.
 */
export class LiquidationGate {
  private accounts = -1;
  private recorded = -1;
  private readonly quotes = new Map<string, [number, number, number]>();

  changed(engine: VenueEngine, accounts: FuturesAccounts = engine.futures): boolean {
    let moved = false;
    if (accounts.version !== this.accounts) {
      this.accounts = accounts.version;
      moved = true;
    }
    if (engine.marks.recordedVersion !== this.recorded) {
      this.recorded = engine.marks.recordedVersion;
      moved = true;
    }
    for (const symbol of accounts.terms.keys()) {
      const market = engine.markets.get(symbol);
      if (market === undefined) continue;
      const last = this.quotes.get(symbol);
      const bid = market.bestBidTicks;
      const ask = market.bestAskTicks;
      const trade = market.lastTradeTicks;
      if (last !== undefined && Object.is(last[0], bid) && Object.is(last[1], ask) && Object.is(last[2], trade)) continue;
      this.quotes.set(symbol, [bid, ask, trade]);
      moved = true;
    }
    return moved;
  }
}

/** Maintenance margin of a position of `futures` (the futures book unless given; 0 without a mark). */
export function maintenanceMargin(engine: VenueEngine, account: AccountId, symbol: string, futures: FuturesAccounts = engine.futures): Decimal {
  const position = futures.position(account, symbol);
  const mark = engine.marks.markOf(symbol);
  const inst = engine.instruments.get(symbol);
  if (position === undefined || mark === undefined || inst === undefined) return ZERO;
  const terms = futures.termsOf(symbol);
  const value = mark.times(inst.lotsToDecimal(Math.abs(position.grid.lots)));
  return ceilToUnit(value, futures.leverage(account, symbol).times(terms.liquidationLeverageMul), terms.unit);
}

function liquidate(engine: VenueEngine, book: PositionBook, account: AccountId, pocket: string): void {
  const futures = book.accounts;
  const currency = futures.pocketCurrency(pocket);
  const symbols = futures.openPositions(account).map((p) => p.symbol).filter((s) => futures.termsOf(s).pocket === pocket);
  for (const order of [...(engine.byClientId.get(account)?.values() ?? [])]) {
    if (isActive(order) && engine.bookOf(order) === book && futures.terms.get(order.instrument.symbol)?.pocket === pocket) cancelWithList(engine, order);
  }
  const records: LiquidationRecord[] = [];
  for (const symbol of symbols) {
    const position = futures.position(account, symbol);
    const mark = engine.marks.markOf(symbol);
    const inst = engine.instruments.get(symbol);
    if (position === undefined || mark === undefined || inst === undefined) continue;
    const terms = futures.termsOf(symbol);
    const lots = position.grid.lots;
    const quantity = inst.lotsToDecimal(Math.abs(lots));
    const realized = futures.unrealized(account, symbol);
    const fee = terms.forceCloseFee.times(mark).times(quantity);
    const closed = futures.updatePosition(account, symbol, FLAT, realized, engine.time);
    book.history.close(account, closed, 'liquidated', futures.leverage(account, symbol), engine.time);
    futures.credit(account, pocket, realized.minus(fee));
    add(engine.feesCollected, currency, fee);
    add(engine.outsideFlows, currency, realized);
    const tradeId = engine.ids.nextTradeId();
    const orderId = engine.ids.nextOrderId();
    engine.history.addTrade(account, {
      id: tradeId, order_id: orderId, client_order_id: `liquidation-${position.id}`, symbol,
      side: lots > 0 ? 'sell' : 'buy', quantity, price: mark, fee, timestamp: engine.time, taker: true,
      position_id: position.id, pnl: realized, liquidation: true,
    }, book.name === 'margin');
    records.push({ account, symbol, time: engine.time, positionId: position.id, tradeId, orderId, quantity: inst.lotsToDecimal(lots), price: mark, realized, fee, deficit: ZERO });
  }
  const cash = futures.cash(account, pocket);
  const deficit = cash.isNegative() ? cash.negated() : ZERO;
  if (!deficit.isZero()) {
    futures.credit(account, pocket, deficit);
    add(engine.insurancePaid, currency, deficit);
  }
  // The deficit is the account's over all the closes; the last record carries it.
  const done = records.map((r, i) => (i === records.length - 1 ? { ...r, deficit } : r));
  engine.liquidations.push(...done);
  engine.commit();
  const margin = book.name === 'margin' ? true : undefined;
  for (const liquidation of done) engine.emit({ kind: 'liquidation', account, liquidation, cause: engine.cause, margin });
}

function add(map: Map<string, Decimal>, currency: string, amount: Decimal): void {
  map.set(currency, (map.get(currency) ?? ZERO).plus(amount));
}
