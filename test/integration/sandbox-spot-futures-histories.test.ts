import { afterEach, describe, expect, it } from 'vitest';
import type { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { bookSnapshot, eventually } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

/** A raw request with Basic auth: the status and the JSON body. */
async function raw(method: string, path: string, body?: Record<string, string>): Promise<[number, unknown]> {
  const key = server!.apiKeys[0]!;
  const response = await fetch(`${server!.baseUrl}/api/3${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return [response.status, await response.json()];
}

const list = async (path: string): Promise<Array<Record<string, unknown>>> => {
  const [status, body] = await raw('GET', path);
  expect(status).toBe(200);
  return body as Array<Record<string, unknown>>;
};

describe('sandbox spot and futures sections (document 001): each path sees its own orders and trades', () => {
  it('keeps futures orders and trades out of the spot paths, and writes futures trade ids as strings', async () => {
    const started = await startFuturesSandbox();
    ({ server, transport } = started);
    const { rest, market } = started;
    market.push(bookSnapshot(1));
    await eventually(() => server!.framesServed === 2);

    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500', leverage: '10' });
    await rest.futures.createOrder({ client_order_id: 'perp1', symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    await rest.futures.createOrder({ client_order_id: 'perp2', symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '90.0' });
    await rest.spot.createOrder({ client_order_id: 'spot1', symbol: 'BTCUSDT', side: 'sell', type: 'market', quantity: '0.5' });

    // Trade history: a futures trade's id and order_id are String, a spot trade's Number.
    const futuresTrades = await list('/futures/history/trade');
    expect(futuresTrades.map((t) => [typeof t['id'], typeof t['order_id'], t['client_order_id']])).toEqual([['string', 'string', 'perp1']]);
    const spotTrades = await list('/spot/history/trade');
    expect(spotTrades.map((t) => [typeof t['id'], typeof t['order_id'], t['client_order_id']])).toEqual([['number', 'number', 'spot1']]);
    // The framework client reads the strings as it reads the numbers.
    const [parsed] = await rest.futures.getTradeHistory();
    expect([parsed?.id, parsed?.order_id, parsed?.client_order_id]).toEqual([futuresTrades[0]!['id'], futuresTrades[0]!['order_id'], 'perp1']);

    // Order history: each section its own.
    expect((await list('/spot/history/order')).map((o) => o['client_order_id'])).toEqual(['spot1']);
    expect((await list('/futures/history/order')).map((o) => o['client_order_id']).sort()).toEqual(['perp1', 'perp2']);

    // The resting futures order is not a spot order: get, replace and cancel on the spot path are 20002.
    const code = (answer: [number, unknown]) => [answer[0], (answer[1] as { error?: { code: number } }).error?.code];
    expect(code(await raw('GET', '/spot/order/perp2'))).toEqual([400, 20002]);
    expect(code(await raw('PATCH', '/spot/order/perp2', { new_client_order_id: 'perp3', quantity: '2', price: '90.0' }))).toEqual([400, 20002]);
    expect(code(await raw('DELETE', '/spot/order/perp2'))).toEqual([400, 20002]);
    expect((await rest.futures.getActiveOrder('perp2')).status).toBe('new');
  });
});
