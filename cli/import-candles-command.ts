import { InvalidArgumentError } from 'commander';
import { importCandles } from '../backtest/recording/candle-import.js';
import { isCandlePeriod, type CandlePeriod } from '../framework/model/resources/candle.js';
import { checkWritableFile } from './check-writable.js';
import { examples, type CliCommand } from './command.js';
import { decimal, positiveDecimal } from './option-parsers.js';

interface ImportCandlesOptions {
  readonly symbol: string;
  readonly period: CandlePeriod;
  readonly out: string;
  readonly quote?: string;
  readonly tickSize?: string;
  readonly quantityIncrement?: string;
  readonly takeRate?: string;
  readonly makeRate?: string;
}

/** `tradeloop import-candles`: an OHLCV CSV to a recording of `candles/{period}` frames. */
export const importCandlesCommand: CliCommand<ImportCandlesOptions> = {
  name: 'import-candles',
  define(command) {
    command
      .description('Turn an OHLCV CSV (time,open,high,low,close,volume) into a recording of candles/{period} frames that backtest replays.')
      .argument('<file.csv>', 'the CSV file')
      .requiredOption('--symbol <sym>', 'symbol of the candles')
      .option('--period <p>', 'candle period: M1 M3 M5 M15 M30 H1 H4 D1 D7 1M', period, 'M1')
      .requiredOption('--out <file>', 'recording to write (.jsonl.gz)')
      .option('--quote <cur>', 'quote (and fee) currency in the header')
      .option('--tick-size <x>', 'price tick (default: inferred from the price decimals)', positiveDecimal)
      .option('--quantity-increment <x>', 'lot size (default: from the highest price, 1 lot worth 1e-4..1e-3 quote)', positiveDecimal)
      .option('--take-rate <x>', 'taker fee rate (default 0.001)', decimal)
      .option('--make-rate <x>', 'maker fee rate (default 0.001)', decimal)
      .addHelpText('after', examples('tradeloop import-candles btc-1m.csv --symbol BTCUSDT --period M1 --out btc-1m.jsonl.gz --quote USDT --tick-size 0.01'));
  },
  async run(values, [csvPath]) {
    checkWritableFile(values.out, '--out');
    const symbolInfo = Object.fromEntries(Object.entries({
      quote_currency: values.quote, fee_currency: values.quote, tick_size: values.tickSize,
      quantity_increment: values.quantityIncrement, take_rate: values.takeRate, make_rate: values.makeRate,
    }).filter(([, v]) => v !== undefined));
    const result = await importCandles({ csvPath: csvPath!, outPath: values.out, symbol: values.symbol, period: values.period, symbolInfo });
    const { symbol, inferred } = result;
    const origin = (wasInferred: boolean, rule: string): string => (wasInferred ? rule : 'given');
    console.log(`${result.candles} ${values.period} candles of ${values.symbol} (${new Date(result.first).toISOString()} .. ${new Date(result.last).toISOString()}) -> ${values.out}`);
    console.log(`tick size ${symbol.tick_size.toFixed()} (${origin(inferred.tickSize, 'inferred from the price decimals')}), quantity increment ${symbol.quantity_increment.toFixed()} (${origin(inferred.quantityIncrement, 'default for the highest price')}), fees in ${symbol.fee_currency}: taker ${symbol.take_rate.toFixed()} (${origin(inferred.takeRate, 'default')}), maker ${symbol.make_rate.toFixed()} (${origin(inferred.makeRate, 'default')})`);
    if (result.roundedPrices > 0) console.log(`${result.roundedPrices} prices were off the tick grid and were written rounded half down to it`);
    return 0;
  },
};

function period(text: string): CandlePeriod {
  if (!isCandlePeriod(text)) throw new InvalidArgumentError('must be one of M1 M3 M5 M15 M30 H1 H4 D1 D7 1M');
  return text;
}
