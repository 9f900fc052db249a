/**
 * `tradeloop/live`: runs a bot in a program of your own, as `tradeloop live` does. Load the config
 * and the strategy with `loadBotConfig` and `loadStrategy` (from `tradeloop`), the key with
 * {@link loadCredentials}, then:
 *
 * ```ts
 * const logger = createLogger({ level: 'info', console: 'pretty', secrets: [credentials.apiKey, credentials.secretKey] });
 * const { bot, close } = resolveLiveBot(createLiveContainer({ config, baseUrl, wsBaseUrl, credentials, logger, strategy }));
 * try {
 *   process.exitCode = await bot.run(stopped); // resolves once `stopped` does and the bot has shut down
 * } finally {
 *   await close();
 *   await logger.close();
 * }
 * ```
 *
 * The composition root uses parameter decorators: a program run through tsx (or compiled by tsc)
 * sets `"experimentalDecorators": true` in its tsconfig.json.
 *
 * @packageDocumentation
 */

export { createLiveContainer, resolveLiveBot, type LiveContainerInput } from './live-container.js';
export { LiveBot } from './live-bot.js';
export { createLogger, type BotLogger, type LoggerOptions } from '../log/logger.js';
export { loadCredentials } from '../config/secrets.js';
export { ApiCredentials } from '../exchange/rest/credentials.js';
