import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';

/** A spot instrument on the grid `tick` x `increment`, for the book tests. */
export function bookInstrument(symbol: string, tick: string, increment: string): Instrument {
  return new Instrument(symbol, parseSymbolInfo({
    type: 'spot', base_currency: 'B', quote_currency: 'Q', tick_size: tick, quantity_increment: increment,
    take_rate: '0.001', make_rate: '0.001', fee_currency: 'Q',
  }));
}
