import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../backtest/report/progress.js';

/** A stream that records what is written and claims to be a terminal when asked to. */
function fakeStream(tty: boolean): { stream: NodeJS.WriteStream; output: () => string } {
  const chunks: string[] = [];
  const pass = new PassThrough();
  pass.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  Object.assign(pass, { isTTY: tty, columns: 120 });
  return { stream: pass as unknown as NodeJS.WriteStream, output: () => chunks.join('') };
}

async function flushed(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('createProgress', () => {
  it('draws nothing when disabled, off a TTY, or in CI', async () => {
    const cases = [
      { enabled: false, tty: true, env: {} },
      { enabled: true, tty: false, env: {} },
      { enabled: true, tty: true, env: { CI: 'true' } },
    ];
    for (const c of cases) {
      const { stream, output } = fakeStream(c.tty);
      const progress = createProgress({ enabled: c.enabled, stream, env: c.env, total: 100 });
      progress.update(50, { rate: 1000 });
      progress.stop();
      await flushed();
      expect([c, progress.active, output()]).toEqual([c, false, '']);
    }
  });

  it('shows done/total, percentage and events per second on a terminal', async () => {
    const { stream, output } = fakeStream(true);
    const progress = createProgress({ enabled: true, stream, env: { CI: 'false' }, total: 200 });
    expect(progress.active).toBe(true);
    progress.update(50, { rate: 1234.4 });
    progress.stop();
    progress.update(60);
    await flushed();
    expect(output()).toContain('25% | 50/200 events | 1234 ev/s');
    expect(output()).not.toContain('60/200');
  });

  it('counts bytes in MiB and works without a known total', async () => {
    const bytes = fakeStream(true);
    const a = createProgress({ enabled: true, stream: bytes.stream, env: {}, total: 4 * 1024 * 1024, unit: 'bytes' });
    a.update(1024 * 1024);
    a.stop();
    const open = fakeStream(true);
    const b = createProgress({ enabled: true, stream: open.stream, env: {} });
    b.update(42, { rate: 7 });
    b.stop();
    await flushed();
    expect(bytes.output()).toContain('1.0/4.0 MiB');
    expect(open.output()).toContain('replay 42 events | 7 ev/s');
  });
});
