import preact from '@preact/preset-vite'
import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

// Two tiers (docs/testing.md): `npm test` runs the unit tests of the product's code and its bundle
// budget; TEST_TIER=extended (`npm run test:extended`, which CI runs after `npm test`) runs the
// integration tests that start the sandbox's stacks on anvil or Postgres servers, and the package's checks.
const EXTENDED = [
  'test/unit/sandbox/**/*.test.ts',
  'test/unit/server/sandbox*.test.ts',
  'test/unit/server/store/multiInstance.test.ts',
  'test/unit/server/hostile/**/*.test.ts',
  'test/unit/server/store/pgliteLockIdentity.test.ts',
  'test/unit/server/reconcile/boundedWaits.test.ts',
  'test/unit/server/store/pgliteLock.test.ts',
  'test/unit/server/depositProbe.test.ts',
  'test/package/**/*.test.ts',
  'test/unit/config/buildReuse.test.ts',
  // The options checker against its zod oracle on 12 250 generated option sets and links (a fuzz run: the
  // checker's rules keep their own tests in test/unit/config/), and the reconciler restarted on a
  // store in a real data directory (two PGlite clusters on disk, as the PGlite lock's tests).
  'test/unit/config/configCheck.test.ts',
  'test/unit/server/reconcile/restart.test.ts',
  // The reconciler run on a simulated day over a store (the schedule, the catch-up after an hour
  // down, its share of the key's rate): its parts keep their tests in npm test (nextLook, keyRate,
  // lookQueue's oldest due first, the reconciler's rate and 429).
  'test/unit/server/reconcile/schedule.test.ts',
]
const KIT = ['test/unit/server/**/*.test.ts']
const ALL = ['src/**/*.test.{ts,tsx}', 'test/unit/**/*.test.{ts,tsx}', 'test/size/**/*.test.ts', 'test/package/**/*.test.ts']
const extended = process.env.TEST_TIER === 'extended'

export default defineConfig({
  plugins: [preact()],
  // Unit tests see the sandbox build (e2e covers the production build's refusals).
  define: { __SANDBOX_BUILD__: 'true' },
  test: {
    // (The first tier's files are named by its two projects below: a project's lists add to these.)
    ...(extended ? { include: EXTENDED } : {}),
    environment: 'node',
    // The kit's PGlite starts from a copy of a fresh cluster rather than running initdb each time.
    setupFiles: ['test/unit/helpers/pgliteSnapshot.ts'],
    // Worker threads start faster than forked processes: on this 2-core machine the suite took 75 s
    // with threads against about 90 s with forks (2026-11-24).
    pool: 'threads',
    // Vitest's default is one worker fewer than the cores: one on this machine, while the main
    // thread mostly waits. Two took the suite from 68 s to 48 s here (2026-11-24).
    maxWorkers: Math.max(2, availableParallelism()),
    // The kit's tests (test/unit/server/, node, no module mocks, each file its own store and
    // handler) share their worker's modules instead of importing the kit, zod and PGlite again per
    // file: run side by side with `--isolate` at a load of 15, the project took 122 s (imports 15 s)
    // against 171 s (62 s), its 398 tests passing both ways (2026-11-28). The widget's tests stay
    // isolated (module mocks, happy-dom, module-level state).
    ...(extended
      ? {}
      : {
          projects: [
            { extends: true, test: { name: 'kit', include: KIT, exclude: [...configDefaults.exclude, ...EXTENDED], isolate: false } },
            { extends: true, test: { name: 'widget', include: ALL, exclude: [...configDefaults.exclude, ...EXTENDED, ...KIT] } },
          ],
        }),
  },
})
