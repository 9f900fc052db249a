import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printTable } from './support/report.js';

/**
 * Entry of `npm run bench [filter]`: runs every `bench/*.bench.ts` module whose name contains the
 * filter, one after the other (never concurrently: they would skew each other's figures), each
 * printing its own figures, then a summary table. Modules export `run(): Promise<void>`.
 */
interface BenchModule {
  run(): Promise<void>;
}

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const names = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .filter((name) => name.includes(filter))
  .sort();

if (names.length === 0) {
  console.error(`no benchmark matches "${filter}"`);
  process.exitCode = 1;
} else {
  const summary: { bench: string; status: string; seconds: number }[] = [];
  for (const name of names) {
    console.log(`\n=== ${name} ===`);
    const started = performance.now();
    let status = 'ok';
    try {
      const module = (await import(pathToFileURL(path.join(benchDir, `${name}.bench.ts`)).href)) as BenchModule;
      await module.run();
    } catch (error) {
      status = 'failed';
      process.exitCode = 1;
      console.error(error);
    }
    summary.push({ bench: name, status, seconds: (performance.now() - started) / 1000 });
  }
  printTable('benchmarks', summary);
}
