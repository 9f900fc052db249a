import { describe, expect, it } from 'vitest';
import type { OrderReportNotification } from '../../framework/model/stream/order-report.js';
import { startMarginSandbox } from '../backtest/sandbox/support/margin-sandbox-fixture.js';
import { eventually, PushedMarket, teardownAfterEach, tradingSessionOf } from '../backtest/sandbox/support/sandbox-fixture.js';

const teardown = teardownAfterEach();

/** A BTCUSDT book of one level each side. */
function book(sequence: number, bid: string, ask: string): Record<string, unknown> {
  return { ch: 'orderbook/full', snapshot: { BTCUSDT: { t: PushedMarket.START, s: sequence, a: [[ask, '5']], b: [[bid, '5']] } } };
}

describe('sandbox margin trading stream: a liquidation as a client sees it', () => {
  it('reports the forced close of an isolated account\'s position as a margin_order trade report, after canceling its orders', async () => {
    const started = await startMarginSandbox();
    const { server } = teardown.sandbox(started);
    const { rest, market } = started;
    await rest.margin.updateAccount('BTCUSDT', { margin_balance: '12', leverage: '10' });
    const session = tradingSessionOf(server);
    teardown.add(() => session.close());
    const reports: OrderReportNotification[] = [];
    const sub = session.orderReports$.subscribe((r) => reports.push(r));
    teardown.add(() => sub.unsubscribe());
    await session.start(3000);
    await session.margin.subscribe();
    await eventually(() => reports.length === 1);

    // Long 1 at the ask 101 on 12 of margin at leverage 10 (10.1 held, fee 0.101), and a resting reduce-only take-profit.
    await session.margin.newOrder({ client_order_id: 'open', symbol: 'BTCUSDT', side: 'buy', type: 'market', quantity: '1' });
    await session.margin.newOrder({ client_order_id: 'tp', symbol: 'BTCUSDT', side: 'sell', quantity: '1', price: '120', reduce_only: true });
    const [position] = (await rest.margin.getAccount('BTCUSDT')).positions ?? [];
    const before = reports.length;
    // The mark falls to the mid 90: margin balance 12 - 0.101 - 11 = 0.899 < 90 / (10 x 2): liquidated at 90.
    market.push(book(2, '89.00', '91.00'));
    const later = () => reports.slice(before).flatMap((r) => r.reports);
    await eventually(() => later().some((r) => r.report_type === 'trade'));
    const [canceled, closing] = later();
    expect([canceled?.client_order_id, canceled?.report_type, canceled?.status]).toEqual(['tp', 'canceled', 'canceled']);
    expect(closing).toMatchObject({
      client_order_id: `liquidation-${position?.id}`, symbol: 'BTCUSDT', side: 'sell', status: 'filled', type: 'market',
      time_in_force: 'IOC', reduce_only: true, report_type: 'trade', trade_taker: true, trade_position_id: position?.id,
    });
    expect([closing?.quantity.toFixed(), closing?.trade_quantity?.toFixed(), closing?.trade_price?.toFixed(), closing?.trade_fee?.toFixed()]).toEqual(['1', '1', '90', '0']);
    // The same execution in the margin trade history: ids agree; the isolated account keeps 0.899.
    const [trade] = await rest.margin.getTradeHistory();
    expect([trade?.id, trade?.order_id, trade?.liquidation]).toEqual([closing?.trade_id, closing?.id, true]);
    const account = await rest.margin.getAccount('BTCUSDT');
    expect([account.positions ?? [], account.currencies[0]?.margin_balance.toFixed()]).toEqual([[], '0.899']);
  });
});
