import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBotConfig } from '../../framework/config/bot-config.js';
import { parseRiskConfig } from '../../framework/risk/risk-config.js';
import { loadStrategy } from '../../framework/runtime/plugin-loader.js';

const CONFIG_DIR = fileURLToPath(new URL('../../config/', import.meta.url));

describe('example configs', () => {
  it.each(['market-maker', 'ma-crossover', 'bracket', 'perp-maker'])('config/%s.yaml loads, names its plugin and passes its parameter schema and the risk config', async (name) => {
    const config = loadBotConfig(`${CONFIG_DIR}${name}.yaml`);
    expect(config.strategy.name).toBe(name);
    const loaded = await loadStrategy(config.strategy.name, config.strategy.params);
    expect(loaded.plugin.name).toBe(name);
    expect(() => parseRiskConfig(config.risk)).not.toThrow();
  });

  it('the crossover config asks for the M1 candles it trades on', () => {
    expect(loadBotConfig(`${CONFIG_DIR}ma-crossover.yaml`).strategy.candles).toBe('M1');
  });
});
