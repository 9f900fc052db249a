// `npm run build` (run by `npm ci` through `prepare`): compiles the TypeScript sources into dist/, with
// source maps, so the `tradeloop` command and the package's entries start without a TypeScript loader.
// Sources stay the truth: tests and tsx runs read them directly (the `tradeloop-source` condition).
//
// Layout:
// - dist/tradeloop.cjs: all the code, one CommonJS bundle, loaded by dist/bundle-loader.mjs with V8's
//   code cache (see there why). Each entry (the command, the package's exports, the named strategies,
//   the sweep worker's task) is initialised on its first load, so a command runs only the top level of
//   what it uses.
// - dist/code-cache/: that cache, written by a sample backtest run once the bundle is built.
// - dist/<entry's source path>.js: an ES module per entry (dist/framework/index.js, the named
//   strategies, ...) that re-exports the entry from the bundle: what the exports map and the plugin
//   loader name. The command, a strategy and a user's `import ... from 'tradeloop'` thus share one
//   copy of every class (errors, Decimal) and of all state.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist');
const SOURCE_FOLDERS = ['framework', 'cli', 'backtest', 'strategies'];
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

// Packages left to node_modules (required from the bundle when first used): loaded off the
// backtest's path (live client, sweep pool) or by a path of their own at run time (piscina starts
// workers from its own files; ws and undici carry optional native or wasm parts);
// lightweight-charts is read as a file for the report, never imported.
const EXTERNAL_PACKAGES = ['piscina', 'undici', 'ws', 'lightweight-charts', 'tsx', 'esbuild'];

/**
 * What is loaded by path rather than imported: the command, the package's exports (their
 * `tradeloop-source` twins), the named strategies (the plugin loader looks them up by folder) and
 * the sweep worker's task (the worker entry imports it).
 */
function entryPoints() {
  const exported = Object.values(packageJson.exports)
    .map((target) => (typeof target === 'object' ? target['tradeloop-source'] : undefined))
    .filter((source) => typeof source === 'string' && source.endsWith('.ts'));
  const strategies = readdirSync(path.join(root, 'strategies'))
    .map((name) => path.join('strategies', name, `${name}.strategy.ts`))
    .filter((file) => existsSync(path.join(root, file)));
  return ['cli/main.ts', ...exported, ...strategies, 'backtest/sweep/sweep-worker-task.ts'].map((file) => path.join(root, file));
}

/** Every file of `folder` (relative to the root) whose name ends with one of `endings`. */
function filesOf(folder, endings) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (endings.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts')) found.push(full);
    }
  };
  walk(path.join(root, folder));
  return found;
}

/**
 * The bot config's validator as an ES module of its own: the source module's compile, run here
 * (bundled to a file beside node_modules so that it finds ajv), with ajv asked for the code.
 */
async function precompiledBotConfigValidator() {
  const source = path.join(root, 'framework', 'config', 'bot-config-validator.ts');
  const compiled = await build({ entryPoints: [source], bundle: true, packages: 'external', format: 'esm', platform: 'node', target: 'node20', write: false, logLevel: 'warning' });
  const temporary = path.join(out, '.bot-config-validator.mjs');
  mkdirSync(out, { recursive: true });
  writeFileSync(temporary, compiled.outputFiles[0].contents);
  try {
    const { compileBotConfigValidator } = await import(pathToFileURL(temporary).href);
    const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
    const { ajv, validate } = compileBotConfigValidator(path.join(root, 'config', 'bot-config.schema.json'), { source: true, esm: true });
    return [
      standaloneCode.default(ajv, validate),
      'export function botConfigValidator() { return validate; }',
      "export function compileBotConfigValidator() { throw new Error('tradeloop: the compiled code carries the bot config validator compiled ahead'); }",
      '',
    ].join('\n');
  } finally {
    rmSync(temporary);
  }
}

/**
 * Build-time twins of source modules:
 * - `tradeloop` (what the strategies import) is the framework's source entry, so the strategies
 *   use the bundle's framework instead of a second copy;
 * - rxjs as ES modules, so only the operators in use are bundled (its CommonJS build loads all);
 * - the bot config's schema validator compiled ahead (ajv's standalone code) instead of ajv
 *   compiling the schema at every start. The sources compile it at run time with the same options;
 * - commander with node:child_process loaded when it spawns (only for subcommands that are programs
 *   of their own, which tradeloop has none of) rather than at every start (2 ms).
 */
function buildTwins(validatorCode) {
  const validatorSource = path.join(root, 'framework', 'config', 'bot-config-validator.ts');
  const rxjs = path.dirname(createRequire(path.join(root, 'package.json')).resolve('rxjs/package.json'));
  return {
    name: 'tradeloop-build-twins',
    setup(builder) {
      builder.onResolve({ filter: /^tradeloop$/ }, () => ({ path: path.join(root, 'framework', 'index.ts') }));
      builder.onResolve({ filter: /^rxjs(\/operators)?$/ }, (args) => ({
        path: path.join(rxjs, 'dist', 'esm', args.path === 'rxjs' ? 'index.js' : 'operators/index.js'),
      }));
      builder.onLoad({ filter: /bot-config-validator\.ts$/ }, (args) =>
        args.path === validatorSource ? { contents: validatorCode, loader: 'js', resolveDir: path.dirname(validatorSource) } : undefined);
      builder.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const eager = "const childProcess = require('node:child_process');";
        if (!source.includes(eager)) return undefined;
        return { contents: source.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"), loader: 'js' };
      });
    },
  };
}

/** A file's path from the package root, with `/` on every system: how the bundle names its entries. */
function sourcePath(file) {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * The bundle's entry: `load(source)` gives an entry module's namespace by its source path. Each
 * entry is a dynamic import, so esbuild defers its initialisation (and that of everything only it
 * imports) to its first load.
 */
function bundleEntry(entries) {
  const lines = entries.map((file) => {
    const source = sourcePath(file);
    return `  ${JSON.stringify(source)}: () => import(${JSON.stringify(`./${source}`)}),`;
  });
  return [
    'const entries = {', ...lines, '};',
    'export function load(source) {',
    '  const entry = entries[source];',
    "  if (entry === undefined) return Promise.reject(new Error(`tradeloop: no compiled entry ${source}`));",
    '  return entry();',
    '}',
    '',
  ].join('\n');
}

/** ES module twin of an entry: its exports, taken from the loaded bundle. */
function entryModule(source, names, loaderPath) {
  const lines = [
    `// ${source}, compiled: the module lives in the bundle (../tradeloop.cjs).`,
    `import { tradeloopBundle } from ${JSON.stringify(loaderPath)};`,
    `const entry = await tradeloopBundle().load(${JSON.stringify(source)});`,
  ];
  const named = names.filter((name) => name !== 'default');
  if (named.length > 0) lines.push(`export const { ${named.join(', ')} } = entry;`);
  if (names.includes('default')) lines.push('export default entry.default;');
  return `${lines.join('\n')}\n`;
}

/** Path from a file under dist/ to another, as an import specifier. */
function specifierFrom(fromFile, toFile) {
  const relative = path.relative(path.dirname(fromFile), toFile).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * Runs the sample backtest with the compiled command, which writes the code cache as it ends (there
 * is none yet). A failure leaves the build as it is: the first command run writes the cache then.
 */
function writeCodeCache() {
  const scratch = mkdtempSync(path.join(tmpdir(), 'tradeloop-build-'));
  try {
    execFileSync(process.execPath, [path.join(root, 'bin', 'tradeloop.mjs'), 'backtest', '--quiet', '--out', path.join(scratch, 'report')], {
      cwd: scratch, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TRADELOOP_SOURCES: '0' },
    });
    return true;
  } catch (error) {
    const said = String(error?.stderr ?? '').trim() || (error instanceof Error ? error.message : String(error));
    console.warn(`tradeloop: the code cache is left to the first run; the sample backtest failed: ${said.split('\n')[0]}`);
    return false;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const started = performance.now();
rmSync(out, { recursive: true, force: true });
const entries = entryPoints();
const validatorCode = await precompiledBotConfigValidator();
const bundleFile = path.join(out, 'tradeloop.cjs');
const result = await build({
  stdin: { contents: bundleEntry(entries), resolveDir: root, sourcefile: 'tradeloop-entries.js', loader: 'js' },
  outfile: bundleFile, format: 'cjs', platform: 'node', target: 'node20', bundle: true, external: EXTERNAL_PACKAGES,
  // Text outside ASCII is written as escapes, so the loader reads the bundle as latin1 (2.5x faster
  // than utf8); what esbuild leaves of comments is made ASCII below.
  charset: 'ascii',
  // Class names are seen: an error's name is its class's (ValidationError), which bundling would rename.
  keepNames: true,
  // Modules find the package's files from their own location: in the bundle, that is the bundle's.
  define: { 'import.meta.url': '__tradeloopBundleUrl' },
  banner: { js: "const __tradeloopBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: true, sourcesContent: false, plugins: [buildTwins(validatorCode)], metafile: true,
  tsconfig: path.join(root, 'tsconfig.json'), logLevel: 'warning',
});
// Comments esbuild keeps (inside expressions) as they were written: a character outside ASCII
// there becomes `?`, so that the file is ASCII throughout (esbuild escapes it everywhere else).
const bundleText = readFileSync(bundleFile, 'utf8');
const asciiText = bundleText.replace(/[\u0080-\uffff]/g, '?');
if (asciiText !== bundleText) writeFileSync(bundleFile, asciiText);
const loaderFile = path.join(out, 'bundle-loader.mjs');
copyFileSync(path.join(root, 'scripts', 'bundle-loader.mjs'), loaderFile);
// The entries' ES module twins, with the names each one exports (read from the bundle itself).
const bundle = createRequire(import.meta.url)(bundleFile);
for (const file of entries) {
  const source = sourcePath(file);
  if (source === 'cli/main.ts' || source.endsWith('sweep-worker-task.ts')) continue;
  const names = Object.keys(await bundle.load(source));
  const target = path.join(out, source.replace(/\.ts$/, '.js'));
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, entryModule(source, names, specifierFrom(target, loaderFile)));
}
// Plain modules are copied, except the sweep worker, whose compiled twin loads the task from the bundle.
for (const file of SOURCE_FOLDERS.flatMap((folder) => filesOf(folder, ['.mjs']))) {
  const target = path.join(out, path.relative(root, file));
  mkdirSync(path.dirname(target), { recursive: true });
  if (path.basename(file) === 'sweep-worker.mjs') {
    writeFileSync(target, [
      '// Worker entry of the sweep pool (compiled): the task is in the bundle; a strategy written in TypeScript',
      '// brings the TypeScript loader in when it is loaded (see the plugin loader), as in the command.',
      `import { tradeloopBundle } from ${JSON.stringify(specifierFrom(target, loaderFile))};`,
      "globalThis[Symbol.for('tradeloop.typescriptLoader')] = () => import('../../../framework/register.mjs');",
      "export default (await tradeloopBundle().load('backtest/sweep/sweep-worker-task.ts')).default;",
      '',
    ].join('\n'));
  } else {
    copyFileSync(file, target);
  }
}
// What went into the bundle, for esbuild's analyzer (https://esbuild.github.io/analyze/) or a look at sizes.
if (process.env.TRADELOOP_BUILD_META) writeFileSync(process.env.TRADELOOP_BUILD_META, JSON.stringify(result.metafile));
const bundled = Math.round(performance.now() - started);
const cached = writeCodeCache();
console.log(`tradeloop: bundled ${entries.length} entries into dist/ in ${bundled} ms${cached ? `, code cache written in ${Math.round(performance.now() - started - bundled)} ms` : ''}`);
