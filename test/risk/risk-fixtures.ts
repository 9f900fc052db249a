import { OrderBook } from '../../framework/exchange/book/order-book.js';
import type { BookLevelText } from '../../framework/exchange/book/order-book-frame.js';
import { Decimal } from '../../framework/model/decimal.js';
import { Instrument, type Side } from '../../framework/model/instrument.js';
import type { Intent, OrderSpec, PlaceIntent } from '../../framework/model/intent.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import { Funds } from '../../framework/model/funds.js';
import { OrderRateWindow } from '../../framework/risk/order-rate-window.js';
import { parseRiskConfig, type RiskConfig } from '../../framework/risk/risk-config.js';
import { RiskState } from '../../framework/risk/risk-state.js';
import { ReservationLedger } from '../../framework/risk/reservation-ledger.js';

/** Spot ETHUSDT: tick 0.01, lot 0.0001, take 0.0025, make 0.001. */
export function spotInstrument(overrides: Record<string, unknown> = {}): Instrument {
  return new Instrument('ETHUSDT', parseSymbolInfo({
    type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: '0.01',
    take_rate: '0.0025', make_rate: '0.001', fee_currency: 'USDT', ...overrides,
  }));
}

/** Perpetual BTCUSDT_PERP: tick 0.1, lot 0.001, quote USDT. */
export function futuresInstrument(): Instrument {
  return new Instrument('BTCUSDT_PERP', parseSymbolInfo({
    type: 'futures', contract_type: 'perpetual', expiry: null, underlying: 'BTC', base_currency: null,
    quote_currency: 'USDT', quantity_increment: '0.001', tick_size: '0.1', take_rate: '0.0005', make_rate: '0.0002',
    fee_currency: 'USDT', margin_trading: true, max_initial_leverage: '100',
  }));
}

/** A valid book from level texts. */
export function book(instrument: Instrument, asks: BookLevelText[], bids: BookLevelText[]): OrderBook {
  const b = new OrderBook(instrument.symbol, { instrument });
  b.apply({ symbol: instrument.symbol, sequence: 1, exchangeTime: 0, receivedAt: 0, snapshot: true, asks, bids });
  return b;
}

/** An amount of funds from its decimal text. */
export function f(text: string): Funds {
  return Funds.of(new Decimal(text), 'test', 'amount');
}

/** A state with the spot instrument, a 2000.00 / 2000.10 book, and the given balances. */
export function spotState(balances: Record<string, string> = { USDT: '100000', ETH: '100' }): RiskState {
  const state = new RiskState(new ReservationLedger(), new OrderRateWindow());
  const eth = spotInstrument();
  state.instruments.set(eth.symbol, eth);
  state.books.set(eth.symbol, book(eth, [['2000.10', '5'], ['2001.00', '10']], [['2000.00', '5'], ['1999.00', '10']]));
  for (const [currency, amount] of Object.entries(balances)) state.ledger.setBalance(currency, new Decimal(amount));
  state.now = 1_000_000;
  return state;
}

let nextId = 0;

/** A place intent (limit by default). */
export function place(spec: Omit<Partial<OrderSpec>, 'quantity' | 'price'> & { side: Side; quantity: string; price?: string }): PlaceIntent {
  const { quantity, price, ...rest } = spec;
  return {
    kind: 'place', intentId: `i${nextId++}`, strategyId: 's', symbol: 'ETHUSDT', type: 'limit',
    ...rest,
    quantity: new Decimal(quantity),
    price: price === undefined ? undefined : new Decimal(price),
  };
}

/** A cancel intent. */
export function cancel(clientOrderId = 'c1'): Intent {
  return { kind: 'cancel', intentId: `i${nextId++}`, strategyId: 's', clientOrderId };
}

/** A validated config from raw overrides. */
export function config(raw: Record<string, unknown> = {}): RiskConfig {
  return parseRiskConfig(raw);
}

/** Shorthand. */
export const d = (text: string): Decimal => new Decimal(text);
