import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url));

/** A loopback port nobody listens on: bound by the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `tradeloop record` against `port`; `onStdout` sees its output as it comes. */
function record(port: number, out: string, extra: readonly string[], onStdout: (text: string) => void = () => {}) {
  const child = spawn(process.execPath, [BIN, 'record', '--ws-base-url', `ws://127.0.0.1:${port}`, '--symbols', 'BTCUSDT', '--out', out, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    onStdout(stdout);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exited };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-record-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tradeloop record against a loopback port with nothing listening', () => {
  it('gives up after --connect-timeout with one line naming the connection, exit 1', async () => {
    const out = path.join(dir, 'a', 'x.jsonl.gz');
    const { exited } = record(await closedPort(), out, ['--connect-timeout', '1']);
    const { code, stderr } = await exited;
    expect(code).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^tradeloop record: connection to ws:\/\/127\.0\.0\.1:\d+\/api\/3\/ws\/public not open after 1000 ms/);
  }, 30_000);

  it.each(['SIGTERM', 'SIGINT'] as const)('stops at the first %s while still connecting, exit 0', async (signal) => {
    let sent = false;
    const { child, exited } = record(await closedPort(), path.join(dir, `${signal}.jsonl.gz`), ['--connect-timeout', '600'], (stdout) => {
      if (!sent && stdout.includes('connecting to')) {
        sent = true;
        child.kill(signal);
      }
    });
    const result = await exited;
    expect(sent).toBe(true);
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toMatch(/0 frames, 0 reconnects/);
  }, 30_000);
});
