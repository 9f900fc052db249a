/** Why a long-lived command stops. */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'orphaned';

/** Options of {@link stopSignal}. */
export interface StopSignalOptions {
  /** How often the parent process is checked, ms (default 1000). */
  readonly parentCheckMs?: number;
  /** Told once, when the first stop request arrives (e.g. to print "stopping..."). */
  readonly onStop?: (reason: StopReason) => void;
}

/** A pending stop request of a long-lived command; `dispose` removes its handlers and timer. */
export interface StopSignal {
  readonly stopped: Promise<StopReason>;
  dispose(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Resolves when the process is asked to stop: SIGINT, SIGTERM or SIGHUP, or when its parent
 * process goes away. A second signal exits at once (exit code 130), for an operator whose clean
 * stop hangs.
 *
 * Why the parent is watched: `npx tradeloop paper` runs npm, which runs `sh -c tradeloop ...`,
 * which runs node. A supervisor's SIGTERM goes to npm, which forwards it to the shell only; the
 * shell dies and node is re-parented (to init or a subreaper) without ever seeing a signal, and
 * would go on trading. A changed parent pid is that event, so it counts as SIGTERM. A process
 * started with parent pid 1 (systemd, a container's init) is never orphaned this way.
 */
export function stopSignal(options: StopSignalOptions = {}): StopSignal {
  let resolveStop!: (reason: StopReason) => void;
  let requested = false;
  const stopped = new Promise<StopReason>((resolve) => (resolveStop = resolve));
  const request = (reason: StopReason): void => {
    if (requested) return;
    requested = true;
    options.onStop?.(reason);
    resolveStop(reason);
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (requested && signal !== 'SIGHUP') {
      process.stderr.write(`tradeloop: second ${signal}, exiting without a clean stop\n`);
      process.exit(130);
    }
    request(signal as StopReason);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) request('orphaned');
  }, options.parentCheckMs ?? 1000);
  timer.unref();
  return {
    stopped,
    dispose() {
      clearInterval(timer);
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}
