import type { BotKernel } from '../runtime/bot-kernel.js';
import type { Instrument } from '../model/instrument.js';
import { ZERO, toWire } from '../model/decimal.js';

/**
 * What the bot believes it holds when it stops, as exact decimal strings, for the journal's
 * `stopped` record: an operator or a soak test compares it with the exchange's account digit for
 * digit. `positions`: net quantity per symbol from the bot's own executions; `flows`: what those
 * executions moved per currency, fees included (the bot's own accounting of its balance changes);
 * `balances`: available + reserved per currency as the exchange last told the bot.
 */
export interface FinalAccount {
  readonly positions: Readonly<Record<string, string>>;
  readonly flows: Readonly<Record<string, string>>;
  readonly balances: Readonly<Record<string, string>>;
}

/** The {@link FinalAccount} of `strategyId` in `kernel`, over the bot's instruments. */
export function finalAccount(kernel: BotKernel, strategyId: string, instruments: readonly Instrument[]): FinalAccount {
  const book = kernel.adapter.account.positions;
  const positions: Record<string, string> = {};
  const flows: Record<string, string> = {};
  for (const instrument of instruments) {
    positions[instrument.symbol] = toWire(book.position(strategyId, instrument.symbol)?.quantity ?? ZERO);
    for (const currency of [instrument.baseCurrency, instrument.quoteCurrency, instrument.info.fee_currency]) {
      if (currency !== null && currency !== undefined) flows[currency] = toWire(book.flow(strategyId, currency));
    }
  }
  const balances: Record<string, string> = {};
  for (const balance of kernel.adapter.account.balances()) {
    if (balance.currency !== undefined) balances[balance.currency] = toWire(balance.available.plus(balance.reserved));
  }
  return { positions, flows, balances };
}
