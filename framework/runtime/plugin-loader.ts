import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ValidationError } from '../model/errors.js';
import { codeFile } from '../package-root.js';
import { closestMatch, ValidationErrors } from '../model/validation-errors.js';
import type { StrategyPlugin } from './strategy.js';

/** Where plugins are looked up. */
export interface PluginLoaderOptions {
  /** Folder of the named plugins; the repository's `strategies/` by default. */
  readonly strategiesDir?: string;
  /** Relative paths and package names resolve from here; the working directory by default. */
  readonly baseDir?: string;
}

/** A plugin with its parameters validated and defaults filled. */
export interface LoadedStrategy<Params = unknown> {
  readonly plugin: StrategyPlugin<Params>;
  readonly params: Params;
  /** The file or package the plugin came from. */
  readonly source: string;
}

const PLUGIN_NAME = /^[a-z0-9][a-z0-9-]*$/;

const TYPESCRIPT_SOURCE = /\.[cm]?tsx?$/;

/** The package's `strategies/` (compiled under dist/ when this code is). */
function defaultStrategiesDir(): string {
  return codeFile('strategies');
}

/** A function the running program put on `globalThis` under `Symbol.for(name)`, if any. */
function hostFunction<F extends (...args: never[]) => unknown>(name: string): F | undefined {
  const value = (globalThis as Record<symbol, unknown>)[Symbol.for(name)];
  return typeof value === 'function' ? (value as F) : undefined;
}

/**
 * The loader of TypeScript modules, when the running program needs one loaded first: the compiled
 * `tradeloop` command sets it (a run from the sources, under tsx or vitest, reads TypeScript already).
 */
function typescriptLoader(): (() => Promise<unknown>) | undefined {
  return hostFunction('tradeloop.typescriptLoader');
}

/**
 * `import()` of a plugin module. The compiled code runs as a script of node:vm (so that V8's code
 * cache applies, see dist/bundle-loader.mjs), which has no `import()` of its own: its loader sets one.
 */
function importModule(specifier: string): Promise<unknown> {
  const hostImport = hostFunction<(specifier: string) => Promise<unknown>>('tradeloop.import');
  return hostImport === undefined ? import(specifier) : hostImport(specifier);
}

/**
 * Loads a StrategyPlugin by reference:
 * - a name (`market-maker`): `strategies/<name>/<name>.strategy.ts` (or `.js`);
 * - a path (`./my-bot.ts`, `/opt/bots/x.js`, `file:///...`), relative to `baseDir`;
 * - a package specifier (`@me/my-strategy`), resolved from `baseDir` (a user's own package).
 * The module's default export must be a plugin (name, description, parseParams, create).
 * Throws ValidationError with field `strategy` for an unknown name or a bad module.
 */
export async function loadStrategyPlugin(ref: string, options: PluginLoaderOptions = {}): Promise<{ plugin: StrategyPlugin; source: string }> {
  if (ref.trim().length === 0) throw new ValidationError('strategy', 'must name a plugin, a path or a package', ref);
  const source = resolvePlugin(ref, options);
  let module: unknown;
  try {
    if (TYPESCRIPT_SOURCE.test(source)) await typescriptLoader()?.();
    module = await importModule(source);
  } catch (error) {
    throw new ValidationError('strategy', `cannot be imported: ${error instanceof Error ? error.message : String(error)}`, ref);
  }
  return { plugin: pluginOf(module, ref), source };
}

/** {@link loadStrategyPlugin}, then validates `rawParams`; a bad parameter names `params.<field>`. */
export async function loadStrategy(ref: string, rawParams: unknown, options: PluginLoaderOptions = {}): Promise<LoadedStrategy> {
  const { plugin, source } = await loadStrategyPlugin(ref, options);
  return { plugin, params: validateParams(plugin, rawParams), source };
}

/** Runs the plugin's parameter schema, prefixing the failing field with `params.`. */
export function validateParams<Params>(plugin: StrategyPlugin<Params>, rawParams: unknown): Params {
  try {
    return plugin.parseParams(rawParams ?? {});
  } catch (error) {
    if (error instanceof ValidationErrors) throw new ValidationErrors(error.errors.map((e) => new ValidationError(`params.${e.field}`, e.rule, e.value)));
    if (error instanceof ValidationError) throw new ValidationError(`params.${error.field}`, error.rule, error.value);
    throw new ValidationError('params', `rejected by ${plugin.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function resolvePlugin(ref: string, options: PluginLoaderOptions): string {
  const baseDir = options.baseDir ?? process.cwd();
  if (ref.startsWith('file:')) return ref;
  if (ref.startsWith('.') || path.isAbsolute(ref)) {
    const file = path.resolve(baseDir, ref);
    if (!existsSync(file)) throw new ValidationError('strategy', 'no such plugin file', ref);
    return pathToFileURL(file).href;
  }
  if (PLUGIN_NAME.test(ref)) {
    const dir = path.join(options.strategiesDir ?? defaultStrategiesDir(), ref);
    for (const ext of ['.strategy.ts', '.strategy.js']) {
      const file = path.join(dir, `${ref}${ext}`);
      if (existsSync(file)) return pathToFileURL(file).href;
    }
  }
  try {
    return pathToFileURL(createRequire(path.join(baseDir, 'package.json')).resolve(ref)).href;
  } catch {
    if (PLUGIN_NAME.test(ref)) throw unknownStrategy(ref, options.strategiesDir ?? defaultStrategiesDir());
    // Packages exporting only an `import` condition are invisible to require.resolve.
    return ref;
  }
}

/** The named plugins of `strategiesDir`: folders holding `<name>/<name>.strategy.ts` (or `.js`). */
export function availableStrategies(strategiesDir: string = defaultStrategiesDir()): string[] {
  let entries: string[];
  try {
    entries = readdirSync(strategiesDir);
  } catch {
    return [];
  }
  return entries
    .filter((name) => PLUGIN_NAME.test(name) && ['.strategy.ts', '.strategy.js'].some((ext) => existsSync(path.join(strategiesDir, name, `${name}${ext}`))))
    .sort();
}

function unknownStrategy(ref: string, strategiesDir: string): ValidationError {
  const names = availableStrategies(strategiesDir);
  const guess = closestMatch(ref, names);
  const hint = guess === undefined ? '' : `did you mean ${guess}? `;
  const list = names.length === 0 ? 'no named strategies found' : `available: ${names.join(', ')}`;
  return new ValidationError('strategy', `unknown strategy (${hint}${list}; or a path to a .ts/.js file, or a package name)`, ref);
}

function pluginOf(module: unknown, ref: string): StrategyPlugin {
  const plugin = (module as { default?: unknown } | null)?.default;
  if (plugin === null || typeof plugin !== 'object') throw new ValidationError('strategy', 'module must have a default export that is a StrategyPlugin', ref);
  const p = plugin as Record<string, unknown>;
  for (const field of ['name', 'description'] as const) {
    if (typeof p[field] !== 'string' || (p[field] as string).length === 0) {
      throw new ValidationError('strategy', `default export must have a non-empty string \`${field}\``, ref);
    }
  }
  for (const field of ['parseParams', 'create'] as const) {
    if (typeof p[field] !== 'function') throw new ValidationError('strategy', `default export must have a function \`${field}\``, ref);
  }
  return plugin as StrategyPlugin;
}
