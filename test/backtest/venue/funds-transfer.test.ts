import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../framework/model/decimal.js';
import { moveFunds, withdrawable, type MarginFundsPort } from '../../../backtest/venue/funds-transfer.js';
import { VenueEngine } from '../../../backtest/venue/venue-engine.js';
import type { VenueEvent } from '../../../backtest/venue/venue-types.js';
import { FakeSymbolMarket } from './support/fake-symbol-market.js';
import { PERP, rejection } from './support/futures-fixture.js';
import { ETHUSDT, T0 } from './support/venue-fixture.js';

function engine(): { engine: VenueEngine; events: VenueEvent[] } {
  const events: VenueEvent[] = [];
  const e = new VenueEngine(
    new Map([[PERP.symbol, PERP], [ETHUSDT.symbol, ETHUSDT]]),
    { a: { wallet: { USDT: '100' }, spot: { USDT: '50' }, futures: { USDT: '20' } } },
    (inst) => new FakeSymbolMarket(inst.symbol, inst),
    (event) => events.push(event),
    T0,
  );
  return { engine: e, events };
}

const d = (v: string) => new Decimal(v);
const held = (e: VenueEngine) => ({
  wallet: e.ledger.available('wallet', 'a', 'USDT').toFixed(),
  spot: e.ledger.available('spot', 'a', 'USDT').toFixed(),
  futures: e.futures.cash('a', 'USDT').toFixed(),
});

/** One isolated margin account (of ETHUSDT, in USDT) holding one balance, with `locked` of it held for orders and positions. */
class FakeMargin implements MarginFundsPort {
  balance = new Decimal(0);
  constructor(private readonly locked = new Decimal(0)) {}
  currencyOf(): string {
    return 'USDT';
  }
  withdrawable(): Decimal {
    return Decimal.max(0, this.balance.minus(this.locked));
  }
  credit(_account: string, _symbol: string, amount: Decimal): void {
    this.balance = this.balance.plus(amount);
  }
}

const ETH_MARGIN = { margin: 'ETHUSDT' } as const;

describe('moveFunds', () => {
  it('moves between wallet, spot and futures, all or nothing, and reports the changed balances at commit', () => {
    const { engine: e, events } = engine();
    moveFunds(e, 'a', 'USDT', d('30'), 'wallet', 'spot');
    moveFunds(e, 'a', 'USDT', d('60.5'), 'spot', 'futures');
    moveFunds(e, 'a', 'USDT', d('10'), 'futures', 'wallet');
    expect(held(e)).toEqual({ wallet: '80', spot: '19.5', futures: '70.5' });
    e.commit();
    expect(events.map((x) => x.kind).sort()).toEqual(['balance', 'futures', 'wallet']);
  });

  it('refuses a short source with 20001 naming it, and bad amounts or pairs with 10001; nothing moves', () => {
    const { engine: e } = engine();
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('50.01'), 'spot', 'wallet'))).toMatchObject({ code: 20001, description: expect.stringContaining('spot') });
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('0'), 'spot', 'wallet')).code).toBe(10001);
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('-1'), 'spot', 'wallet')).code).toBe(10001);
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('1'), 'spot', 'spot')).code).toBe(10001);
    expect(held(e)).toEqual({ wallet: '100', spot: '50', futures: '20' });
  });

  it('lets futures margin leave only as far as it is not held for positions, orders or unrealized losses', () => {
    const { engine: e } = engine();
    e.futures.setOrdersReserved('a', 'USDT', d('15'));
    expect(withdrawable(e, 'a', 'USDT', 'futures').toFixed()).toBe('5');
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('5.01'), 'futures', 'spot')).code).toBe(20001);
    moveFunds(e, 'a', 'USDT', d('5'), 'futures', 'spot');
    expect(held(e)).toEqual({ wallet: '100', spot: '55', futures: '15' });
  });

  it('refuses margin while the venue has no margin accounts, and goes through the margin hook once it has', () => {
    const { engine: e } = engine();
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('1'), 'spot', ETH_MARGIN))).toMatchObject({ code: 10001, description: expect.stringContaining('margin') });
    const margin = new FakeMargin(d('4'));
    e.marginFunds = margin;
    moveFunds(e, 'a', 'USDT', d('10'), 'spot', ETH_MARGIN);
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('6.5'), ETH_MARGIN, 'futures'))).toMatchObject({ code: 20001, description: expect.stringContaining('margin ETHUSDT') });
    moveFunds(e, 'a', 'USDT', d('6'), ETH_MARGIN, 'futures');
    expect([margin.balance.toFixed(), ...Object.values(held(e))]).toEqual(['4', '100', '40', '26']);
    // An isolated account holds its symbol's quote currency only, and is no destination of itself.
    expect(rejection(() => moveFunds(e, 'a', 'BTC', d('1'), 'spot', ETH_MARGIN))).toMatchObject({ code: 10001, description: expect.stringContaining('holds USDT') });
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('1'), ETH_MARGIN, { margin: 'ETHUSDT' })).code).toBe(10001);
  });
});
