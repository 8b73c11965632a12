// One step of a test script (scripts/test.mjs, scripts/test-extended.mjs): runs it, prints its time,
// and stops the script with its status when it fails.
import { spawnSync } from 'node:child_process'

export function run(label, command, args, env = {}) {
  const t0 = Date.now()
  console.log(`\n▶ ${label}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  console.log(`  ${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  if (result.status !== 0) {
    console.error(`✖ ${label} failed`)
    process.exit(result.status ?? 1)
  }
}
