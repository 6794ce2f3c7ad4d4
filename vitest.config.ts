import { defineConfig } from 'vitest/config';
import { PATIENCE_MS } from './test/helpers/wait.ts';

// A test may wait up to PATIENCE_MS for one piece of background work or one child process, and some wait for
// several: twice that before a test or hook is called hung, so that only a broken feature fails by time.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 2 * PATIENCE_MS,
    hookTimeout: 2 * PATIENCE_MS,
    pool: 'forks',
    reporters: ['default'],
  },
});
