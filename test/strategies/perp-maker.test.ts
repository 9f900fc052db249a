import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../framework/model/decimal.js';
import type { Intent } from '../../framework/model/intent.js';
import type { PositionView } from '../../framework/runtime/strategy.js';
import perpMaker from '../../strategies/perp-maker/perp-maker.strategy.js';
import type { PerpMakerParams } from '../../strategies/perp-maker/perp-maker-params.js';
import { StrategyHarness } from './strategy-harness.js';

const SYMBOL = 'BTCUSDT_PERP';
const PARAMS = { halfSpreadBps: '5', orderQuantity: '0.01', maxPosition: '0.05', skewBps: '5', minLiquidationDistance: '0.1' };
const harnesses: StrategyHarness<PerpMakerParams>[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.stop();
});

/** The strategy quoting with `position` (signed, with a liquidation price when given) as the execution side shows it. */
function quoting(quantity?: string, liquidationPrice?: string): string[] {
  const position: PositionView | undefined = quantity === undefined ? undefined : {
    symbol: SYMBOL, quantity: dec(quantity), realizedPnl: dec('0'), averagePrice: dec('60000'),
    margin: {
      leverage: dec('5'), marginCurrency: 'USDT', marginBalance: dec('1000'), positionMargin: dec('100'), ordersMargin: dec('0'), exchangeQuantity: dec(quantity),
      liquidationPrice: liquidationPrice === undefined ? undefined : dec(liquidationPrice), updatedAt: 0,
    },
  };
  const h = new StrategyHarness(perpMaker, PARAMS, (symbol) => (symbol === SYMBOL ? position : undefined));
  harnesses.push(h);
  h.book(SYMBOL, '59999.90', '60000.10');
  return h.take().map(describeIntent);
}

function describeIntent(i: Intent): string {
  if (i.kind !== 'place') return i.kind;
  return `${i.side} ${i.quantity.toFixed()} @ ${i.price?.toFixed()}${i.postOnly === true ? ' post-only' : ''}${i.reduceOnly === true ? ' reduce-only' : ''}`;
}

describe('perp-maker', () => {
  it('quotes a post-only bid and ask 5 bps around the mid, on the tick grid, when flat', () => {
    // Mid 60000: 60000 x (1 -/+ 0.0005) = 59970 / 60030.
    expect(quoting()).toEqual(['buy 0.01 @ 59970 post-only', 'sell 0.01 @ 60030 post-only']);
  });

  it('skews both quotes against the position, and stops the side that would pass maxPosition', () => {
    // Long 0.05 (the maximum): skew 5 bps down; no bid.
    expect(quoting('0.05')).toEqual(['sell 0.01 @ 60000 post-only']);
    // Long 0.02: skew 2 bps down: 60000 x (1 - 0.0007) = 59958, 60000 x (1 + 0.0003) = 60018.
    expect(quoting('0.02')).toEqual(['buy 0.01 @ 59958 post-only', 'sell 0.01 @ 60018 post-only']);
  });

  it('near liquidation quotes only the side that reduces the position, reduce-only, at most the position', () => {
    // Long 0.004 with liquidation at 55000: 8.3 % from the mid, under the 10 % minimum. Skew
    // 0.4 bps down: 60000 x (1 + 0.00046) = 60027.6.
    expect(quoting('0.004', '55000')).toEqual(['sell 0.004 @ 60027.6 post-only reduce-only']);
    // Short 0.03 with liquidation at 65000: 8.3 % away: only a reduce-only bid.
    expect(quoting('-0.03', '65000')).toEqual(['buy 0.01 @ 59988 post-only reduce-only']);
    // 12 % away: both sides again.
    expect(quoting('0.004', '52800')).toHaveLength(2);
  });
});
