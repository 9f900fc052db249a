// Folder boundaries, checked by `npm run lint` (so by `npm test` and CI). See ARCHITECTURE.md, "Boundaries".
// Type-only imports count: a type from the backtest in the framework couples them as much as a value does.

/** Top-level folders of things built on the framework; the framework (the library) imports none of them. */
const ABOVE_FRAMEWORK = '^(backtest|strategies|cli|bench|test|bin)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'framework-imports-only-framework',
      comment: 'framework/ is the library: it never imports the backtest, strategies, the CLI, benches or tests',
      severity: 'error',
      from: { path: '^framework/' },
      to: { path: ABOVE_FRAMEWORK },
    },
    {
      name: 'backtest-below-strategies-and-cli',
      comment: 'backtest/ runs any strategy it is given and is driven by the CLI; it imports neither',
      severity: 'error',
      from: { path: '^backtest/' },
      to: { path: '^(strategies|cli|bench|test|bin)/' },
    },
    {
      name: 'strategies-use-the-framework-only',
      comment: 'a strategy runs unchanged in a backtest, the sandbox and live: it imports no backtest, CLI, bench or test code',
      severity: 'error',
      from: { path: '^strategies/' },
      to: { path: '^(backtest|cli|bench|test|bin)/' },
    },
    {
      name: 'strategies-import-the-entry',
      comment: "the plugins here import the framework as a user's do, from 'tradeloop' (framework/index.ts)",
      severity: 'error',
      from: { path: '^strategies/' },
      to: { path: '^framework/', pathNot: '^framework/index\\.ts$' },
    },
    {
      name: 'cli-not-to-tests-or-benches',
      comment: 'the CLI ships; tests and benches do not',
      severity: 'error',
      from: { path: '^(cli|bin)/' },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'entries-are-for-users',
      comment:
        'the index.ts files the package exports map names are its entries: code inside framework/ and backtest/ ' +
        'imports the module it needs, so an entry never sits in a cycle',
      severity: 'error',
      from: { path: '^(framework|backtest)/' },
      to: { path: '^(framework|framework/exchange|framework/live|backtest|backtest/sandbox)/index\\.ts$' },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'folders depend on each other one way (a folder counts with its subfolders, so model/resources and model ' +
        'are one unit)',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-file-cycles',
      comment:
        'no import cycles between files that exist at run time (a cycle closed by a type-only import, such as the ' +
        'venue engine and the subsystems typed against it, has no load-order hazard); the one known cycle (an ' +
        'order list and its activation) is tolerated',
      severity: 'error',
      from: { pathNot: '^backtest/venue/(list-effects|order-activation)\\.ts$' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'resolvable',
      comment: 'an import the resolver cannot follow would hide its edges from every rule above',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // ESM as Node resolves it: package "exports" (so `tradeloop` resolves to its entry), .js imports of .ts files.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'node', 'default'],
      extensions: ['.ts', '.mjs', '.js', '.cjs', '.d.ts'],
      mainFields: ['types', 'module', 'main'],
    },
  },
};
