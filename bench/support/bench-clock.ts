/**
 * The clock a tinybench benchmark times with. Wall time by default; with `BENCH_CLOCK=cpu`, this
 * process's CPU time (user + system, all its threads): on a machine shared with other work, the
 * time the process spends waiting for a core is then left out, so figures of two builds taken at
 * different moments can be compared (cache and core sharing still show).
 */
export function benchClock(): { readonly now?: () => number; readonly name: string } {
  if (process.env.BENCH_CLOCK !== 'cpu') return { name: 'wall time' };
  return {
    name: 'process CPU time (BENCH_CLOCK=cpu)',
    now: () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    },
  };
}
