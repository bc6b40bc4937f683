import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` runs pure logic next to the code it pins, and the offline checks of deploy/k8s;
 * `integration` runs test/ against real Kafka, ClickHouse and Redis, which its global setup finds or
 * starts (see test/global-setup.ts).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/**/*.test.ts',
            'services/**/*.test.ts',
            'deploy/**/*.test.ts',
            'web/src/**/*.test.ts',
          ],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // The suites share one broker and one ClickHouse server on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
