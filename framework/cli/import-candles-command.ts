import { parseArgs } from 'node:util';
import { importCandles } from '../../backtest/recording/candle-import.js';
import { ValidationError } from '../model/errors.js';
import { isCandlePeriod } from '../model/resources/candle.js';
import type { CliCommand } from './command.js';

/** `tradeloop import-candles`: an OHLCV CSV to a recording of `candles/{period}` frames. */
export const importCandlesCommand: CliCommand = {
  name: 'import-candles',
  usage: 'import-candles FILE.csv --symbol SYM --period M1 --out FILE.jsonl.gz [--quote CUR] [--tick-size X] [--quantity-increment X] [--take-rate X] [--make-rate X]',
  summary: 'turn an OHLCV CSV into a candle recording',
  async run(args) {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        symbol: { type: 'string' },
        period: { type: 'string', default: 'M1' },
        out: { type: 'string' },
        quote: { type: 'string' },
        'tick-size': { type: 'string' },
        'quantity-increment': { type: 'string' },
        'take-rate': { type: 'string' },
        'make-rate': { type: 'string' },
      },
      strict: true,
    });
    const [csvPath] = positionals;
    if (csvPath === undefined || positionals.length !== 1) throw new ValidationError('FILE.csv', 'exactly one CSV file is required');
    if (!values.symbol) throw new ValidationError('--symbol', 'is required');
    if (!values.out) throw new ValidationError('--out', 'is required');
    if (!isCandlePeriod(values.period)) throw new ValidationError('--period', 'must be one of M1 M3 M5 M15 M30 H1 H4 D1 D7 1M', values.period);
    const symbolInfo = Object.fromEntries(Object.entries({
      quote_currency: values.quote, fee_currency: values.quote, tick_size: values['tick-size'],
      quantity_increment: values['quantity-increment'], take_rate: values['take-rate'], make_rate: values['make-rate'],
    }).filter(([, v]) => v !== undefined));
    for (const flag of ['tick-size', 'quantity-increment', 'take-rate', 'make-rate'] as const) {
      const value = values[flag];
      const positive = flag === 'tick-size' || flag === 'quantity-increment';
      if (value !== undefined && !(positive ? /^(?=.*[1-9])\d*\.?\d*$/ : /^-?(\d+\.?\d*|\.\d+)$/).test(value)) {
        throw new ValidationError(`--${flag}`, positive ? 'must be a positive decimal number' : 'must be a decimal number', value);
      }
    }
    const result = await importCandles({ csvPath, outPath: values.out, symbol: values.symbol, period: values.period, symbolInfo });
    const { symbol, inferred } = result;
    const origin = (wasInferred: boolean, rule: string): string => (wasInferred ? rule : 'given');
    console.log(`${result.candles} ${values.period} candles of ${values.symbol} (${new Date(result.first).toISOString()} .. ${new Date(result.last).toISOString()}) -> ${values.out}`);
    console.log(`tick size ${symbol.tick_size.toFixed()} (${origin(inferred.tickSize, 'inferred from the price decimals')}), quantity increment ${symbol.quantity_increment.toFixed()} (${origin(inferred.quantityIncrement, 'default for the highest price')}), fees in ${symbol.fee_currency}: taker ${symbol.take_rate.toFixed()} (${origin(inferred.takeRate, 'default')}), maker ${symbol.make_rate.toFixed()} (${origin(inferred.makeRate, 'default')})`);
    if (result.roundedPrices > 0) console.log(`${result.roundedPrices} prices were off the tick grid and were written rounded half down to it`);
    return 0;
  },
};
