// @vitest-environment node
// Every deposit address the kit hands out first deletes the ones older than 30 days: that DELETE
// must find them by an index on created_at, not by reading the whole table on every ask.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDepositAddresses } from '../../../../src/server/store/depositAddresses'
import { migrate } from '../../../../src/server/store/migrations'
import { openPglite } from '../../../../src/server/store/pglite'
import type { Db } from '../../../../src/server/store/sql'

let db: Db
beforeAll(async () => {
  db = await openPglite()
  await migrate(db)
}, 60_000)
afterAll(() => db?.close())

it('the expiry DELETE of recordDepositAddress is planned on an index over created_at (no full-table scan per ask)', async () => {
  const seen: string[] = []
  const watching: Db = { ...db, query: (text, params) => (seen.push(text), db.query(text, params)) }
  await createDepositAddresses(watching).recordDepositAddress({
    chainId: 1,
    address: `0x${'1'.repeat(40)}`,
    userId: 'alice',
    token: `0x${'2'.repeat(40)}`,
    units: '1',
    fromBlock: '1',
  })
  const expiry = seen.find((text) => /^\s*DELETE\b/i.test(text) && /created_at/.test(text))
  expect(expiry).toBeDefined()
  // A planner that may not scan the table unless it must: with no usable index it still plans a Seq Scan.
  const plan = await db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off')
    return (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${expiry}`)).rows.map((row) => row['QUERY PLAN']).join('\n')
  })
  expect(plan).not.toMatch(/Seq Scan/)
  expect(plan).toMatch(/Index (Only )?Scan (using|on) deposit_addresses_created/)
})

it('an address older than 30 days is read as nobody’s, whatever else was asked since; its holder asking again keeps it 30 days more', async () => {
  const addresses = createDepositAddresses(db)
  const one = { chainId: 2, userId: 'alice', token: `0x${'2'.repeat(40)}`, units: '1', fromBlock: '1' }
  const older = (days: number, address: string) =>
    db.query(`UPDATE stablecoin_widget.deposit_addresses SET created_at = created_at - make_interval(days => $1) WHERE address = $2`, [days, address])
  const stale = `0x${'3'.repeat(40)}`
  await addresses.recordDepositAddress({ ...one, address: stale })
  await older(31, stale)
  // No other ask has run the expiry DELETE since: the read itself does not take it.
  expect(await addresses.depositAddressesOf(2, [stale])).toEqual([])
  const kept = `0x${'4'.repeat(40)}`
  await addresses.recordDepositAddress({ ...one, address: kept })
  await older(29, kept)
  await addresses.recordDepositAddress({ ...one, address: kept })
  await older(2, kept)
  expect((await addresses.depositAddressesOf(2, [kept])).map((r) => r.userId)).toEqual(['alice'])
})
