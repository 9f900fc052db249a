import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('../../bin/tradeloop', import.meta.url));

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

interface Probe {
  readonly pid: number;
  readonly execArgv: readonly string[];
  readonly script: string;
}

/** Runs `command help` (with `searchPath` as PATH) and a preload that writes node's pid, flags and script, and the pid spawned. */
async function probe(command: string, nodeOptions: string, searchPath = process.env.PATH): Promise<{ spawnedPid: number; seen: Probe; code: number | null }> {
  const folder = (dir ??= mkdtempSync(path.join(tmpdir(), 'tradeloop-launcher-test-')));
  const out = path.join(folder, 'probe.json');
  const preload = path.join(folder, 'probe.mjs');
  writeFileSync(preload, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(out)}, JSON.stringify({ pid: process.pid, execArgv: process.execArgv, script: process.argv[1] }));\n`);
  const child = spawn(command, ['help'], { stdio: 'ignore', env: { ...process.env, PATH: searchPath, NODE_OPTIONS: `${nodeOptions} --import ${JSON.stringify(preload)}`.trim() } });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  return { spawnedPid: child.pid!, seen: JSON.parse(readFileSync(out, 'utf8')) as Probe, code };
}

describe.runIf(process.platform !== 'win32')('bin/tradeloop, the command npm links', () => {
  it('becomes node itself (no process in between) running bin/tradeloop.mjs, with one V8 helper thread fewer than the cores, 1 to 4', async () => {
    const { spawnedPid, seen, code } = await probe(LAUNCHER, '');
    expect(code).toBe(0);
    expect(seen.pid).toBe(spawnedPid);
    expect(seen.script).toBe(fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url)));
    const expected = Math.min(4, Math.max(1, availableParallelism() - 1));
    expect(seen.execArgv.filter((flag) => flag.startsWith('--v8-pool-size'))).toEqual([`--v8-pool-size=${expected}`]);
  });

  it('finds its script when run through a link, as npm links it into node_modules/.bin', async () => {
    const folder = (dir ??= mkdtempSync(path.join(tmpdir(), 'tradeloop-launcher-test-')));
    const link = path.join(folder, 'tradeloop');
    symlinkSync(LAUNCHER, link);
    const { seen, code } = await probe(link, '');
    expect(code).toBe(0);
    expect(seen.script).toBe(fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url)));
  });

  it('finds its script through a relative link where readlink has no -f (older macOS)', async () => {
    const folder = (dir ??= mkdtempSync(path.join(tmpdir(), 'tradeloop-launcher-test-')));
    const bin = path.join(folder, 'bin');
    mkdirSync(bin);
    const realReadlink = spawnSync('sh', ['-c', 'command -v readlink'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(path.join(bin, 'readlink'), `#!/bin/sh\n[ "$1" = "-f" ] && exit 1\nexec ${realReadlink} "$@"\n`);
    chmodSync(path.join(bin, 'readlink'), 0o755);
    const link = path.join(folder, 'tradeloop');
    symlinkSync(path.relative(folder, LAUNCHER), link);
    const { seen, code } = await probe(link, '', `${bin}${path.delimiter}${process.env.PATH ?? ''}`);
    expect(code).toBe(0);
    expect(path.resolve(seen.script)).toBe(fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url)));
  });

  it('keeps a pool size given in NODE_OPTIONS', async () => {
    const { seen, code } = await probe(LAUNCHER, '--v8-pool-size=3');
    expect(code).toBe(0);
    expect(seen.execArgv.some((flag) => flag.startsWith('--v8-pool-size'))).toBe(false);
  });
});
