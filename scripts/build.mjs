// `npm run build` (run by `npm ci` through `prepare`): compiles the TypeScript sources to JavaScript
// in dist/, the same tree one level down, with source maps, so the `tradeloop` command and the
// package's entries start without a TypeScript loader. Sources stay the truth: tests and tsx runs
// read them directly (the `tradeloop-source` export condition).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist');
const SOURCE_FOLDERS = ['framework', 'cli', 'backtest', 'strategies'];

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

const started = performance.now();
rmSync(out, { recursive: true, force: true });
const sources = SOURCE_FOLDERS.flatMap((folder) => filesOf(folder, ['.ts']));
await build({
  entryPoints: sources, outdir: out, outbase: root, format: 'esm', platform: 'node', target: 'node20', sourcemap: true,
  bundle: false, tsconfig: path.join(root, 'tsconfig.json'), logLevel: 'warning',
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
console.log(`tradeloop: built ${sources.length} modules into dist/ in ${Math.round(performance.now() - started)} ms`);
