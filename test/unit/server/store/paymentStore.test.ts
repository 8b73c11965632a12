// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cryptoDepositId, openPaymentStore, type PaymentStore } from '../../../../src/server/index'
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

  it('binds an account alone (a payout names no wallet), and refuses it to another user with or without a wallet', async () => {
    expect(await store.bindAccount('hana', 'acc_h')).toBe(true)
    expect(await store.bindAccount('hana', 'acc_h', 'wal_h')).toBe(true)
    expect(await store.bindAccount('ivan', 'acc_h')).toBe(false)
    expect(await store.bindAccount('ivan', 'acc_i', 'wal_h')).toBe(false)
    expect(await store.bindAccount('ivan', 'acc_i')).toBe(true)
  })

  it('lets exactly one of two users binding at once win', async () => {
    for (let i = 0; i < 5; i++) {
      const results = await Promise.all([store.bindAccount('dave', `acc_r${i}`, `wal_r${i}`), store.bindAccount('erin', `acc_r${i}`, `wal_r${i}`)])
      expect(results.filter(Boolean)).toHaveLength(1)
    }
  })
})

describe('card page sessions', () => {
  it("are their opener's, compared exactly, apart from accounts of the same spelling, one winner of two at once", async () => {
    expect(await store.bindCardSession('alice', 'cs_a')).toBe(true)
    expect(await store.bindCardSession('alice', 'cs_a')).toBe(true)
    expect(await store.bindCardSession('bob', 'cs_a')).toBe(false)
    expect(await store.cardSessionHolder('cs_a')).toBe('alice')
    for (const other of ['CS_A', 'cs_a ', 'cs_b']) expect(await store.cardSessionHolder(other), other).toBeUndefined()
    expect(await store.bindAccount('bob', 'cs_a')).toBe(true)
    expect(await store.cardSessionHolder('cs_a')).toBe('alice')
    const results = await Promise.all([store.bindCardSession('dave', 'cs_r'), store.bindCardSession('erin', 'cs_r')])
    expect(results.filter(Boolean)).toHaveLength(1)
  })
})

describe("listing, for the partner's own pages", () => {
  it("lists a user's payments newest first, with their last observed status, and no one else's", async () => {
    await store.recordPayment({ kind: 'card', id: 'l_1', userId: 'lena', amount: '20', currency: 'EUR' })
    await store.recordPayment({ kind: 'bankDeposit', id: 'l_2', userId: 'lena', status: 'awaiting_funds' })
    await store.recordPayment({ kind: 'card', id: 'l_3', userId: 'otto' })
    await store.db.query(`UPDATE stablecoin_widget.payments SET created_at = created_at - interval '1 minute' WHERE id = 'l_1'`)
    await store.db.query(
      `UPDATE stablecoin_widget.payments SET status = 'completed', record = '{"id":"l_1","status":"completed"}', open = false WHERE id = 'l_1'`,
    )
    const listed = await store.listPayments('lena')
    expect(listed.map((p) => [p.kind, p.id, p.status, p.final])).toEqual([
      ['bankDeposit', 'l_2', 'awaiting_funds', false],
      ['card', 'l_1', 'completed', true],
    ])
    expect(listed[1]).toMatchObject({ userId: 'lena', amount: '20', currency: 'EUR', record: { id: 'l_1', status: 'completed' } })
    expect(listed[1].createdAt).toBeInstanceOf(Date)
    expect((await store.listPayments('lena', { limit: 1 })).map((p) => p.id)).toEqual(['l_2'])
    expect(await store.listPayments('nobody')).toEqual([])
  })
})

describe('crypto deposits', () => {
  it('hold one transaction once, whatever the provider or the case of its hash, and whoever asks', async () => {
    const tx = `0x${'ab'.repeat(32)}`
    expect(await store.recordPayment({ kind: 'deposit', id: cryptoDepositId('router', tx), userId: 'alice' })).toBe(true)
    expect(await store.recordPayment({ kind: 'deposit', id: cryptoDepositId('router', tx.toUpperCase().replace('0X', '0x')), userId: 'alice' })).toBe(true)
    // Another spelling of the provider would follow the same transaction twice (and credit it twice).
    expect(await store.recordPayment({ kind: 'deposit', id: cryptoDepositId('ROUTER', tx), userId: 'alice' })).toBe(false)
    expect(await store.recordPayment({ kind: 'deposit', id: cryptoDepositId('other', tx), userId: 'bob' })).toBe(false)
    expect(await store.ownerOf('deposit', cryptoDepositId('other', tx))).toBeUndefined()
  })

  it('bind a sending address to the first user, whatever its case', async () => {
    const from = `0x${'Ab'.repeat(20)}`
    expect(await store.bindAddress('alice', from)).toBe(true)
    expect(await store.bindAddress('alice', from.toLowerCase())).toBe(true)
    expect(await store.bindAddress('bob', from.toUpperCase().replace('0X', '0x'))).toBe(false)
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

describe('known buyers, for a signed link on a new device', () => {
  const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  it('remembers the account /fiat/onboard returned for a user, and answers it for that user only', async () => {
    expect(await store.buyerOf('grace')).toBeUndefined()
    expect(await store.rememberBuyer('grace', { accountId: 'acc_grace', walletId: 'wal_grace', wallet: WALLET })).toBe(true)
    expect(await store.buyerOf('grace')).toEqual({ accountId: 'acc_grace', walletId: 'wal_grace', wallet: WALLET })
    expect(await store.buyerOf('heidi')).toBeUndefined()
    // The last one remembered is the user's.
    expect(await store.rememberBuyer('grace', { accountId: 'acc_grace2', walletId: 'wal_grace2', wallet: WALLET })).toBe(true)
    expect(await store.buyerOf('grace')).toEqual({ accountId: 'acc_grace2', walletId: 'wal_grace2', wallet: WALLET })
  })

  it('binds the account and its wallet to the user: another user can neither remember nor pay with them', async () => {
    expect(await store.rememberBuyer('ivan', { accountId: 'acc_ivan', walletId: 'wal_ivan', wallet: WALLET })).toBe(true)
    expect(await store.rememberBuyer('mallory', { accountId: 'acc_ivan', walletId: 'wal_mallory', wallet: WALLET })).toBe(false)
    expect(await store.rememberBuyer('mallory', { accountId: 'acc_mallory', walletId: 'wal_ivan', wallet: WALLET })).toBe(false)
    expect(await store.buyerOf('mallory')).toBeUndefined()
    // What the handler asks before forwarding a bank deposit or payout (403 account_not_owned).
    expect(await store.bindAccount('mallory', 'acc_ivan', 'wal_ivan')).toBe(false)
    expect(await store.bindAccount('ivan', 'acc_ivan', 'wal_ivan')).toBe(true)
    // An account a user already paid with through the kit is theirs to remember, and no one else's.
    await store.bindAccount('judy', 'acc_judy', 'wal_judy')
    expect(await store.rememberBuyer('judy', { accountId: 'acc_judy', walletId: 'wal_judy', wallet: WALLET })).toBe(true)
    expect(await store.rememberBuyer('ivan', { accountId: 'acc_judy', walletId: 'wal_judy', wallet: WALLET })).toBe(false)
    expect(await store.buyerOf('ivan')).toEqual({ accountId: 'acc_ivan', walletId: 'wal_ivan', wallet: WALLET })
  })

  it.each([
    ['an empty user', '', { accountId: 'a', walletId: 'w', wallet: WALLET }],
    ['an id with a space', 'kim', { accountId: 'acc 1', walletId: 'w', wallet: WALLET }],
    ['an id over 128 characters', 'kim', { accountId: 'a', walletId: 'w'.repeat(129), wallet: WALLET }],
    ['a wallet that is not an address', 'kim', { accountId: 'a', walletId: 'w', wallet: '0x1' }],
    ['a missing walletId (a JavaScript caller)', 'kim', { accountId: 'a', wallet: WALLET } as never],
  ])('refuses %s (the widget would refuse the link it signs)', async (_name, userId, buyer) => {
    await expect(store.rememberBuyer(userId, buyer)).rejects.toThrow(TypeError)
    expect(await store.buyerOf('kim')).toBeUndefined()
  })
})

describe('migrations', () => {
  it('apply once: running them again changes nothing', async () => {
    await migrate(store.db)
    const { rows } = await store.db.query<{ version: number }>('SELECT version FROM stablecoin_widget.migrations ORDER BY version')
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(await store.ownerOf('payout', 'po_1')).toBe('alice')
  })
})
