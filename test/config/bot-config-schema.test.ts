import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { BOT_CONFIG_SCHEMA_FILE } from '../../framework/config/bot-config.js';
import { mergeConfig } from '../../framework/config/merge-config.js';
import { pointerToPath } from '../../framework/config/schema-errors.js';

interface SchemaNode {
  readonly description?: string;
  readonly type?: string | string[];
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: boolean | SchemaNode;
  readonly items?: SchemaNode;
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
}

const schema = JSON.parse(readFileSync(BOT_CONFIG_SCHEMA_FILE, 'utf8')) as SchemaNode & { $schema: string };

/** Every object schema of the tree with its dotted path. */
function objects(node: SchemaNode, path: string, out: [string, SchemaNode][] = []): [string, SchemaNode][] {
  if (node.type === 'object') out.push([path, node]);
  for (const [key, child] of Object.entries(node.properties ?? {})) objects(child, path === '' ? key : `${path}.${key}`, out);
  if (node.items !== undefined) objects(node.items, `${path}[]`, out);
  return out;
}

describe('config/bot-config.schema.json', () => {
  it('is a draft-07 schema, valid against its meta-schema (start-up does not check that)', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const ajv = new Ajv({ strict: true, strictTypes: false });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('describes every property, for editors', () => {
    const missing: string[] = [];
    const roots: [string, SchemaNode][] = [['', schema], ...Object.entries(schema.definitions ?? {}).map(([k, v]): [string, SchemaNode] => [`#${k}`, v])];
    for (const [root, node] of roots) {
      for (const [path, object] of objects(node, root)) {
        for (const [key, child] of Object.entries(object.properties ?? {})) {
          // A $ref points at a described definition.
          if (child.description === undefined && child.$ref === undefined) missing.push(`${path}.${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('refuses unknown keys everywhere except the free-form sections', () => {
    const open = objects(schema, '').filter(([, o]) => o.additionalProperties !== false).map(([p]) => p);
    expect(open.sort()).toEqual(['risk', 'strategy.params']);
  });
});

describe('mergeConfig', () => {
  it('merges mappings key by key and replaces lists, scalars and free-form sections whole', () => {
    const base = { logging: { level: 'info', console: 'pretty' }, strategy: { symbols: ['A'], params: { a: 1, b: 2 } }, paper: { balances: { USDT: '1' }, seed: 1 }, risk: { x: 1 } };
    const override = { logging: { level: 'debug' }, strategy: { symbols: ['B', 'C'], params: { b: 3 } }, paper: { balances: { BTC: '2' } }, risk: { y: 2 } };
    const before = JSON.stringify([base, override]);
    expect(mergeConfig(base, override)).toEqual({
      logging: { level: 'debug', console: 'pretty' },
      strategy: { symbols: ['B', 'C'], params: { b: 3 } },
      paper: { balances: { BTC: '2' }, seed: 1 },
      risk: { y: 2 },
    });
    expect(JSON.stringify([base, override])).toBe(before);
    expect(mergeConfig({ paper: { recording: 'r' } }, { paper: { recording: null } })).toEqual({ paper: { recording: null } });
  });
});

describe('pointerToPath', () => {
  it('names fields as dotted paths with list indexes', () => {
    expect(pointerToPath('/strategy/symbols/0')).toBe('strategy.symbols[0]');
    expect(pointerToPath('/paper/balances/USDT')).toBe('paper.balances.USDT');
    expect(pointerToPath('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(pointerToPath('')).toBe('');
  });
});
