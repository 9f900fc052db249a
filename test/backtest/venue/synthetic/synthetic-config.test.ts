import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../framework/model/errors.js';
import { resolveSymbol } from '../../../../backtest/venue/synthetic/synthetic-config.js';

describe('resolveSymbol: margin trading', () => {
  it('gives a spot pair isolated margin at leverage 10 unless told otherwise', () => {
    const margin = (options: Record<string, unknown>): [boolean, string | undefined] => {
      const { info } = resolveSymbol({ symbol: 'BTCUSDT', ...options }, 's');
      return [info.margin_trading, info.max_initial_leverage?.toFixed()];
    };
    expect(margin({})).toEqual([true, '10']);
    expect(margin({ maxLeverage: '3.5' })).toEqual([true, '3.5']);
    expect(margin({ marginTrading: false })).toEqual([false, undefined]);
  });

  it('refuses a leverage below 1, a leverage without margin trading, and a non-boolean switch', () => {
    for (const [options, field] of [
      [{ maxLeverage: '0.5' }, 's.maxLeverage'],
      [{ maxLeverage: 'ten' }, 's.maxLeverage'],
      [{ marginTrading: false, maxLeverage: '5' }, 's.maxLeverage'],
      [{ marginTrading: 'yes' }, 's.marginTrading'],
    ] as const) {
      const error = (() => { try { resolveSymbol({ symbol: 'BTCUSDT', ...options } as never, 's'); } catch (e) { return e; } return undefined; })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
    }
  });
});
