// A returning buyer on a new device (issue 31): a link the partner signed with the buyer's
// accountId, walletId and wallet starts every bank flow with that buyer, no identity steps, over an
// account this device kept for another buyer; it is kept like a freshly onboarded account.
// As a page runs once its first screen is up: the stored-record checks are here.
import '../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { WidgetConfig } from '../../../src/config/config'
import { buyerAccount, knownBuyer } from '../../../src/identity/account'
import { identityStart } from '../../../src/identity/start'
import { memoryStorage } from '../helpers/memoryStorage'

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const OTHER = '0x1111111111111111111111111111111111111111'
const base = { authCode: undefined, walletAddress: undefined } as unknown as WidgetConfig
const signedFor = (accountId: string, walletId: string, walletAddress: string) => ({ ...base, accountId, walletId, walletAddress }) as WidgetConfig

describe('a bank flow under a link that signs the buyer', () => {
  it('starts with the signed buyer on a new device, and keeps it as a freshly onboarded account', () => {
    const storage = memoryStorage()
    const start = identityStart(signedFor('acc_S', 'wal_S', WALLET), storage, memoryStorage())
    expect(start.account).toEqual({ accountId: 'acc_S', walletId: 'wal_S', wallet: WALLET })
    expect(buyerAccount(storage).load()).toEqual({ accountId: 'acc_S', walletId: 'wal_S', wallet: WALLET })
  })

  it('prefers the signed buyer to an account this device kept for another wallet, or with other ids for the same wallet', () => {
    const storage = memoryStorage()
    buyerAccount(storage).save({ accountId: 'acc_old', walletId: 'wal_old', wallet: OTHER })
    expect(identityStart(signedFor('acc_S', 'wal_S', WALLET), storage, memoryStorage()).account).toEqual({
      accountId: 'acc_S',
      walletId: 'wal_S',
      wallet: WALLET,
    })
    buyerAccount(storage).save({ accountId: 'acc_old', walletId: 'wal_old', wallet: WALLET })
    expect(identityStart(signedFor('acc_S', 'wal_S', WALLET), storage, memoryStorage()).account).toEqual({
      accountId: 'acc_S',
      walletId: 'wal_S',
      wallet: WALLET,
    })
    expect(buyerAccount(storage).load()?.accountId).toBe('acc_S')
  })

  it('without the signed ids the rule stays: the stored buyer, unless the link is signed for another wallet', () => {
    const storage = memoryStorage()
    buyerAccount(storage).save({ accountId: 'acc_1', walletId: 'wal_1', wallet: WALLET })
    const accounts = buyerAccount(storage)
    expect(knownBuyer(accounts, base)).toEqual({ accountId: 'acc_1', walletId: 'wal_1', wallet: WALLET })
    expect(knownBuyer(accounts, { ...base, walletAddress: WALLET.toLowerCase() })).toMatchObject({ accountId: 'acc_1' })
    expect(knownBuyer(accounts, { ...base, walletAddress: OTHER })).toBeUndefined()
    // Half a buyer never names one (parseOptions refuses it before; here too, nothing is kept).
    expect(knownBuyer(accounts, { ...base, accountId: 'acc_S', walletAddress: OTHER } as WidgetConfig)).toBeUndefined()
    expect(buyerAccount(storage).load()?.accountId).toBe('acc_1')
  })

  it('"Not you?" forgets what this device kept; the link still names its buyer, as a link signed for a wallet still names that wallet', () => {
    const storage = memoryStorage()
    const first = identityStart(signedFor('acc_S', 'wal_S', WALLET), storage, memoryStorage())
    first.accounts.forget()
    expect(buyerAccount(storage).load()).toBeUndefined()
    // The same signed link, opened again: the partner's word for this buyer.
    expect(identityStart(signedFor('acc_S', 'wal_S', WALLET), storage, memoryStorage()).account).toMatchObject({ accountId: 'acc_S' })
    // The identity steps (after "Not you?") start with the link's wallet.
    expect(first.identity).toMatchObject({ form: { wallet: WALLET } })
  })
})
