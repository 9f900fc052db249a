// Module resolution hooks (node:module register, after tsx's) for TypeScript files outside any package.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const folders = new Map();

/** True when no folder from `dir` up to the root holds a package.json. */
function outsideAnyPackage(dir) {
  const known = folders.get(dir);
  if (known !== undefined) return known;
  const parent = path.dirname(dir);
  const result = !existsSync(path.join(dir, 'package.json')) && (parent === dir || outsideAnyPackage(parent));
  folders.set(dir, result);
  return result;
}

/**
 * A .ts file with no package.json above it (a strategy copied to a folder of its own) is an ES
 * module, as its `import` syntax says: tsx would compile it to CommonJS, whose require() of the
 * framework's ES modules fails ("Cannot require() ES Module ... in a cycle").
 */
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const commonJs = result.format === 'commonjs' || result.format === 'commonjs-typescript';
  if (commonJs && /^file:.*\.tsx?$/.test(result.url) && outsideAnyPackage(path.dirname(fileURLToPath(result.url)))) {
    return { ...result, format: 'module' };
  }
  return result;
}
