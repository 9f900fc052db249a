import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { book, liveBotYaml, readJournal, startExchange, until, type Exchange } from './support/bot-harness.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

let exchange: Exchange | undefined;
let dir: string | undefined;
const started: ChildProcess[] = [];

afterEach(async () => {
  // The bot's node process is not a child of this test when the test passes... and when it fails,
  // it may be orphaned: kill every process whose command line names this test's folder.
  if (dir !== undefined) for (const pid of processesNaming(dir)) killQuietly(pid);
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exchange?.close();
  exchange = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Pids of the processes whose command line contains `text` (Linux /proc). */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return pids;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

describe.runIf(process.platform === 'linux')('SIGTERM to the top process of `npx tradeloop live`', () => {
  it('reaches the bot through npm exec and its shell: no tradeloop process remains and no order stays open', async () => {
    const ex = (exchange = await startExchange());
    ex.market.push(book(1, '99.00', '101.00'));
    dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-npx-sigterm-'));
    const configFile = path.join(dir, 'bot.yaml');
    writeFileSync(configFile, liveBotYaml('nx1', ex));
    const openOfBot = async () => (await ex.rest.spot.getActiveOrders({ symbol: 'BTCUSDT' })).filter((o) => o.client_order_id.startsWith('nx1_'));

    // `npx` as a user or a supervisor runs it: npm exec -> sh -c -> node, from the project folder.
    const npx = spawn('npx', ['--no-install', 'tradeloop', 'live', '--config', configFile], {
      cwd: REPO,
      env: { ...process.env, TRADELOOP_API_KEY: ex.apiKey, TRADELOOP_SECRET_KEY: ex.secretKey },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.push(npx);
    let stderr = '';
    npx.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const npxExited = new Promise<void>((resolve) => npx.once('exit', () => resolve()));

    await until(async () => ((await openOfBot()).length === 2 ? true : undefined), 30_000, `the bot's first quotes (stderr: ${stderr})`);
    const bots = processesNaming(configFile).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bin/tradeloop'));
    expect(bots.length).toBeGreaterThan(0);

    npx.kill('SIGTERM');
    await npxExited;
    // The bot stops on its own (it noticed its parent go): its orders are canceled on the exchange, then it exits.
    await until(() => (processesNaming(configFile).length === 0 ? true : undefined), 20_000, 'every tradeloop process of the test gone');
    expect(await openOfBot()).toEqual([]);
    const log = readFileSync(path.join(dir, 'bot.jsonl'), 'utf8');
    expect(log).toMatch(/\[stopped\]/);
  }, 60_000);

  it('`npx tradeloop paper`: the bot cancels its quotes on the in-process sandbox and exits', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-npx-paper-'));
    const configFile = path.join(dir, 'bot.yaml');
    writeFileSync(configFile, [
      'bot: { id: np1 }',
      'strategy:',
      '  name: market-maker',
      '  symbols: [ETHUSDT]',
      '  params: { halfSpreadBps: "4", orderQuantity: "0.05", maxInventory: "0.2", requoteBps: "1", minRequoteIntervalMs: 500 }',
      'risk: { priceBand: "0.05" }',
      'execution: { onShutdown: cancel }',
      'journal: { dir: ./journal }',
      'logging: { level: info, console: "off", file: ./bot.jsonl }',
      'status: { intervalMs: 0 }',
      'paper: { balances: { USDT: "10000", ETH: "1" } }',
    ].join('\n'));
    const npx = spawn('npx', ['--no-install', 'tradeloop', 'paper', '--config', configFile], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    started.push(npx);
    const npxExited = new Promise<void>((resolve) => npx.once('exit', () => resolve()));
    const logFile = path.join(dir, 'bot.jsonl');
    const messages = (): string[] => {
      try {
        return readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { message: string }).message);
      } catch {
        return [];
      }
    };
    await until(() => (messages().filter((m) => m.startsWith('order ')).length >= 2 ? true : undefined), 30_000, 'the bot\'s first quotes');

    npx.kill('SIGTERM');
    await npxExited;
    await until(() => (processesNaming(configFile).length === 0 ? true : undefined), 20_000, 'every tradeloop process of the test gone');
    // The sandbox lived in the bot's process: its shutdown report is the record of what stayed open.
    const stopped = messages().filter((m) => m.startsWith('[stopped]'));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatch(/\| open orders 0 \|/);
    const [run] = readdirSync(path.join(dir, 'journal', 'paper'));
    const notes = readJournal(path.join(dir, 'journal', 'paper', run!, 'np1.journal.jsonl')).filter((r) => r['event'] === 'stopped');
    expect(notes).toEqual([expect.objectContaining({ open: [] })]);
  }, 60_000);
});
