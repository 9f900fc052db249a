import path from 'node:path';
import type { BotConfig } from '../config/bot-config.js';
import { ValidationError } from '../model/errors.js';
import { ValidationErrors } from '../model/validation-errors.js';
import { loadStrategy, type LoadedStrategy } from '../runtime/plugin-loader.js';

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
