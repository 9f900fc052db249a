import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { moveFunds, withdrawable } from '../../../../backtest/venue/funds-transfer.js';
import { VenueEngine } from '../../../../backtest/venue/venue-engine.js';
import type { VenueEvent } from '../../../../backtest/venue/venue-types.js';
import { FakeSymbolMarket } from '../support/fake-symbol-market.js';
import { rejection } from '../support/futures-fixture.js';
import { MARGIN_ETHUSDT } from '../support/margin-fixture.js';
import { BTCUSDT, T0 } from '../support/venue-fixture.js';

const ETH_MARGIN = { margin: 'ETHUSDT' } as const;
const d = (v: string) => new Decimal(v);

function engine(): { engine: VenueEngine; events: VenueEvent[] } {
  const events: VenueEvent[] = [];
  const e = new VenueEngine(
    new Map([[MARGIN_ETHUSDT.symbol, MARGIN_ETHUSDT], [BTCUSDT.symbol, BTCUSDT]]),
    { a: { wallet: { USDT: '100' }, spot: { USDT: '50', BTC: '1' } } },
    (inst) => new FakeSymbolMarket(inst.symbol, inst),
    (event) => events.push(event),
    T0,
  );
  return { engine: e, events };
}

describe('the isolated margin accounts in the transfer rule', () => {
  it('are the margin hook of a venue with margin symbols: funds move between spot, wallet and a symbol\'s isolated account', () => {
    const { engine: e, events } = engine();
    expect(e.marginFunds).toBeDefined();
    moveFunds(e, 'a', 'USDT', d('30'), 'spot', ETH_MARGIN);
    moveFunds(e, 'a', 'USDT', d('5.5'), ETH_MARGIN, 'wallet');
    expect([e.margin.cash('a', 'ETHUSDT').toFixed(), e.ledger.available('spot', 'a', 'USDT').toFixed(), e.ledger.available('wallet', 'a', 'USDT').toFixed()])
      .toEqual(['24.5', '20', '105.5']);
    e.commit();
    expect(events.map((x) => x.kind).sort()).toEqual(['balance', 'margin', 'wallet']);
  });

  it('lets out only what the isolated account does not hold for orders, and refuses symbols without margin trading or another currency', () => {
    const { engine: e } = engine();
    moveFunds(e, 'a', 'USDT', d('30'), 'spot', ETH_MARGIN);
    e.margin.setOrdersReserved('a', 'ETHUSDT', d('12'));
    expect(withdrawable(e, 'a', 'USDT', ETH_MARGIN).toFixed()).toBe('18');
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('18.01'), ETH_MARGIN, 'spot')).code).toBe(20001);
    expect(rejection(() => moveFunds(e, 'a', 'USDT', d('1'), 'spot', { margin: 'BTCUSDT' }))).toMatchObject({ code: 10001, description: expect.stringContaining('no margin trading') });
    expect(rejection(() => moveFunds(e, 'a', 'BTC', d('0.5'), 'spot', ETH_MARGIN)).code).toBe(10001);
    expect([e.margin.cash('a', 'ETHUSDT').toFixed(), e.ledger.available('spot', 'a', 'USDT').toFixed(), e.ledger.available('spot', 'a', 'BTC').toFixed()]).toEqual(['30', '20', '1']);
  });
});
