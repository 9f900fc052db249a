import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * Absolute form of a path written in a config file: `~` and `~/...` are the home folder (from
 * `HOME` in `env` when set, so tests and services can point it elsewhere); a relative path
 * resolves against the config file's folder, not the working directory, so a bot behaves the
 * same whichever folder it is started from.
 */
export function resolveConfigPath(path: string, sourceDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (path === '~' || path.startsWith('~/')) {
    const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
    return join(home, path.slice(1));
  }
  return isAbsolute(path) ? resolve(path) : resolve(sourceDir, path);
}
