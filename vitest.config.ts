import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Gantry processes the tests start do not write V8 code caches (docs/startup.md) into the
    // scratch HOMEs the tests remove, possibly while a killed process is still exiting; the caches
    // are tested where they are the subject (src/cli/code-cache.test.ts, lazy-load.e2e.test.ts).
    env: { GANTRY_CODE_CACHE: '0' },
    // The JSON report lets .ci/run print the plain `N passed, N failed` line CI reads (stack.md §0.7).
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest.json' },
  },
});
