import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBotConfig } from '../../framework/config/bot-config.js';
import { ClientVenuePort } from '../../framework/execution/client-venue-port.js';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import { PublicSession } from '../../framework/exchange/ws/public-session.js';
import { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import { Journal } from '../../framework/live/journal.js';
import { LiveBot } from '../../framework/live/live-bot.js';
import { createLiveContainer, resolveLiveBot } from '../../framework/live/live-container.js';
import { TOKENS } from '../../framework/live/tokens.js';
import { createLogger } from '../../framework/log/logger.js';
import { loadStrategy } from '../../framework/runtime/plugin-loader.js';
import { VirtualClock } from '../../framework/time/clock.js';

async function container(account: 'spot' | 'margin' | 'futures' = 'spot') {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-container-'));
  const config = parseBotConfig({
    bot: { id: 'wired1', account }, strategy: { name: 'market-maker', symbols: ['BTCUSDT'], params: { halfSpreadBps: '10', orderQuantity: '0.01', maxInventory: '0.05' } }, journal: { dir: path.join(dir, 'journal') },
  }, dir);
  const credentials = ApiCredentials.from({ apiKey: 'k'.repeat(32), secretKey: 's'.repeat(32), scheme: 'hs256' });
  const logger = createLogger({ level: 'warn', console: 'off', secrets: [] });
  const strategy = await loadStrategy(config.strategy.name, config.strategy.params);
  // Nothing here connects: the sessions and the REST pool connect when the bot runs.
  return { config, logger, container: createLiveContainer({ config, baseUrl: 'http://127.0.0.1:1', wsBaseUrl: 'ws://127.0.0.1:1/', credentials, logger, strategy, clock: new VirtualClock(0) }) };
}

describe('the live composition root', () => {
  it('builds every port by symbol as the framework class it stands for, one instance each', async () => {
    const { container: c, logger } = await container();
    const expected: [symbol, abstract new (...args: never[]) => unknown][] = [
      [TOKENS.RestTransport, RestTransport], [TOKENS.RestClient, RestClient], [TOKENS.PublicSession, PublicSession],
      [TOKENS.TradingSession, TradingSession], [TOKENS.VenuePort, ClientVenuePort], [TOKENS.Journal, Journal], [TOKENS.LiveBot, LiveBot],
    ];
    for (const [token, type] of expected) {
      const part = c.get(token);
      expect(part, token.description).toBeInstanceOf(type);
      expect(c.get(token), token.description).toBe(part);
    }
    const { bot, close } = resolveLiveBot(c);
    expect(bot).toBe(c.get(TOKENS.LiveBot));
    await close();
    await logger.close();
  });

  it('binds the configured values: the journal is the bot\'s file in the configured folder', async () => {
    const { container: c, config, logger } = await container();
    expect(c.get<Journal>(TOKENS.Journal).file).toBe(path.join(config.journal.dir, 'wired1.journal.jsonl'));
    await resolveLiveBot(c).close();
    await logger.close();
  });

  it('trades the configured account: a futures port for bot.account futures, a margin port for margin', async () => {
    const futures = await container('futures');
    expect(futures.container.get<ClientVenuePort>(TOKENS.VenuePort).account).toBe('futures');
    await resolveLiveBot(futures.container).close();
    await futures.logger.close();
    const margin = await container('margin');
    expect(margin.container.get<ClientVenuePort>(TOKENS.VenuePort).account).toBe('margin');
    await resolveLiveBot(margin.container).close();
    await margin.logger.close();
  });
});
