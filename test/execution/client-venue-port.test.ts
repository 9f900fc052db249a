import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import type { RestRequest } from '../../framework/exchange/rest/rest-request.js';
import { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import { ClientVenuePort } from '../../framework/execution/client-venue-port.js';
import { dec } from '../../framework/model/decimal.js';
import type { StrategyReport } from '../../framework/model/strategy-report.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel } from '../../framework/runtime/bot-kernel.js';
import { liveSchedulers } from '../../framework/runtime/runtime-ports.js';
import type { StrategyPlugin } from '../../framework/runtime/strategy.js';
import { book, spotInstrument } from '../risk/risk-fixtures.js';
import { until, WsTestServer, type TestClient } from '../support/ws-test-server.js';

const ETH = spotInstrument();

let server: WsTestServer;
let session: TradingSession;
/** New-order requests the fake has received and not answered yet. */
let held: { client: TestClient; message: Record<string, unknown> }[];
/** How many new-order requests had arrived when the first answer went out. */
let arrivedBeforeFirstAnswer: number | undefined;

/** The order the fake accepts for a spot_new_order request: the request's own fields, status new. */
function accepted(params: Record<string, unknown>, id: number): Record<string, unknown> {
  return {
    id, client_order_id: params.client_order_id, symbol: params.symbol, side: params.side, status: 'new', type: params.type,
    time_in_force: params.time_in_force ?? 'GTC', quantity: params.quantity, quantity_cumulative: '0', price: params.price,
    post_only: params.post_only ?? false, created_at: '2023-11-14T22:13:20.000Z', updated_at: '2023-11-14T22:13:20.000Z',
  };
}

/**
 * A trading endpoint that answers new orders only once two have arrived: a client that waited for
 * the first answer before sending the second would never be answered.
 */
function holdNewOrders(message: Record<string, unknown>, client: TestClient, fake: WsTestServer): void {
  switch (message.method) {
    case 'spot_new_order': {
      held.push({ client, message });
      if (held.length < 2) return;
      arrivedBeforeFirstAnswer ??= held.length;
      for (const [i, request] of held.splice(0).entries()) {
        fake.reply(request.client, request.message.id, accepted(request.message.params as Record<string, unknown>, 100 + i));
      }
      return;
    }
    case 'spot_get_orders':
      return fake.reply(client, message.id, []);
    case 'spot_balances':
      return fake.reply(client, message.id, [
        { currency: 'USDT', available: '100000', reserved: '0' },
        { currency: 'ETH', available: '100', reserved: '0' },
      ]);
    default:
      return fake.reply(client, message.id, true);
  }
}

/** REST must stay unused while the stream is up. */
const noRest = new RestClient({
  execute: <T>(request: RestRequest<T>): Promise<T> => Promise.reject(new Error(`unexpected REST call ${request.method} ${request.path}`)),
});

beforeEach(async () => {
  server = await WsTestServer.start();
  server.handler = holdNewOrders;
  held = [];
  arrivedBeforeFirstAnswer = undefined;
  session = TradingSession.create({
    url: server.url('/api/3/ws/trading'), clock: { now: () => Date.now() },
    credentials: ApiCredentials.from({ apiKey: 'key-1', secretKey: 'secret-1', scheme: 'basic' }), pingIntervalMs: 0,
  });
});

afterEach(async () => {
  await session.close();
  await server.stop();
});

describe('ClientVenuePort over the trading stream', () => {
  it('passes on the spot account\'s order reports one by one and its balances, and nothing of other accounts', async () => {
    const venue = new ClientVenuePort({ session, rest: noRest });
    const reports: string[] = [];
    const balances: string[] = [];
    venue.orderReports$.subscribe((r) => reports.push(`${r.client_order_id}:${r.status}`));
    venue.balances$.subscribe((list) => balances.push(list.map((b) => `${b.currency}=${b.available.toFixed()}`).join(',')));
    await venue.start(2_000);
    const client = await server.nextConnection(true);
    const order = (id: string, status: string): Record<string, unknown> => ({
      ...accepted({ client_order_id: id, symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: '1', price: '2000' }, 1),
      status, report_type: status === 'new' ? 'status' : status,
    });
    server.send(client, { jsonrpc: '2.0', method: 'margin_orders', params: [order('m1', 'new')] });
    server.send(client, { jsonrpc: '2.0', method: 'spot_orders', params: [order('a', 'new'), order('b', 'new')] });
    server.send(client, { jsonrpc: '2.0', method: 'margin_balance', params: [{ currency: 'BTC', available: '1', reserved: '0' }] });
    server.send(client, { jsonrpc: '2.0', method: 'spot_order', params: order('a', 'canceled') });
    server.send(client, { jsonrpc: '2.0', method: 'spot_balance', params: [{ currency: 'USDT', available: '5', reserved: '0' }] });
    await until(() => balances.some((b) => b.startsWith('USDT')));
    expect(reports).toEqual(['a:new', 'b:new', 'a:canceled']);
    expect(balances).toEqual(['USDT=5']);
    venue.close();
  });

  it('holds the order requests made in one turn until a flush or the end of the code running now, and sends them in call order', async () => {
    const venue = new ClientVenuePort({ session, rest: noRest });
    await venue.start(2_000);
    const stream = session.spot;
    const newOrder = stream.newOrder.bind(stream);
    const sent: string[] = [];
    stream.newOrder = (params) => {
      sent.push(params.client_order_id ?? '');
      return newOrder(params);
    };
    const request = (id: string, price: string) => ({
      client_order_id: id, symbol: ETH.symbol, side: 'buy' as const, type: 'limit' as const, quantity: dec('0.5'), price: dec(price),
    });
    const first = venue.placeOrder(request('first', '1999.00'));
    const second = venue.placeOrder(request('second', '1998.00'));
    // Nothing is serialised or queued on the socket while the caller is still running (its later requests wait for no write).
    expect(sent).toEqual([]);
    const orders = await Promise.all([first, second]);
    expect(sent).toEqual(['first', 'second']);
    // A flush sends what is held at once, in call order.
    const third = venue.placeOrder(request('third', '1997.00'));
    const fourth = venue.placeOrder(request('fourth', '1996.00'));
    venue.flush();
    expect(sent).toEqual(['first', 'second', 'third', 'fourth']);
    await Promise.all([third, fourth]);
    expect(orders.map((o) => o.client_order_id)).toEqual(['first', 'second']);
    venue.close();
  });

  it('sends both intents of one handler before either is answered (requests pipelined, answers matched by id)', async () => {
    const venue = new ClientVenuePort({ session, rest: noRest });
    const reports: StrategyReport[] = [];
    const plugin: StrategyPlugin = {
      name: 'two-quotes', description: 'quotes both sides on the first book', parseParams: (raw) => raw,
      create: () => {
        let quoted = false;
        return {
          onBook: (ctx) => {
            if (quoted) return [];
            quoted = true;
            return [
              ctx.place({ symbol: ETH.symbol, side: 'buy', type: 'limit', quantity: dec('0.5'), price: dec('1999.00') }, 'bid'),
              ctx.place({ symbol: ETH.symbol, side: 'sell', type: 'limit', quantity: dec('0.5'), price: dec('2001.00') }, 'ask'),
            ];
          },
          onReport: (_ctx, report) => void reports.push(report),
        };
      },
    };
    const books = new Subject<BookEvent>();
    const kernel = new BotKernel({
      botId: 'pipe', strategyId: 'two-quotes', plugin, params: {}, instruments: [ETH],
      market: { books$: books, market$: new Subject<MarketEvent>() }, venue, clock: { now: () => Date.now() },
      schedulers: liveSchedulers(), risk: {}, errorPolicy: 'halt', unknownOrders: 'adopt',
    });
    await venue.start(2_000);
    await kernel.start();
    books.next({ kind: 'snapshot', symbol: ETH.symbol, sequence: 1, book: book(ETH, [['2000.10', '5']], [['2000.00', '5']]) });

    await until(() => reports.filter((r) => r.kind === 'accepted').length === 2);
    expect(arrivedBeforeFirstAnswer).toBe(2);
    const placed = reports.flatMap((r) => (r.kind === 'accepted' ? r.orders.map((o) => `${o.side} ${o.price?.toFixed()}`) : []));
    expect(placed.sort()).toEqual(['buy 1999', 'sell 2001']);
    await kernel.stop('keep');
    venue.close();
  });
});
