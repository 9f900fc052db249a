import { describe, expect, it } from 'vitest';
import { SimulatedGateway } from '../../../backtest/replay/simulated-gateway.js';
import { ConstantLatency } from '../../../backtest/venue/matching/latency-model.js';
import { ReplayedSymbolMarket } from '../../../backtest/venue/matching/replayed-symbol-market.js';
import { SimulatedVenue } from '../../../backtest/venue/simulated-venue.js';
import { SimulatedVenuePort } from '../../../backtest/venue/simulated-venue-port.js';
import { ExchangeError } from '../../../framework/exchange/errors.js';
import type { VenueOrderRequest } from '../../../framework/execution/venue-port.js';
import { dec } from '../../../framework/model/decimal.js';
import { Instrument } from '../../../framework/model/instrument.js';
import type { Order } from '../../../framework/model/resources/order.js';
import { VirtualClockScheduler } from '../../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { SYMBOLS, bookSnapshot } from '../sandbox/support/sandbox-fixture.js';

const START = 1_700_000_000_000;

function world(latency: ConstantLatency) {
  const clock = new VirtualClock(START);
  const scheduler = new VirtualClockScheduler(clock);
  const port = new SimulatedVenuePort('main');
  const seen: string[] = [];
  const venue = new SimulatedVenue(
    [new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!)], { main: { spot: { USDT: '1000', BTC: '1' } } },
    (inst) => new ReplayedSymbolMarket(inst), (event) => {
      if (event.kind === 'order') seen.push(`report ${event.report.client_order_id} ${event.report.status}@${clock.now() - START}`);
      port.onVenueEvent(event);
    }, clock.now(),
  );
  port.attach(venue);
  venue.onMarketFrame(bookSnapshot(), clock.now());
  const gateway = new SimulatedGateway(port, scheduler, latency, () => venue.advanceTo(clock.now()));
  return { clock, scheduler, gateway, seen };
}

function buy(id: string, quantity = '0.1'): VenueOrderRequest {
  return { client_order_id: id, symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec(quantity), price: dec('99') };
}

describe('SimulatedGateway', () => {
  it('reaches the venue after the entry delay and answers after the response delay, never during the command', () => {
    const { clock, scheduler, gateway, seen } = world(new ConstantLatency(5, 7));
    let answer: Order | undefined;
    gateway.place(buy('a'), (error, order) => {
      expect(error).toBeUndefined();
      answer = order;
      seen.push(`answer a@${clock.now() - START}`);
    });
    expect(seen).toEqual([]);
    scheduler.advanceTo(START + 4);
    expect(seen).toEqual([]);
    scheduler.advanceTo(START + 100);
    expect(seen).toEqual(['report a new@5', 'answer a@12']);
    expect(answer?.created_at).toBe(START + 5);
  });

  it('without latency, a handler\'s commands all reach the venue, in order, before any is answered', () => {
    const { clock, scheduler, gateway, seen } = world(new ConstantLatency(0));
    scheduler.schedule(() => {
      for (const id of ['a', 'b']) gateway.place(buy(id), () => seen.push(`answer ${id}@${clock.now() - START}`));
      seen.push('handler returned');
    }, 0);
    scheduler.advanceTo(START);
    expect(seen).toEqual(['handler returned', 'report a new@0', 'report b new@0', 'answer a@0', 'answer b@0']);
  });

  it('answers a refusal with the exchange\'s error and code', () => {
    const { scheduler, gateway } = world(new ConstantLatency(1));
    let failure: unknown;
    gateway.place(buy('big', '100'), (error) => (failure = error));
    scheduler.advanceTo(START + 10);
    expect(failure).toBeInstanceOf(ExchangeError);
    expect((failure as ExchangeError).exchangeCode).toBe(20001);
  });
});
