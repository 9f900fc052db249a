import { parseArgs } from 'node:util';
import { runSoak, type SoakResult } from './soak-run.js';

/**
 * Entry of `npm run soak`: one soak run per seed, one after the other (the bot and the sandbox
 * share the machine's cores), each `--minutes` long with 8-12 SIGKILLs, then a per-seed summary.
 * Flags win over the environment (SOAK_MINUTES, SOAK_SEEDS, SOAK_KILLS as `min-max`).
 * Exits 1 when a check of any seed failed; a failed seed's folder (config, journal, bot log) is
 * kept and named.
 */
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: process.env['SOAK_MINUTES'] ?? '10' },
    seeds: { type: 'string', default: process.env['SOAK_SEEDS'] ?? '1,2,3,4,5' },
    kills: { type: 'string', default: process.env['SOAK_KILLS'] ?? '8-12' },
  },
});
const minutes = Number(values.minutes);
if (!(minutes > 0) || !Number.isFinite(minutes)) throw new Error(`--minutes: must be a positive number (got ${values.minutes})`);
const seeds = values.seeds.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
if (seeds.length === 0) throw new Error('--seeds: must list at least one seed, e.g. 1,2,3');
const range = /^(\d+)-(\d+)$/.exec(values.kills);
if (range === null || Number(range[1]) > Number(range[2])) throw new Error(`--kills: must be min-max, e.g. 8-12 (got ${values.kills})`);
const kills = { min: Number(range[1]), max: Number(range[2]) };

console.log(`soak: ${seeds.length} seed(s) x ${minutes} min, ${kills.min}-${kills.max} SIGKILLs each, faults: soak`);
const results: SoakResult[] = [];
for (const seed of seeds) {
  const started = Date.now();
  const result = await runSoak({ seed, durationMs: minutes * 60_000, kills, keepFailed: true, log: (line) => console.log(line) });
  results.push(result);
  printResult(result, Date.now() - started);
}
console.log('\nseed  kills  orders  fills  restart ms (min/median/max)  result');
for (const r of results) {
  const restart = r.restartMs === undefined ? '-' : `${r.restartMs.min}/${r.restartMs.median}/${r.restartMs.max}`;
  console.log(`${r.seed.padEnd(5)} ${String(r.kills).padStart(5)} ${String(r.orders).padStart(7)} ${String(r.fills).padStart(6)}  ${restart.padEnd(27)} ${r.pass ? 'pass' : `FAIL (${r.checks.filter((c) => !c.pass).map((c) => c.name).join('; ')})`}`);
}
process.exitCode = results.every((r) => r.pass) ? 0 : 1;

function printResult(r: SoakResult, ms: number): void {
  console.log(`\n== seed ${r.seed}${r.keepWarm ? ' (order path kept warm)' : ''}: ${r.pass ? 'PASS' : 'FAIL'} (${(ms / 1000).toFixed(0)} s)`);
  console.log(`kills ${r.kills}, lives ${r.lives.length}, orders ${r.orders}, fills ${r.fills}, public trades ${r.publicTrades}`);
  const restart = r.restartMs;
  console.log(restart === undefined
    ? 'restart to trading: none measured'
    : `restart to trading (ms, ${restart.count} restarts): min ${restart.min} median ${restart.median} max ${restart.max}`);
  const ready = r.lives.slice(1).map((l) => l.readyMs).filter((t) => t !== undefined).sort((a, b) => a - b);
  if (ready.length > 0) console.log(`restart to reconciled (ms): min ${ready[0]} median ${ready[Math.floor((ready.length - 1) / 2)]} max ${ready.at(-1)}`);
  console.log(`killed before trading: ${r.lives.filter((l) => l.endedBy === 'SIGKILL' && l.tradingMs === undefined).length}; reconciliations found: adopted ${r.reconciliation.adopted}, canceled ${r.reconciliation.canceled}, missing ${r.reconciliation.missing}; unreadable journal lines ${r.journalUnreadableLines}`);
  for (const [message, count] of r.botErrors) console.log(`bot error x${count}: ${message}`);
  for (const c of r.checks) console.log(`  ${c.pass ? 'pass' : 'FAIL'}  ${c.name}${c.detail === '' ? '' : `: ${c.detail}`}`);
  if (r.dir !== undefined) console.log(`evidence kept in ${r.dir}`);
}
