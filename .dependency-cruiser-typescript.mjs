// Preloaded (node --import) by `npm run lint:deps`. dependency-cruiser 16 declares TypeScript <6 and, when it
// finds TypeScript 6, silently parses .ts files as loose JavaScript: most imports, and every type-only one,
// vanish from the graph and the boundary rules pass on a fraction of the code. The TypeScript 6 compiler API
// it calls (createSourceFile, the import and export nodes) is the one it knows, so it is shown a version in
// its range. Remove this file when a dependency-cruiser that supports TypeScript 6 runs on our Node version.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** @type {{ version: string }} */
const manifest = require('typescript/package.json');
const actual = manifest.version;
if (Number(actual.split('.')[0]) >= 6) manifest.version = '5.9.0';

const { getAvailableTranspilers } = await import('dependency-cruiser');
const typescript = getAvailableTranspilers().find((transpiler) => transpiler.name === 'typescript');
if (!typescript?.available) {
  throw new Error(`dependency-cruiser cannot parse TypeScript ${actual}: the boundary check would skip most files`);
}
