import { defineConfig } from 'vitest/config';

// Tests read the TypeScript sources, the package's own name included ('tradeloop' from the
// strategies): the `tradeloop-source` export condition picks them over the compiled dist/.
const conditions = ['tradeloop-source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['tradeloop-source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // The tests that run the tradeloop command in a child process run the compiled code of today.
    globalSetup: ['test/support/build-dist.ts'],
    // Every test file's temporary folders live under one folder removed after the file.
    setupFiles: ['test/support/temp-dir-per-file.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
