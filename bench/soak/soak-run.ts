import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { faultPreset } from '../../backtest/sandbox/fault-presets.js';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { VenueRejection, type Venue } from '../../backtest/venue/venue-types.js';
import { spawnLiveBot, type BotProcess } from './bot-process.js';
import { JournalTail } from './journal-tail.js';
import { botErrors, firstLines, recordsOf } from './run-evidence.js';
import { checkSoak, type SoakCheck } from './soak-checks.js';
import { SoakMarket, SOAK_SYMBOL } from './soak-market.js';
import { SeededRandom } from './seeded-random.js';

/** Options of {@link runSoak}. */
export interface SoakOptions {
  readonly seed: string;
  /** Wall time of the run, from the first start to the final SIGTERM (ms). */
  readonly durationMs: number;
  /** How many SIGKILLs, drawn from the seed in this range. */
  readonly kills: { readonly min: number; readonly max: number };
  /** Progress lines. */
  readonly log?: (line: string) => void;
  /** Keep the run's folder (config, journal, bot log) when a check fails, as evidence. */
  readonly keepFailed?: boolean;
}

/** One process life of the bot. */
export interface SoakLife {
  readonly pid: number | undefined;
  readonly spawnedAt: number;
  /** Spawn to the journal's reconciliation of this life (ms). */
  readyMs?: number;
  /** Spawn to the first order this life placed (ms). */
  tradingMs?: number;
  /** How the harness ended it, or `self` when it exited on its own (then restarted like a supervisor would). */
  endedBy?: 'SIGKILL' | 'SIGTERM' | 'self';
  exit?: { code: number | null; signal: string | null };
  /** Spawn to exit (ms). */
  aliveMs?: number;
  stderr?: string;
}

/** What one seed's soak run did and found. */
export interface SoakResult {
  readonly seed: string;
  /** The bot kept its order path warm (`execution.keepOrderPathWarmMs`; odd seeds). */
  readonly keepWarm: boolean;
  readonly kills: number;
  readonly lives: readonly SoakLife[];
  readonly orders: number;
  readonly fills: number;
  readonly publicTrades: number;
  /** Start-up to trading over restarts that reached trading (ms). */
  readonly restartMs: { readonly min: number; readonly median: number; readonly max: number; readonly count: number } | undefined;
  /** Orders the restarts found on the exchange unknown to the journal (adopted or canceled) or journaled but gone. */
  readonly reconciliation: { readonly adopted: number; readonly canceled: number; readonly missing: number };
  readonly journalUnreadableLines: number;
  /** Error-level messages of the bot's log, with counts. */
  readonly botErrors: ReadonlyMap<string, number>;
  readonly checks: readonly SoakCheck[];
  readonly pass: boolean;
  /** The run's folder, when kept. */
  readonly dir?: string;
}

const INITIAL = { USDT: '1000', BTC: '1' } as const;
/** Pause before restarting a bot that exited on its own, as a supervisor's RestartSec. */
const SUPERVISOR_RESTART_MS = 1000;
/** Exits on their own in the final phase before the run gives up (a crash loop). */
const MAX_SELF_EXITS = 10;
const ACCOUNT = 'main';

/**
 * One soak run: the sandbox (synthetic pushed market, `soak` faults) in this process, the
 * market-maker bot as its own `tradeloop live` process, SIGKILLed at seeded moments (some during
 * start-up) and restarted after a seeded downtime, finally stopped with SIGTERM; then the
 * exchange's account is compared with the bot's journal (see {@link checkSoak}).
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const random = new SeededRandom(`soak-${options.seed}`);
  const dir = mkdtempSync(path.join(tmpdir(), `tradeloop-soak-${options.seed.replace(/[^A-Za-z0-9]/g, '')}-`));
  const market = new SoakMarket({ random });
  const refused: string[] = [];
  const server = await SandboxServer.start({
    venue: (context) => observeRefusals(simulatedVenueFactory(Date.now())(context), refused),
    market: market.source(), speed: Number.POSITIVE_INFINITY, seed: `soak-${options.seed}`,
    accounts: [{ id: ACCOUNT, spot: INITIAL }], faults: faultPreset('soak'),
  });
  const botId = `s${options.seed.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 12);
  const configFile = path.join(dir, 'bot.yaml');
  // Odd seeds keep the order path warm (a rehearsal at every start, dry runs while idle), even ones run the default.
  const keepWarm = Number.parseInt(options.seed.replace(/\D/g, '') || '0', 10) % 2 === 1;
  writeFileSync(configFile, botYaml(botId, server, keepWarm));
  const keys = server.apiKeys[0]!;
  const tail = new JournalTail(path.join(dir, 'journal', `${botId}.journal.jsonl`));
  const lives: SoakLife[] = [];
  const kills = random.integer('kill-count', options.kills.min, options.kills.max);
  const slot = options.durationMs / (kills + 1);
  const start = Date.now();
  let killed = 0;
  let selfExits = 0;
  let pass = false;
  try {
    for (;;) {
      const bot = spawnLiveBot(configFile, keys, dir);
      const life: SoakLife = { pid: bot.child.pid, spawnedAt: bot.spawnedAt };
      lives.push(life);
      if (killed < kills) {
        const early = random.next('kill-early') < 0.2;
        const wait = early ? random.between('kill-at', 300, 4000) : random.between('kill-at', 0.5 * slot, 1.5 * slot);
        const ended = await watch(bot, life, tail, () => Date.now() - bot.spawnedAt >= wait);
        if (!ended) {
          bot.child.kill('SIGKILL');
          life.endedBy = 'SIGKILL';
          life.exit = await bot.exited;
          killed++;
        }
        log(`seed ${options.seed}: life ${lives.length} ${describeLife(life)}`);
        await sleep(ended ? SUPERVISOR_RESTART_MS : random.between('downtime', 0, 2000));
        continue;
      }
      // The last life runs to the end of the run, and at least until it trades, then stops cleanly.
      const endAt = start + options.durationMs;
      const ended = await watch(bot, life, tail, () => Date.now() >= endAt && (life.tradingMs !== undefined || Date.now() - bot.spawnedAt > 60_000));
      if (ended) {
        // Restarted as a supervisor (systemd Restart=on-failure) would; the life stays on record as a failure.
        log(`seed ${options.seed}: life ${lives.length} ${describeLife(life)}`);
        if (++selfExits > MAX_SELF_EXITS) break;
        await sleep(SUPERVISOR_RESTART_MS);
        continue;
      }
      bot.child.kill('SIGTERM');
      life.endedBy = 'SIGTERM';
      life.exit = await within(bot.exited, 30_000);
      if (life.exit === undefined) {
        bot.child.kill('SIGKILL');
        await bot.exited;
      }
      tail.poll();
      log(`seed ${options.seed}: life ${lives.length} ${describeLife(life)}`);
      break;
    }
    // A life's last records can land after the last poll of its watch (killed right after them).
    for (const life of lives) {
      const own = recordsOf(life.pid, tail.records);
      const ready = own.find((r) => r['k'] === 'note' && r['event'] === 'reconciled');
      life.readyMs = ready === undefined ? undefined : Number(ready['t']) - life.spawnedAt;
      const first = ready === undefined ? undefined : own.slice(own.indexOf(ready)).find((r) => r['k'] === 'order');
      life.tradingMs = first === undefined ? undefined : Number(first['t']) - life.spawnedAt;
    }
    const venue = server.venue;
    const checks = [
      ...checkSoak({
        openOrders: venue.openOrders(ACCOUNT), orderHistory: venue.orderHistory(ACCOUNT), trades: venue.tradeHistory(ACCOUNT),
        initialBalances: INITIAL, finalBalances: venue.spotBalances(ACCOUNT), journal: tail.records,
        finalExit: lives.at(-1)?.endedBy === 'SIGTERM' ? lives.at(-1)?.exit : undefined, duplicateIdRejections: refused,
      }),
      selfExitCheck(lives),
    ];
    const errors = botErrors(path.join(dir, 'bot.jsonl'));
    checks.push({
      name: 'no error in the bot\'s log', pass: errors.size === 0,
      detail: [...errors].map(([message, count]) => `${count}x ${message}`).join('; '),
    });
    pass = checks.every((c) => c.pass);
    return {
      seed: options.seed, keepWarm, kills: killed, lives, orders: venue.orderHistory(ACCOUNT).length, fills: venue.tradeHistory(ACCOUNT).length,
      publicTrades: market.trades, restartMs: restartFigures(lives), reconciliation: reconciliation(tail),
      journalUnreadableLines: tail.unreadable.length, botErrors: errors, checks, pass,
      dir: !pass && options.keepFailed === true ? dir : undefined,
    };
  } finally {
    market.stop();
    await server.close();
    if (pass || options.keepFailed !== true) rmSync(dir, { recursive: true, force: true });
  }
}

/** Follows the journal of a life until `done()` holds or the process exits (then true: it ended on its own). */
async function watch(bot: BotProcess, life: SoakLife, tail: JournalTail, done: () => boolean): Promise<boolean> {
  let exited: SoakLife['exit'];
  void bot.exited.then((exit) => {
    exited = exit;
    life.aliveMs = Date.now() - life.spawnedAt;
  });
  let mine = false;
  for (;;) {
    for (const r of tail.poll()) {
      if (r['k'] === 'start') mine = r['pid'] === life.pid;
      if (!mine || typeof r['t'] !== 'number') continue;
      if (life.readyMs === undefined && r['k'] === 'note' && r['event'] === 'reconciled') life.readyMs = r['t'] - life.spawnedAt;
      if (life.readyMs !== undefined && life.tradingMs === undefined && r['k'] === 'order') life.tradingMs = r['t'] - life.spawnedAt;
    }
    if (exited !== undefined) {
      life.endedBy = 'self';
      life.exit = exited;
      life.stderr = bot.stderr();
      // The whole stderr is evidence; the summary shows its first lines.
      writeFileSync(path.join(path.dirname(tail.file), '..', `pid-${life.pid}.stderr.txt`), life.stderr);
      return true;
    }
    if (done()) return false;
    await sleep(100);
  }
}

/** The venue, noting every placement or replace it refuses as a client_order_id used before. */
function observeRefusals(venue: Venue, refused: string[]): Venue {
  const watched = new Set(['placeOrder', 'replaceOrder']);
  return new Proxy(venue, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (!watched.has(String(property))) return value.bind(target) as unknown;
      return (account: string, request: { client_order_id?: string; new_client_order_id?: string }) => {
        try {
          return (value as (a: string, r: unknown) => unknown).call(target, account, request);
        } catch (error) {
          if (error instanceof VenueRejection && error.code === ErrorCode.DuplicateClientOrderId) {
            refused.push(request.new_client_order_id ?? request.client_order_id ?? '(none)');
          }
          throw error;
        }
      };
    },
  });
}

function selfExitCheck(lives: readonly SoakLife[]): SoakCheck {
  const selfEnded = lives.filter((l) => l.endedBy === 'self');
  return {
    name: 'no life ended on its own',
    pass: selfEnded.length === 0,
    detail: selfEnded.map((l) => `pid ${l.pid} exit ${l.exit?.code} after ${l.aliveMs} ms: ${firstLines(l.stderr)}`).join('; '),
  };
}

function restartFigures(lives: readonly SoakLife[]): SoakResult['restartMs'] {
  const times = lives.slice(1).map((l) => l.tradingMs).filter((t) => t !== undefined).sort((a, b) => a - b);
  if (times.length === 0) return undefined;
  return { min: times[0]!, median: times[Math.floor((times.length - 1) / 2)]!, max: times.at(-1)!, count: times.length };
}

function reconciliation(tail: JournalTail): SoakResult['reconciliation'] {
  const notes = tail.records.filter((r) => r['k'] === 'note' && r['event'] === 'reconciled');
  const count = (field: string) => notes.reduce((n, r) => n + (Array.isArray(r[field]) ? (r[field] as unknown[]).length : 0), 0);
  return { adopted: count('adopted'), canceled: count('canceled'), missing: count('missing') };
}

function describeLife(life: SoakLife): string {
  const ready = life.readyMs === undefined ? 'never ready' : `ready ${life.readyMs} ms`;
  const trading = life.tradingMs === undefined ? 'no order' : `trading ${life.tradingMs} ms`;
  return `${ready}, ${trading}, ended by ${life.endedBy ?? '?'} (exit ${life.exit?.code ?? '-'} ${life.exit?.signal ?? ''}) after ${life.aliveMs ?? Date.now() - life.spawnedAt} ms${life.endedBy === 'self' ? `: ${firstLines(life.stderr)}` : ''}`;
}

/**
 * The bot's config: the market maker on the soak symbol, journal and log beside the file, orders
 * canceled at a clean stop; with `keepWarm`, the order path kept warm (5 ms).
 */
function botYaml(id: string, server: SandboxServer, keepWarm: boolean): string {
  return [
    `bot: { id: ${id} }`,
    `exchange: { baseUrl: "${server.baseUrl}", wsBaseUrl: "${server.wsBaseUrl}" }`,
    'strategy:',
    '  name: market-maker',
    `  symbols: [${SOAK_SYMBOL}]`,
    // minRequoteIntervalMs keeps the strategy's default (250 ms), which is also its back-off after a refusal.
    '  params: { halfSpreadBps: "10", orderQuantity: "0.01", maxInventory: "0.05", requoteBps: "5" }',
    'risk: { priceBand: "0.2" }',
    `execution: { unknownOrders: cancel, onShutdown: cancel${keepWarm ? ', keepOrderPathWarmMs: 5' : ''} }`,
    'journal: { dir: ./journal }',
    'logging: { level: info, console: "off", file: ./bot.jsonl }',
    'status: { intervalMs: 0 }',
  ].join('\n');
}

/** `promise`'s value, or undefined after `ms` (the timer does not outlive the answer). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
