import { describe, expect, it } from 'vitest';
import { simulatedVenueFactory } from '../../../backtest/sandbox/simulated-venue-factory.js';
import type { SimulatedVenue } from '../../../backtest/venue/simulated-venue.js';
import { MARGIN_SYMBOLS } from './support/margin-sandbox-fixture.js';

describe('simulatedVenueFactory', () => {
  it('on a margin run, moves each margin symbol\'s quote balance from spot to its isolated account', () => {
    const build = simulatedVenueFactory(0, {}, undefined, ['BTCUSDT']);
    const venue = build({ symbols: MARGIN_SYMBOLS, accounts: [{ id: 'main', spot: { USDT: '1000', BTC: '1' } }], onEvent: () => undefined }) as SimulatedVenue;
    expect(venue.margin.account('main', 'BTCUSDT').currencies.map((c) => [c.code, c.margin_balance.toFixed()])).toEqual([['USDT', '1000']]);
    expect(venue.spotBalances('main').map((b) => [b.currency, b.available.toFixed()])).toEqual([['BTC', '1']]);
  });

  it('without margin symbols, keeps the spot balances on spot', () => {
    const venue = simulatedVenueFactory()({ symbols: MARGIN_SYMBOLS, accounts: [{ id: 'main', spot: { USDT: '1000' } }], onEvent: () => undefined }) as SimulatedVenue;
    expect(venue.spotBalances('main').map((b) => [b.currency, b.available.toFixed()])).toEqual([['USDT', '1000']]);
    expect(venue.margin.accounts('main')).toEqual([]);
  });
});
