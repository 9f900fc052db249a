import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../framework/model/errors.js';

/**
 * Checks, before a long run, that files can be written in `dir`, so a typo in `--out` fails in a
 * second, not after an hour of backtest. Throws ValidationError naming `flag`.
 *
 * It creates the missing folders one level at a time and writes (then removes) a probe file,
 * instead of asking `access()`: as root, `access(W_OK)` says yes to read-only mounts and pseudo
 * file systems, and a recursive mkdir on some of those (/proc) never returns.
 */
export function checkWritableDir(dir: string, flag: string): void {
  const target = path.resolve(dir);
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    const stat = statOrUndefined(existing);
    if (stat !== undefined) {
      if (!stat.isDirectory()) throw new ValidationError(flag, existing === target ? 'is a file, not a folder' : `cannot be created: ${existing} is a file`, dir);
      break;
    }
    missing.unshift(existing);
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      throw new ValidationError(flag, `cannot be created: ${reason(error)} (${folder})`, dir);
    }
  }
  const probe = path.join(target, `.tradeloop-write-check-${process.pid}`);
  try {
    writeFileSync(probe, '');
  } catch (error) {
    throw new ValidationError(flag, `is not writable: ${reason(error)}`, dir);
  }
  rmSync(probe, { force: true });
}

/** Checks that `file` can be written: not a folder, and its folder can be created and written. */
export function checkWritableFile(file: string, flag: string): void {
  const target = path.resolve(file);
  if (statOrUndefined(target)?.isDirectory()) throw new ValidationError(flag, 'is a folder, not a file', file);
  checkWritableDir(path.dirname(target), flag);
}

function statOrUndefined(file: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(file);
  } catch (error) {
    // ENOTDIR: the path goes through a file; the walk up finds that file and names it.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function reason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ?? message;
}
