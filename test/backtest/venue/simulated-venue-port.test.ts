import { describe, expect, it } from 'vitest';
import { ClientOrderIdGenerator } from '../../../framework/execution/client-order-ids.js';
import { ExecutionAdapter } from '../../../framework/execution/execution-adapter.js';
import { SimulatedVenuePort } from '../../../backtest/venue/simulated-venue-port.js';
import { dec } from '../../../framework/model/decimal.js';
import { Instrument } from '../../../framework/model/instrument.js';
import type { StrategyReport } from '../../../framework/model/strategy-report.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { ReplayedSymbolMarket } from '../../../backtest/venue/matching/replayed-symbol-market.js';
import { SimulatedVenue } from '../../../backtest/venue/simulated-venue.js';
import { SYMBOLS, bookSnapshot, tradeFrame } from '../sandbox/support/sandbox-fixture.js';
import { executed } from '../../support/executed.js';

describe('SimulatedVenuePort under the ExecutionAdapter', () => {
  it('places, fills from the market, books the fill once, and turns refusals into exchange codes', async () => {
    const clock = new VirtualClock(1_700_000_000_000);
    const port = new SimulatedVenuePort('main');
    const venue = new SimulatedVenue(
      [new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!)], { main: { spot: { USDT: '1000', BTC: '1' } } },
      (inst) => new ReplayedSymbolMarket(inst), (e) => port.onVenueEvent(e), clock.now(),
    );
    port.attach(venue);
    venue.onMarketFrame(bookSnapshot(), clock.now());
    const adapter = new ExecutionAdapter({
      venue: port, ids: new ClientOrderIdGenerator('bt', clock), clock, currencies: () => ({ base: 'BTC', quote: 'USDT', fee: 'USDT' }),
    });
    const reports: StrategyReport[] = [];
    adapter.reports$.subscribe((r) => reports.push(r));
    await adapter.start();
    await executed(adapter, { kind: 'place', intentId: 'i1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('0.5'), price: dec('99.5') });
    const id = 'bt_20231114_1';
    expect(adapter.account.get(id)?.status).toBe('new');
    venue.onMarketFrame(tradeFrame('99', '5', 7), clock.now() + 10);
    expect(adapter.account.get(id)?.status).toBe('filled');
    expect(adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('0.5');
    const usdt = adapter.account.positions.flow('s', 'USDT');
    const venueUsdt = venue.spotBalances('main').find((b) => b.currency === 'USDT');
    expect(dec('1000').plus(usdt).toFixed()).toBe(venueUsdt?.available.plus(venueUsdt.reserved).toFixed());
    expect(reports.filter((r) => r.kind === 'order').every((r) => r.kind === 'order' && r.intentId === 'i1')).toBe(true);
    await executed(adapter, { kind: 'place', intentId: 'i2', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('100'), price: dec('99') });
    expect(reports.at(-1)).toMatchObject({ kind: 'rejected', code: 20001 });
    expect(await port.findOrder('nope')).toBeUndefined();
  });
});
