import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../model/errors.js';

/**
 * Checks, before a long run, that `dir` can be created or written: it is a folder (or does not
 * exist yet) and its nearest existing ancestor is a writable folder. Throws ValidationError naming
 * `flag`, so a typo in `--out` fails in a second, not after an hour of backtest.
 */
export function checkWritableDir(dir: string, flag: string): void {
  const target = path.resolve(dir);
  let existing = target;
  for (;;) {
    const stat = statOrUndefined(existing);
    if (stat !== undefined) {
      if (!stat.isDirectory()) throw new ValidationError(flag, existing === target ? 'is a file, not a folder' : `cannot be created: ${existing} is a file`, dir);
      break;
    }
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  try {
    accessSync(existing, constants.W_OK);
  } catch {
    throw new ValidationError(flag, `is not writable (no write permission on ${existing})`, dir);
  }
}

/** Checks that `file` can be written: not a folder, and its folder can be created or written. */
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
