import { describe, expect, it } from 'vitest';
import { ClientVenuePort } from '../../framework/execution/client-venue-port.js';
import { Decimal } from '../../framework/model/decimal.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import { startMarginSandbox } from '../backtest/sandbox/support/margin-sandbox-fixture.js';
import { codeOf, eventually, teardownAfterEach, tradingSessionOf } from '../backtest/sandbox/support/sandbox-fixture.js';

const teardown = teardownAfterEach();

describe('sandbox margin section, through the framework client and the margin venue port', () => {
  it('opens a margin account, sets leverage, places, replaces and cancels margin orders, reads and closes the position', async () => {
    const started = await startMarginSandbox();
    const { server } = teardown.sandbox(started);
    const rest = started.rest;
    const session = tradingSessionOf(server);
    teardown.add(() => session.close());
    const port = new ClientVenuePort({ session, rest, account: 'margin' });
    teardown.add(() => port.close());
    const reports: OrderReport[] = [];
    const balances: (readonly TradingBalance[])[] = [];
    const subs = [port.orderReports$.subscribe((r) => reports.push(r)), port.balances$.subscribe((b) => balances.push(b))];
    teardown.add(() => subs.forEach((s) => s.unsubscribe()));
    await port.start(3000);

    // Opening: 500 USDT move from spot to the BTCUSDT isolated account; then leverage 5.
    const opened = await rest.margin.updateAccount('BTCUSDT', { margin_balance: '500' });
    expect([opened.symbol, opened.type, opened.leverage.toFixed(), opened.currencies.map((c) => [c.code, c.margin_balance.toFixed()])]).toEqual(['BTCUSDT', 'isolated', '1', [['USDT', '500']]]);
    expect((await rest.spot.getBalance('USDT')).available.toFixed()).toBe('500');
    const levered = await port.setLeverage?.('BTCUSDT', new Decimal(5));
    expect([levered?.leverage.toFixed(), levered?.currencies[0]?.margin_balance.toFixed()]).toEqual(['5', '500']);

    // A limit buy 1 at 95 holds 95 / 5 + 95 x 0.001 = 19.095 of margin; replaced at 96; canceled.
    const placed = await port.placeOrder({ client_order_id: 'm1', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: new Decimal(1), price: new Decimal(95) });
    expect([placed.client_order_id, placed.status]).toEqual(['m1', 'new']);
    const [account] = await port.marginAccounts?.(['BTCUSDT']) ?? [];
    expect(account?.currencies[0]?.reserved_orders.toFixed()).toBe('19.095');
    const replaced = await port.replaceOrder('m1', { new_client_order_id: 'm2', quantity: new Decimal(1), price: new Decimal(96) });
    expect([replaced.client_order_id, replaced.price?.toFixed()]).toEqual(['m2', '96']);
    expect((await port.openOrders()).map((o) => o.client_order_id)).toEqual(['m2']);
    // The spot section sees no margin order, by list or by id.
    expect(await rest.spot.getActiveOrders()).toEqual([]);
    expect(await codeOf(rest.spot.cancelOrder('m2'))).toBe(20002);
    expect((await port.cancelOrder('m2')).status).toBe('canceled');
    await eventually(() => reports.some((r) => r.report_type === 'canceled'));
    expect(reports.map((r) => [r.client_order_id, r.report_type])).toEqual([['m1', 'new'], ['m2', 'replaced'], ['m2', 'canceled']]);

    // A market buy of 1 fills at the ask 101: fee 0.101, position margin 101 / 5 = 20.2.
    const bought = await port.placeOrder({ client_order_id: 'm3', symbol: 'BTCUSDT', side: 'buy', type: 'market', quantity: new Decimal(1) });
    expect(bought.status).toBe('filled');
    await eventually(() => reports.some((r) => r.report_type === 'trade'));
    const trade = reports.find((r) => r.report_type === 'trade');
    expect([trade?.trade_price?.toFixed(), trade?.trade_fee?.toFixed(), trade?.trade_position_id !== undefined]).toEqual(['101', '0.101', true]);
    const [withPosition] = await port.marginAccounts?.(['BTCUSDT']) ?? [];
    // Mark = mid (101 + 99) / 2 = 100: PnL -1; margin balance 500 - 0.101 - 1.
    expect(withPosition?.positions?.map((p) => [p.symbol, p.quantity.toFixed(), p.price_entry.toFixed(), p.pnl?.toFixed()])).toEqual([['BTCUSDT', '1', '101', '-1']]);
    expect([withPosition?.currencies[0]?.margin_balance.toFixed(), withPosition?.currencies[0]?.reserved_positions.toFixed()]).toEqual(['498.899', '20.2']);
    // Free margin: 499.899 - 1 (the loss) - 20.2 = 478.699, on the stream and over REST alike.
    await eventually(() => balances.some((b) => b.some((x) => x.available.toFixed() === '478.699')));
    expect((await port.balances()).map((b) => [b.currency, b.available.toFixed(), b.reserved.toFixed()])).toEqual([['USDT', '478.699', '20.2']]);
    const active = await rest.margin.getPositionHistory();
    expect(active.map((r) => [r.symbol, r.state, r.quantity.toFixed(), r.leverage?.toFixed()])).toEqual([['BTCUSDT', 'active', '1', '5']]);

    // A reduce-only sell that could not reduce a short is refused; the close at market sells 1 at the bid 99.
    expect(await codeOf(rest.margin.createOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', extra: { price: '90', reduce_only: true } }))).toBe(20044);
    const closed = await rest.margin.closePosition('BTCUSDT');
    expect(closed.map((p) => [p.symbol, p.quantity.toFixed()])).toEqual([['BTCUSDT', '1']]);
    const history = await rest.margin.getPositionHistory();
    expect(history.map((r) => [r.state, r.quantity.toFixed(), r.pnl?.toFixed()])).toEqual([['closed', '0', '-2']]);
    expect(await rest.margin.getClearingHistory()).toEqual([]);
    // Closing the account: 500 - 0.101 - 2 - 0.099 = 497.8 back to spot.
    await rest.margin.updateAccount('BTCUSDT', { margin_balance: '0' });
    expect((await rest.spot.getBalance('USDT')).available.toFixed()).toBe('997.8');
    expect((await rest.margin.getTradeHistory()).map((t) => t.client_order_id).sort()).toEqual(['m3', expect.any(String) as string].sort());
    expect(await rest.spot.getTradeHistory()).toEqual([]);
  });

  it('answers the spec\'s refusals: 2001 for a symbol without margin, 20001 without margin funds, 20002 for an unknown order', async () => {
    const started = await startMarginSandbox();
    teardown.sandbox(started);
    const rest = started.rest;
    expect(await codeOf(rest.margin.getAccount('ETHUSDT'))).toBe(2001);
    expect(await codeOf(rest.margin.updateAccount('ETHUSDT', { margin_balance: '10' }))).toBe(2001);
    expect(await codeOf(rest.margin.createOrder({ symbol: 'ETHUSDT', side: 'buy', quantity: '1', extra: { price: '90' } }))).toBe(2001);
    expect(await codeOf(rest.margin.createOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', extra: { price: '90' } }))).toBe(20001);
    expect(await codeOf(rest.margin.updateAccount('BTCUSDT', { margin_balance: '1000.01' }))).toBe(20001);
    expect(await codeOf(rest.margin.getActiveOrder('nope'))).toBe(20002);
    expect(await codeOf(rest.margin.closePosition('BTCUSDT'))).toBe(20002);
    expect(await rest.margin.getAccounts()).toEqual([]);
    expect(await rest.margin.closeAllPositions()).toEqual([]);
  });

  it('margin_* stream methods see only margin orders and margin symbols, with the exchange\'s codes', async () => {
    const started = await startMarginSandbox();
    const { server } = teardown.sandbox(started);
    const rest = started.rest;
    await rest.margin.updateAccount('BTCUSDT', { margin_balance: '300', leverage: '3' });
    const session = tradingSessionOf(server);
    teardown.add(() => session.close());
    await session.start(3000);
    await session.spot.newOrder({ client_order_id: 's1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '90' });
    await session.margin.newOrder({ client_order_id: 'm1', symbol: 'BTCUSDT', side: 'sell', quantity: '1', price: '110' });
    expect((await session.margin.getOrders()).map((o) => o.client_order_id)).toEqual(['m1']);
    expect((await session.spot.getOrders()).map((o) => o.client_order_id)).toEqual(['s1']);
    expect(await codeOf(session.margin.cancelOrder('s1'))).toBe(20002);
    expect(await codeOf(session.margin.newOrder({ symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '90' }))).toBe(2001);
    // 1 x 110 / 3 = 36.666..., up to the notional unit (tick 0.01 x lot 0.0001) 36.666667, + 0.11 of fee.
    expect((await session.margin.balance('USDT')).available.toFixed()).toBe('263.223333');
    expect((await session.margin.fees()).map((f) => [f.symbol, f.take_rate.toFixed(), f.make_rate.toFixed()])).toEqual([['BTCUSDT', '0.001', '0.0005']]);
    expect(await codeOf(session.margin.fee('ETHUSDT'))).toBe(2001);
    expect(await codeOf(session.margin.newOrderList({
      contingency_type: 'oneCancelOther',
      orders: [{ symbol: 'BTCUSDT', side: 'sell', quantity: '1', price: '120' }, { symbol: 'BTCUSDT', side: 'sell', type: 'stopLimit', quantity: '1', price: '90', stop_price: '91' }],
    }))).toBe(10001);
    expect((await session.margin.cancelOrders()).map((o) => o.client_order_id)).toEqual(['m1']);
    expect((await session.spot.getOrders()).map((o) => o.client_order_id)).toEqual(['s1']);
  });
});
