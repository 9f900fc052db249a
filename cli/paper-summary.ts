import type { Balances } from '../framework/config/bot-config.js';
import type { ApiCredentials } from '../framework/exchange/rest/credentials.js';
import { RestClient } from '../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../framework/exchange/rest/rest-transport.js';
import type { LiveBot } from '../framework/live/live-bot.js';
import { ZERO, type Decimal } from '../framework/model/decimal.js';
import type { TradingBalance } from '../framework/model/resources/balance.js';
import { formatStatus } from '../framework/runtime/bot-kernel.js';
import { marginAccountEndpoints } from '../framework/execution/margin-account-endpoints.js';

/**
 * The end-of-run summary of `tradeloop paper`: orders and fills the bot made, fees, the realized
 * PnL the bot computed, and the sandbox account's final balances next to the starting ones (their
 * difference is the run's PnL by currency, fees included). Balances are the exchange's, of the
 * account the bot traded (a futures bot's are its futures margin, open positions' margin included;
 * a margin bot's the totals of its isolated accounts),
 * read over REST after the bot stopped.
 */
export async function paperSummary(
  bot: LiveBot, baseUrl: string, credentials: ApiCredentials, start: Balances, account: 'spot' | 'margin' | 'futures' = 'spot',
): Promise<string> {
  const transport = new RestTransport({ baseUrl, credentials });
  let balances: TradingBalance[];
  try {
    const rest = new RestClient(transport);
    balances = await (account === 'futures' ? rest.futures.getBalances() : account === 'margin' ? marginAccountEndpoints(rest).getBalances() : rest.spot.getBalances());
  } finally {
    await transport.close();
  }
  const { orders, fills, feesBySymbol } = bot.activity;
  const lines = [`paper run: ${orders} order${orders === 1 ? '' : 's'}, ${fills} fill${fills === 1 ? '' : 's'}`];
  for (const [symbol, fee] of feesBySymbol) lines.push(`  fees ${symbol}: ${fee.toFixed()} (fee currency of ${symbol})`);
  const status = bot.current?.status();
  if (status !== undefined) lines.push(`  ${formatStatus(status)}`);
  const final = new Map<string, Decimal>();
  for (const b of balances) if (b.currency !== undefined) final.set(b.currency, b.available.plus(b.reserved));
  const currencies = [...new Set([...Object.keys(start), ...final.keys()])].sort();
  const rows = currencies
    .map((c) => ({ c, from: start[c] ?? ZERO, to: final.get(c) ?? ZERO }))
    .filter((r) => !(r.from.isZero() && r.to.isZero()));
  if (rows.length > 0) {
    lines.push('  balance     start -> final (change)');
    for (const { c, from, to } of rows) {
      const change = to.minus(from);
      lines.push(`  ${c.padEnd(8)} ${from.toFixed()} -> ${to.toFixed()} (${change.isNegative() ? '' : '+'}${change.toFixed()})`);
    }
  }
  return lines.join('\n');
}
