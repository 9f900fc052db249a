import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { liveNodeFlags } from '../support/live-node-flags.js';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url));

/** One life of `tradeloop live` as its own process. */
export interface BotProcess {
  readonly child: ChildProcess;
  /** Wall clock at spawn (ms). */
  readonly spawnedAt: number;
  /** Exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the process wrote to stderr (last 8 KiB). */
  stderr(): string;
}

/** Starts `tradeloop live --config <file>` with the keys in the environment and the command's node flags, as an operator would. */
export function spawnLiveBot(configFile: string, keys: { apiKey: string; secretKey: string }, cwd: string): BotProcess {
  const child = spawn(process.execPath, [...liveNodeFlags(), BIN, 'live', '--config', configFile], {
    cwd,
    env: { ...process.env, TRADELOOP_API_KEY: keys.apiKey, TRADELOOP_SECRET_KEY: keys.secretKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-8192);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, spawnedAt: Date.now(), exited, stderr: () => err };
}
