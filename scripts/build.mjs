// `npm run build` (run by `npm ci` through `prepare`): bundles the TypeScript sources into dist/, with
// source maps, so the `tradeloop` command and the package's entries start without a TypeScript loader
// and load a few large files instead of hundreds of small ones (each module file costs the loader a
// resolve, a read and a compile: start-up was mostly that). Sources stay the truth: tests and tsx runs
// read them directly (the `tradeloop-source` export condition).
//
// Layout: every entry keeps its source path (dist/cli/main.js, dist/framework/index.js, the named
// strategies, ...); code two entries share lives once in dist/chunks/, so the command, a strategy and
// a user's `import ... from 'tradeloop'` share one copy of every class (errors, Decimal) and state.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist');
const SOURCE_FOLDERS = ['framework', 'cli', 'backtest', 'strategies'];
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

// Packages left to node_modules: loaded off the backtest's path (live client, sweep pool) or by a
// path of their own at run time (piscina starts workers from its own files; ws and undici carry
// optional native or wasm parts); lightweight-charts is read as a file for the report, never imported.
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
 * - `tradeloop` (what the strategies import) is the framework's source entry, so it lands in the
 *   shared chunks instead of a second copy;
 * - rxjs as ES modules, so only the operators in use are bundled (its CommonJS build loads all);
 * - the bot config's schema validator compiled ahead (ajv's standalone code) instead of ajv
 *   compiling the schema at every start. The sources compile it at run time with the same options.
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
    },
  };
}

const started = performance.now();
rmSync(out, { recursive: true, force: true });
const entries = entryPoints();
const validatorCode = await precompiledBotConfigValidator();
const result = await build({
  entryPoints: entries, outdir: out, outbase: root, entryNames: '[dir]/[name]', chunkNames: 'chunks/[name]-[hash]',
  format: 'esm', platform: 'node', target: 'node20', bundle: true, splitting: true, external: EXTERNAL_PACKAGES,
  // Class names are seen: an error's name is its class's (ValidationError), which bundling would rename.
  keepNames: true,
  // Bundled CommonJS packages call require() for Node's own modules: an ES module has none (so no
  // module of ours may declare a top-level `require`; createRequire under another name is fine).
  banner: { js: "import { createRequire as __tradeloopRequire } from 'node:module'; const require = __tradeloopRequire(import.meta.url);" },
  sourcemap: true, sourcesContent: false, plugins: [buildTwins(validatorCode)], metafile: true,
  tsconfig: path.join(root, 'tsconfig.json'), logLevel: 'warning',
});
// Plain modules are copied, except the sweep worker, whose compiled twin loads the compiled task.
for (const file of SOURCE_FOLDERS.flatMap((folder) => filesOf(folder, ['.mjs']))) {
  const target = path.join(out, path.relative(root, file));
  mkdirSync(path.dirname(target), { recursive: true });
  if (path.basename(file) === 'sweep-worker.mjs') {
    writeFileSync(target, [
      '// Worker entry of the sweep pool (compiled): the task is JavaScript; a strategy written in TypeScript',
      '// brings the TypeScript loader in when it is loaded (see the plugin loader), as in the command.',
      "globalThis[Symbol.for('tradeloop.typescriptLoader')] = () => import('../../../framework/register.mjs');",
      "export { default } from './sweep-worker-task.js';",
      '',
    ].join('\n'));
  } else {
    copyFileSync(file, target);
  }
}
// What went into which file, for esbuild's analyzer (https://esbuild.github.io/analyze/) or a look at sizes.
if (process.env.TRADELOOP_BUILD_META) writeFileSync(process.env.TRADELOOP_BUILD_META, JSON.stringify(result.metafile));
const files = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js')).length;
console.log(`tradeloop: bundled ${entries.length} entries into ${files} files in dist/ in ${Math.round(performance.now() - started)} ms`);
