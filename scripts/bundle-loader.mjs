// Copied by the build to dist/bundle-loader.mjs: loads dist/tradeloop.cjs, the one bundle of the
// compiled code, with V8's code cache.
//
// A command's start was mostly compiling: ~1.4 MiB of JavaScript parsed, then each function
// compiled to bytecode when first called. V8 can save the bytecode of every function compiled so
// far as a code cache, and take it back at the next start instead of compiling; but Node 20 has no
// such cache for ES modules. So the compiled code is one CommonJS script, compiled here through
// node:vm with the cache, and registered in the CommonJS module cache so that every way of loading
// it (the command, a user's `import ... from 'tradeloop'`, a strategy, a sweep worker) shares one
// instance of every class and every piece of state.
//
// The cache is written when there is none for this build and this V8 (the build writes it with a
// sample backtest; a newer Node writes its own at its first run), after the command has run, so it
// holds the functions a run calls rather than only the top level. V8 refuses a cache made by
// another V8 version or under other V8 flags (and then compiles as if there were none); its name
// carries the bundle's size and time, so a rebuilt bundle never meets an old cache (V8 itself
// checks only the source's length). The build starts dist/ afresh, caches included.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { cachedDataVersionTag } from 'node:v8';
import vm from 'node:vm';

const BUNDLE = fileURLToPath(new URL('./tradeloop.cjs', import.meta.url));
const CACHE_DIR = fileURLToPath(new URL('./code-cache/', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * @typedef {object} Bundle
 * @property {(source: string) => Promise<Record<string, unknown>>} load the namespace of an entry
 *   module, by its source path (`cli/main.ts`, `framework/index.ts`); each module is initialised on
 *   its first load, as an ES module is on its first import
 * @property {'used' | 'refused' | 'none' | 'shared'} codeCache how this start compiled the bundle: with
 *   the cache, refused by V8 (made by another V8 or under other flags), without one, or not at all
 *   (the bundle was already loaded by `require`)
 * @property {() => void} saveCodeCache writes the code cache if this start had none it could use
 *   (call it once a command has run; a failure to write is ignored: the cache only saves time)
 */

/** @type {Bundle | undefined} */
let bundle;

/** The compiled code, loaded once per process (thread). @returns {Bundle} */
export function tradeloopBundle() {
  if (bundle !== undefined) return bundle;
  const known = require.cache[BUNDLE];
  if (known?.loaded) return (bundle = { load: known.exports.load, codeCache: 'shared', saveCodeCache() {} });

  const tag = cachedDataVersionTag();
  const { size, mtimeMs } = statSync(BUNDLE);
  const cacheFile = path.join(CACHE_DIR, `${size}-${Math.trunc(mtimeMs)}-${tag}.bin`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The build writes the bundle in ASCII only, which latin1 reads as utf8 does, faster.
  const script = new vm.Script(Module.wrap(readFileSync(BUNDLE, 'latin1')), {
    filename: BUNDLE,
    cachedData,
  });
  // A script of node:vm has no `import()` (Node's way to give it one is experimental and lost with
  // the code cache): the plugin loader imports a user's strategy module through this one.
  globalThis[Symbol.for('tradeloop.import')] = (specifier) => import(specifier);
  const module = new Module(BUNDLE, undefined);
  module.filename = BUNDLE;
  script.runInThisContext().call(module.exports, module.exports, createRequire(BUNDLE), module, BUNDLE, path.dirname(BUNDLE));
  module.loaded = true;
  require.cache[BUNDLE] = module;

  const codeCache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'refused' : 'used';
  let saved = codeCache === 'used';
  return (bundle = {
    load: module.exports.load,
    codeCache,
    saveCodeCache() {
      // Under other V8 flags than at the start (a command may tune the heap for its run and not
      // undo it), V8 would refuse the cache at every later start.
      if (saved || cachedDataVersionTag() !== tag) return;
      saved = true;
      const partial = `${cacheFile}.${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        mkdirSync(CACHE_DIR, { recursive: true });
        // The file first: where it cannot be written, the cache is not made (that takes ~10 ms).
        const file = openSync(partial, 'w');
        try {
          writeFileSync(file, script.createCachedData());
        } finally {
          closeSync(file);
        }
        renameSync(partial, cacheFile);
      } catch {
        // A read-only install or a full disk: the next start compiles, as without a cache.
        rmSync(partial, { force: true });
      }
    },
  });
}
