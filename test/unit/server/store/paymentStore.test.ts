// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPaymentStore, type PaymentStore } from '../../../../src/server/index'
import { migrate } from '../../../../src/server/store/migrations'

// One PGlite for the file: starting one takes seconds.
let store: PaymentStore
beforeAll(async () => {
  store = await openPaymentStore()
}, 60_000)
afterAll(() => store?.close())

describe('payment ownership', () => {
  it('records a payment against its user and never hands it to another', async () => {
    expect(await store.recordPayment({ kind: 'payout', id: 'po_1', userId: 'alice', status: 'pending' })).toBe(true)
    expect(await store.recordPayment({ kind: 'payout', id: 'po_1', userId: 'alice' })).toBe(true)
    expect(await store.recordPayment({ kind: 'payout', id: 'po_1', userId: 'mallory' })).toBe(false)
    expect(await store.ownerOf('payout', 'po_1')).toBe('alice')
    // The same id under another kind is another payment.
    expect(await store.ownerOf('cardPayout', 'po_1')).toBeUndefined()
    expect(await store.ownerOf('payout', 'po_unknown')).toBeUndefined()
  })

  it('refuses an amount that is not a decimal string, and an amount without its currency', async () => {
    await expect(store.recordPayment({ kind: 'payout', id: 'po_x', userId: 'alice', amount: '1e3', currency: 'EUR' })).rejects.toThrow(/decimal/)
    await expect(store.recordPayment({ kind: 'payout', id: 'po_y', userId: 'alice', amount: '10' })).rejects.toThrow(/together/)
    expect(await store.ownerOf('payout', 'po_x')).toBeUndefined()
  })
})

describe('account binding', () => {
  it('binds an account and its wallet to the first user who pays with them', async () => {
    expect(await store.bindAccount('alice', 'acc_1', 'wal_1')).toBe(true)
    expect(await store.bindAccount('alice', 'acc_1', 'wal_1')).toBe(true)
    expect(await store.bindAccount('bob', 'acc_1', 'wal_1')).toBe(false)
    // Half a pair of someone else's is refused too, and the free half is not kept for the refused user.
    expect(await store.bindAccount('bob', 'acc_1', 'wal_bob')).toBe(false)
    expect(await store.bindAccount('bob', 'acc_bob', 'wal_1')).toBe(false)
    expect(await store.bindAccount('carol', 'acc_carol', 'wal_bob')).toBe(true)
  })

  it('lets exactly one of two users binding at once win', async () => {
    for (let i = 0; i < 5; i++) {
      const results = await Promise.all([store.bindAccount('dave', `acc_r${i}`, `wal_r${i}`), store.bindAccount('erin', `acc_r${i}`, `wal_r${i}`)])
      expect(results.filter(Boolean)).toHaveLength(1)
    }
  })
})

describe('usage, for per-user limits', () => {
  it("counts a user's payments of a kind since a moment, and sums their amounts per currency exactly", async () => {
    const before = new Date(Date.now() - 1000)
    await store.recordPayment({ kind: 'payout', id: 'u_1', userId: 'frank', amount: '0.1', currency: 'EUR' })
    await store.recordPayment({ kind: 'payout', id: 'u_2', userId: 'frank', amount: '0.2', currency: 'EUR' })
    await store.recordPayment({ kind: 'payout', id: 'u_3', userId: 'frank', amount: '99999999999999999.99', currency: 'USD' })
    await store.recordPayment({ kind: 'payout', id: 'u_4', userId: 'frank' })
    await store.recordPayment({ kind: 'cardPayout', id: 'u_5', userId: 'frank', amount: '5', currency: 'EUR' })
    await store.recordPayment({ kind: 'payout', id: 'u_6', userId: 'grace', amount: '7', currency: 'EUR' })
    expect(await store.usage('frank', 'payout', before)).toEqual({ count: 4, totals: { EUR: '0.3', USD: '99999999999999999.99' } })
    expect(await store.usage('frank', 'cardPayout', before)).toEqual({ count: 1, totals: { EUR: '5' } })
    expect(await store.usage('frank', 'payout', new Date(Date.now() + 60_000))).toEqual({ count: 0, totals: {} })
  })
})

describe('migrations', () => {
  it('apply once: running them again changes nothing', async () => {
    await migrate(store.db)
    const { rows } = await store.db.query<{ version: number }>('SELECT version FROM stablecoin_widget.migrations ORDER BY version')
    expect(rows.map((row) => row.version)).toEqual([1])
    expect(await store.ownerOf('payout', 'po_1')).toBe('alice')
  })
})
