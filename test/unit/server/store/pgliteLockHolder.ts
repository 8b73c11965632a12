// A process for pgliteLockIdentity.test.ts (bundled there and run, in its own PID or mount namespace):
// MODE=hold opens DATA_DIR, records a payment and says "ready", then holds the store until killed;
// MODE=alias bind-mounts DATA_DIR at ALIAS (in its private mount namespace), opens DATA_DIR, then
// ALIAS, and says whether the second open was refused. Every outcome is one line on stdout.
import { execFileSync } from 'node:child_process'
import { openPaymentStore } from '../../../../src/server/index'

const say = (line: string) => process.stdout.write(`${line}\n`)
const dataDir = process.env.DATA_DIR!

if (process.env.MODE === 'alias') {
  execFileSync('mount', ['--bind', dataDir, process.env.ALIAS!])
  const first = await openPaymentStore({ dataDir })
  try {
    const second = await openPaymentStore({ dataDir: process.env.ALIAS! })
    say('opened-twice')
    await second.close()
  } catch (error) {
    say(`refused ${(error as Error).message}`)
  }
  await first.close()
  process.exit(0)
} else {
  try {
    const store = await openPaymentStore({ dataDir })
    await store.recordPayment({ kind: 'card', id: `cp_${process.pid}_${Date.now()}`, userId: 'holder' })
    say(`ready ${process.pid}`)
    setInterval(() => {}, 60_000)
  } catch (error) {
    say(`refused ${(error as Error).message}`)
    process.exit(0)
  }
}
