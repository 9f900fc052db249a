import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBotConfig, parseBotConfig } from '../../framework/config/bot-config.js';
import { SECRET_IN_CONFIG_RULE } from '../../framework/config/refuse-secrets.js';
import { ValidationError } from '../../framework/model/errors.js';
import { ValidationErrors } from '../../framework/model/validation-errors.js';

const MINIMAL = { bot: { id: 'mm1' }, strategy: { name: 'market-maker', symbols: ['ETHUSDT'] } };

function errorOf(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

function withMinimal(patch: Record<string, unknown>): Record<string, unknown> {
  return { ...MINIMAL, ...patch };
}

function writeConfig(text: string, name = 'bot.yaml'): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-config-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('parseBotConfig', () => {
  it('fills every default of the schema', () => {
    const c = parseBotConfig(MINIMAL, '/srv/bots');
    expect(c.bot).toEqual({ id: 'mm1', account: 'spot', leverage: {} });
    expect(c.strategy).toEqual({ name: 'market-maker', symbols: ['ETHUSDT'], errorPolicy: 'halt', params: {} });
    expect(c.exchange).toBeUndefined();
    expect(c.risk).toEqual({});
    expect(c.execution).toEqual({ unknownOrders: 'adopt', onShutdown: 'cancel', helperThreadNiceness: 10 });
    expect(c.journal.dir).toBe('/srv/bots/var/journal');
    expect(c.logging).toEqual({ level: 'info', console: 'pretty' });
    expect(c.status.intervalMs).toBe(30_000);
    expect(c.paper.recording).toBeUndefined();
    expect([c.paper.speed, c.paper.latency, c.paper.seed, c.paper.faults]).toEqual([1, { kind: 'constant', entryMs: 1, responseMs: 1 }, 42, 'none']);
    expect(c.paper.balances['USDT']?.toFixed()).toBe('10000');
    expect([c.backtest.seed, c.backtest.latency, c.backtest.candleSlippageBps]).toEqual([1, { kind: 'constant', entryMs: 1, responseMs: 1 }, 5]);
    expect(c.backtest.balances['USDT']?.toFixed()).toBe('10000');
  });

  it('fills the exchange defaults when the section is present', () => {
    const c = parseBotConfig(withMinimal({ exchange: { baseUrl: 'https://api.example.com/api/3', wsBaseUrl: 'wss://api.example.com/api/3' } }), '/x');
    expect(c.exchange).toEqual({
      baseUrl: 'https://api.example.com/api/3',
      wsBaseUrl: 'wss://api.example.com/api/3',
      auth: 'hs256',
      credentials: { apiKeyEnv: 'TRADELOOP_API_KEY', secretKeyEnv: 'TRADELOOP_SECRET_KEY' },
    });
  });

  it('keeps the values it was given and does not change its input', () => {
    const raw = withMinimal({
      strategy: { name: './my.strategy.ts', symbols: ['BTCUSDT', 'ETHBTC'], candles: 'H1', errorPolicy: 'continue', params: { spread: '0.002', nested: { a: [1] } } },
      risk: { priceBand: '0.1' },
      execution: { keepOrderPathWarmMs: 2 },
      paper: { balances: { USDT: 2.5, BTC: '0.00000001' }, speed: 10, recording: 'rec/day1.jsonl.gz' },
    });
    const before = structuredClone(raw);
    const c = parseBotConfig(raw, '/data/bots');
    expect(raw).toEqual(before);
    expect(c.strategy).toEqual({ name: './my.strategy.ts', symbols: ['BTCUSDT', 'ETHBTC'], candles: 'H1', errorPolicy: 'continue', params: { spread: '0.002', nested: { a: [1] } } });
    expect(c.risk).toEqual({ priceBand: '0.1' });
    expect(c.execution.keepOrderPathWarmMs).toBe(2);
    expect(c.execution.helperThreadNiceness).toBe(10);
    expect(c.paper.balances['USDT']?.toFixed()).toBe('2.5');
    expect(c.paper.balances['BTC']?.toFixed()).toBe('0.00000001');
    expect(c.paper.recording).toBe('/data/bots/rec/day1.jsonl.gz');
    expect(c.paper.speed).toBe(10);
  });

  it('names the field and the rule of each kind of error', () => {
    const cases: [unknown, string, string][] = [
      [{}, 'bot', 'is required'],
      [{ bot: { id: 'mm1' } }, 'strategy', 'is required'],
      [withMinimal({ bot: { account: 'spot' } }), 'bot.id', 'is required'],
      [withMinimal({ bot: { id: 'MM1' } }), 'bot.id', 'must match ^[a-z0-9]{1,12}$'],
      [withMinimal({ bot: { id: 'mm1', acount: 'spot' } }), 'bot.acount', 'is not allowed (unknown key; did you mean account?)'],
      [withMinimal({ extra: {} }), 'extra', 'is not allowed (unknown key)'],
      [withMinimal({ strategy: { name: 'x', symbols: ['ETHUSDT', 'eth'] } }), 'strategy.symbols[1]', 'must be an exchange symbol: 2-40 capital letters, digits or _ (BTCUSDT, BTCUSDT_PERP)'],
      [withMinimal({ strategy: { name: 'x', symbols: [] } }), 'strategy.symbols', 'must have at least 1 item'],
      [withMinimal({ strategy: { name: 'x', symbols: 'ETHUSDT' } }), 'strategy.symbols', 'must be a list'],
      [withMinimal({ strategy: { name: 'x', symbols: ['AB'], errorPolicy: 'retry' } }), 'strategy.errorPolicy', 'must be one of halt, continue'],
      [withMinimal({ strategy: { name: 'x', symbols: ['AB'], candles: 'M2' } }), 'strategy.candles', 'must be one of M1, M3, M5, M15, M30, H1, H4, D1, D7, 1M'],
      [withMinimal({ exchange: { baseUrl: 'api.example.com', wsBaseUrl: 'wss://a' } }), 'exchange.baseUrl', 'must be an http:// or https:// URL'],
      [withMinimal({ exchange: { baseUrl: 'https://a', wsBaseUrl: 'https://a' } }), 'exchange.wsBaseUrl', 'must be a ws:// or wss:// URL'],
      [withMinimal({ exchange: { baseUrl: 'https://a' } }), 'exchange.wsBaseUrl', 'is required'],
      [withMinimal({ exchange: { baseUrl: 'https://a', wsBaseUrl: 'wss://a', auth: 'hmac' } }), 'exchange.auth', 'must be one of hs256, basic'],
      [withMinimal({ logging: { level: 'trace' } }), 'logging.level', 'must be one of error, warn, info, debug'],
      [withMinimal({ status: { intervalMs: 1.5 } }), 'status.intervalMs', 'must be an integer'],
      [withMinimal({ status: { intervalMs: -1 } }), 'status.intervalMs', 'must be >= 0'],
      [withMinimal({ paper: { speed: 0 } }), 'paper.speed', 'must be > 0'],
      [withMinimal({ paper: { balances: { USDT: '-5' } } }), 'paper.balances.USDT', 'must be a non-negative decimal number'],
      [withMinimal({ backtest: { balances: { USDT: '1e3' } } }), 'backtest.balances.USDT', 'must be a non-negative decimal number'],
      [withMinimal({ backtest: { balances: { USDT: -1 } } }), 'backtest.balances.USDT', 'must be >= 0'],
      [withMinimal({ execution: { onShutdown: 'flatten' } }), 'execution.onShutdown', 'must be one of cancel, keep'],
      [withMinimal({ execution: { keepOrderPathWarmMs: 0.5 } }), 'execution.keepOrderPathWarmMs', 'must be an integer'],
      [withMinimal({ execution: { keepOrderPathWarmMs: 1001 } }), 'execution.keepOrderPathWarmMs', 'must be <= 1000'],
      [withMinimal({ execution: { helperThreadNiceness: 20 } }), 'execution.helperThreadNiceness', 'must be <= 19'],
      [withMinimal({ execution: { helperThreadNiceness: -1 } }), 'execution.helperThreadNiceness', 'must be >= 0'],
      [['a'], 'root', 'must be a mapping'],
    ];
    for (const [raw, field, rule] of cases) {
      const e = errorOf(() => parseBotConfig(raw, '/x'));
      expect([e.field, e.rule]).toEqual([field, rule]);
    }
  });

  it('refuses secrets anywhere, without quoting them', () => {
    const cases: [unknown, string][] = [
      [withMinimal({ exchange: { baseUrl: 'https://a', wsBaseUrl: 'wss://a', credentials: { apiKey: 'k-123456' } } }), 'exchange.credentials.apiKey'],
      [withMinimal({ exchange: { baseUrl: 'https://a', wsBaseUrl: 'wss://a', secret_key: 'k-123456' } }), 'exchange.secret_key'],
      [withMinimal({ strategy: { name: 'x', symbols: ['AB'], params: { feeds: [{ password: 'k-123456' }] } } }), 'strategy.params.feeds[0].password'],
      [withMinimal({ risk: { api_key: 'k-123456' } }), 'risk.api_key'],
      [{ Secret: 'k-123456' }, 'Secret'],
    ];
    for (const [raw, field] of cases) {
      const e = errorOf(() => parseBotConfig(raw, '/x'));
      expect([e.field, e.rule]).toEqual([field, SECRET_IN_CONFIG_RULE]);
      expect(e.message).not.toContain('k-123456');
    }
    // Names of where a secret lives are the point of the credentials section.
    expect(() => parseBotConfig(withMinimal({ exchange: { baseUrl: 'https://a', wsBaseUrl: 'wss://a', credentials: { apiKeyEnv: 'K', secretKeyEnv: 'S' } } }), '/x')).not.toThrow();
  });

  it('resolves relative paths against the source folder and ~ against HOME', () => {
    const c = parseBotConfig(
      withMinimal({
        exchange: { baseUrl: 'https://a', wsBaseUrl: 'wss://a', credentials: { keyFile: '~/.tradeloop/mm1.keys.yaml' } },
        journal: { dir: '../journal' },
        logging: { file: 'log/bot.jsonl' },
        paper: { recording: '/abs/rec.jsonl' },
      }),
      '/srv/bots/conf',
      { HOME: '/home/trader' },
    );
    expect(c.exchange?.credentials.keyFile).toBe('/home/trader/.tradeloop/mm1.keys.yaml');
    expect(c.journal.dir).toBe('/srv/bots/journal');
    expect(c.logging.file).toBe('/srv/bots/conf/log/bot.jsonl');
    expect(c.paper.recording).toBe('/abs/rec.jsonl');
  });
});

describe('loadBotConfig', () => {
  it('reads YAML over config/default.yaml, with amounts exact and paths against the file', () => {
    const file = writeConfig(
      [
        '# yaml-language-server: $schema=./bot-config.schema.json',
        'bot: { id: mm1 }',
        'strategy:',
        '  name: market-maker',
        '  symbols: [ETHUSDT]',
        'logging: { level: debug, file: var/log/bot.jsonl }',
        'paper:',
        '  balances: { BTC: 12345678901234567890.123456789, USDT: 0.1 }',
      ].join('\n'),
    );
    const c = loadBotConfig(file);
    const dir = join(file, '..');
    expect(c.paper.balances['BTC']?.toFixed()).toBe('12345678901234567890.123456789');
    expect(c.paper.balances['USDT']?.toFixed()).toBe('0.1');
    // Balances are replaced whole: the default USDT is not mixed in elsewhere.
    expect(Object.keys(c.paper.balances).sort()).toEqual(['BTC', 'USDT']);
    expect(c.logging).toEqual({ level: 'debug', console: 'pretty', file: join(dir, 'var/log/bot.jsonl') });
    expect(c.journal.dir).toBe(join(dir, 'var/journal'));
  });

  it('gives the schema defaults from config/default.yaml alone (the two stay in step)', () => {
    const file = writeConfig('bot: { id: a1 }\nstrategy: { name: s, symbols: [AB] }\n');
    const withDefaultsFile = loadBotConfig(file);
    const schemaOnly = loadBotConfig(file, { defaultsFile: null });
    expect(JSON.parse(JSON.stringify(withDefaultsFile))).toEqual(JSON.parse(JSON.stringify(schemaOnly)));
  });

  it('layers a custom defaults file under the bot file', () => {
    const defaults = writeConfig('logging: { level: warn, console: json }\nstatus: { intervalMs: 0 }\n', 'defaults.yaml');
    const file = writeConfig('bot: { id: a1 }\nstrategy: { name: s, symbols: [AB] }\nlogging: { console: off }\n');
    const c = loadBotConfig(file, { defaultsFile: defaults });
    expect(c.logging).toEqual({ level: 'warn', console: 'off' });
    expect(c.status.intervalMs).toBe(0);
  });

  it('reports a missing file, a YAML syntax error with its line, and a schema error by field', () => {
    const missing = errorOf(() => loadBotConfig(join(tmpdir(), 'no-such-tradeloop-config.yaml')));
    expect([missing.field, missing.rule]).toEqual(['config', 'no such file']);

    const broken = writeConfig('bot:\n  id: mm1\n idx: 2\n');
    const syntax = errorOf(() => loadBotConfig(broken));
    expect(syntax.field).toBe(broken);
    expect(syntax.rule).toMatch(/^YAML syntax error at line 3, column 1: /);

    const duplicate = writeConfig('bot: { id: a1 }\nbot: { id: a2 }\n');
    expect(errorOf(() => loadBotConfig(duplicate)).rule).toMatch(/^YAML syntax error at line 2/);

    const bad = writeConfig('bot: { id: a1 }\nstrategy: { name: s, symbols: [AB], errorPolicy: ignore }\n');
    const schema = errorOf(() => loadBotConfig(bad));
    expect([schema.field, schema.rule]).toEqual(['strategy.errorPolicy', 'must be one of halt, continue']);

    const folder = mkdtempSync(join(tmpdir(), 'tradeloop-config-'));
    mkdirSync(join(folder, 'x.yaml'));
    expect(errorOf(() => loadBotConfig(join(folder, 'x.yaml'))).field).toBe('config');
  });

  it('reports every error of a file at once, under the file\'s name, with the likely key of a typo', () => {
    const file = writeConfig('bot: { id: a1 }\nstrategy: { name: s, symbolz: [AB], errorPolicy: stop }\nlogging: { levle: info }\npaper: { speed: -1 }\nzzz: 1\n');
    const e = errorOf(() => loadBotConfig(file));
    expect(e).toBeInstanceOf(ValidationErrors);
    const all = (e as ValidationErrors).errors.map((x) => [x.field, x.rule]);
    expect(all).toEqual(expect.arrayContaining([
      ['strategy.symbols', 'is required'],
      ['strategy.symbolz', 'is not allowed (unknown key; did you mean symbols?)'],
      ['strategy.errorPolicy', 'must be one of halt, continue'],
      ['logging.levle', 'is not allowed (unknown key; did you mean level?)'],
      ['paper.speed', 'must be > 0'],
      ['zzz', 'is not allowed (unknown key)'],
    ]));
    expect(all).toHaveLength(6);
    expect(e.message.split('\n')[0]).toBe(`${file}: 6 errors`);
    expect(e.message).toContain('\n  - logging.levle: is not allowed (unknown key; did you mean level?)');
  });

  it('names a value of the wrong type once, by its type, not again by the values it could take', () => {
    const file = writeConfig('bot: { id: a1 }\nstrategy: { name: s, symbols: [AB], candles: [M1] }\n');
    const e = errorOf(() => loadBotConfig(file));
    expect([e.field, e.rule]).toEqual(['strategy.candles', 'must be a string']);
    expect(e.message).not.toContain('must be one of');
  });

  it('refuses a key written in the YAML file', () => {
    const file = writeConfig('bot: { id: a1 }\nstrategy: { name: s, symbols: [AB] }\nexchange:\n  baseUrl: https://a\n  wsBaseUrl: wss://a\n  apiKey: abcdef123456\n');
    const e = errorOf(() => loadBotConfig(file));
    expect([e.field, e.rule]).toEqual(['exchange.apiKey', SECRET_IN_CONFIG_RULE]);
    expect(e.message).not.toContain('abcdef123456');
  });

  it('bot.leverage: decimals by symbol, on margin and futures accounts and the strategy\'s symbols only', () => {
    const base = { strategy: { name: 'market-maker', symbols: ['BTCUSDT_PERP'] } };
    const c = parseBotConfig({ ...base, bot: { id: 'f1', account: 'futures', leverage: { BTCUSDT_PERP: '2.5' } } }, '/srv/bots');
    expect(c.bot.leverage['BTCUSDT_PERP']?.toFixed()).toBe('2.5');
    expect(parseBotConfig({ ...base, bot: { id: 'f1' } }, '/srv/bots').bot.leverage).toEqual({});
    expect(() => parseBotConfig({ ...base, bot: { id: 'f1', leverage: { BTCUSDT_PERP: '2' } } }, '/srv/bots')).toThrow(/bot\.leverage\.BTCUSDT_PERP.*is for margin and futures accounts/);
    expect(() => parseBotConfig({ ...base, bot: { id: 'f1', account: 'futures', leverage: { ETHUSDT_PERP: '2' } } }, '/srv/bots')).toThrow(/must name one of strategy\.symbols/);
    expect(() => parseBotConfig({ ...base, bot: { id: 'f1', account: 'futures', leverage: { BTCUSDT_PERP: '0' } } }, '/srv/bots')).toThrow(/must be above 0/);
  });

  it('bot.account margin is accepted, with a leverage per pair', () => {
    const c = parseBotConfig({ strategy: { name: 'market-maker', symbols: ['BTCUSDT'] }, bot: { id: 'm1', account: 'margin', leverage: { BTCUSDT: '3' } } }, '/srv/bots');
    expect([c.bot.account, c.bot.leverage['BTCUSDT']?.toFixed()]).toEqual(['margin', '3']);
  });
});
