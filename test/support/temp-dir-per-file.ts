import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Setup file of every test file (vitest.config.ts): the file's temporary folders go under one
 * folder of its own, removed when the file's tests are done, whether they pass, fail or forget to
 * clean up. os.tmpdir() reads TMPDIR (TEMP and TMP on Windows) at each call, so mkdtemp(tmpdir())
 * in tests, helpers and spawned tradeloop processes all land there.
 */
const root = mkdtempSync(path.join(tmpdir(), 'tradeloop-test-'));
const saved = { TMPDIR: process.env['TMPDIR'], TEMP: process.env['TEMP'], TMP: process.env['TMP'] };
for (const name of Object.keys(saved)) process.env[name] = root;

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
});
