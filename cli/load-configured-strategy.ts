import path from 'node:path';
import type { BotConfig } from '../framework/config/bot-config.js';
import { ValidationError } from '../framework/model/errors.js';
import { ValidationErrors } from '../framework/model/validation-errors.js';
import { loadStrategy, type LoadedStrategy } from '../framework/runtime/plugin-loader.js';

/**
 * Loads the strategy plugin a bot config names, with its parameters validated; paths and packages
 * resolve from the config file's folder. Errors name the config file, as the config's own do.
 */
export async function loadConfiguredStrategy(config: BotConfig, configFile: string): Promise<LoadedStrategy> {
  try {
    return await loadStrategy(config.strategy.name, config.strategy.params, { baseDir: path.dirname(configFile) });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationErrors(error instanceof ValidationErrors ? error.errors : [error], configFile);
  }
}
