// @vitest-environment happy-dom
// Attack (issue 28, finding 4): every partner's hosted page runs on the widget's one origin, so
// they share one storage. Partner A's buyer leaves an unfinished payout; the same browser opens
// partner B's payout link. B's page must not resume A's payout, reuse A's accountId and walletId,
// or send any of them to B's backend; nor may B's "Not you?" wipe what A keeps. Every record the
// widget keeps for a buyer belongs to one partner on one service (partner id and apiBase).
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { readConfig } from '../../../src/config/config'
import { cardKeys, cardStore } from '../../../src/flows/card/persisted'
import { depositKeys, depositStore } from '../../../src/flows/deposit/persisted'
import { attemptStore, bankDepositKeys, depositStore as bankDepositStore } from '../../../src/flows/bankDeposit/persisted'
import { onboardingKeys, onboardingStore } from '../../../src/flows/onboarding/persisted'
import { digestOf } from '../../../src/flows/payout/creating'
import { payoutChecks, payoutKeys, payoutStore, referenceStore, spentAddresses } from '../../../src/flows/payout/persisted'
import { buyerAccount, forgetBuyer } from '../../../src/identity/account'
import { identityChecks, identityKeys } from '../../../src/identity/checks'
import { identityDraft } from '../../../src/identity/draft'
import { USED_CODES_KEY, usedAuthCodes } from '../../../src/identity/usedCodes'
import { RATE_SLOTS_KEY } from '../../../src/rateLimit/rateLimiter'
import type { Services } from '../../../src/services'
import { anyStored } from '../../../src/storage/storedCheck'
import { type StorageScope, scopedStorage } from '../../../src/storage/safeStorage'
import { leftPayout } from '../helpers/leftPayout'
import { memoryStorage } from '../helpers/memoryStorage'
import { servicesOf } from '../helpers/services'

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEPOSIT_A = '0x2222222222222222222222222222222222222222'
const NOW = Date.now()
const A: StorageScope = { partner: 'acme-shop', apiBase: 'https://api.payments.test' }
// The same service for another partner, and the same partner on another service.
const OTHERS: Array<[string, StorageScope]> = [
  ['another partner on the same service', { partner: 'evil-shop', apiBase: A.apiBase }],
  ['the same partner on another service', { partner: A.partner, apiBase: 'https://api.payments.test.evil' }],
  ['a script-mode page on the same service', { apiBase: A.apiBase }],
]

const payoutOfA = { ...leftPayout(DEPOSIT_A, NOW), accountId: 'acc_A', wallet: WALLET }

/** Every key of a buyer's records (the spent addresses' key is the payout's own: read through its store). */
const RECORD_KEYS = [...payoutKeys, ...cardKeys, ...depositKeys, ...onboardingKeys, ...bankDepositKeys, ...identityKeys.local, USED_CODES_KEY]

/** Everything partner A's flows keep for a buyer, written by their own stores. */
async function leaveEverythingOfA(local: Storage, session: Storage) {
  await Promise.all([payoutChecks.load(), identityChecks.load()])
  buyerAccount(local).save({ accountId: 'acc_A', walletId: 'w_A', wallet: WALLET })
  payoutStore(local).save(payoutOfA as never)
  const request = digestOf({ quoteId: 'q_A', accountId: 'acc_A', beneficiary: { iban: 'DE89370400440532013000' } })
  referenceStore(local).forRequest(request, () => 'po_A')
  referenceStore(local).claim('po_signed_A', request)
  spentAddresses(local).add(DEPOSIT_A)
  usedAuthCodes(local).add('code-A')
  identityDraft(session).put({ form: { wallet: WALLET } as never })
  cardStore(local).save({ id: 'card_A' } as never)
  depositStore(local).save({ id: 'dep_A' } as never)
  onboardingStore(local).save({ accountId: 'acc_A' } as never)
  bankDepositStore(local).save({ deposit: { id: 'bd_A' } } as never)
  attemptStore(local).save({ reference: 'bd-A', accountId: 'acc_A' } as never)
}

describe("partner B's storage holds nothing of partner A's", () => {
  it.each(OTHERS)('%s sees none of A\'s records, and its "Not you?" leaves them', async (_, other) => {
    const local = memoryStorage()
    const session = memoryStorage()
    const a = { local: scopedStorage(local, A)!, session: scopedStorage(session, A)! }
    const b = { local: scopedStorage(local, other)!, session: scopedStorage(session, other)! }
    await leaveEverythingOfA(a.local, a.session)
    const written = local.data.size

    // A wrote every one of them; B finds none.
    for (const key of RECORD_KEYS) expect(anyStored(a.local, [key]), key).toBe(true)
    expect(anyStored(a.session, identityKeys.session)).toBe(true)
    for (const key of RECORD_KEYS) expect(anyStored(b.local, [key]), key).toBe(false)
    expect(buyerAccount(b.local).load()).toBeUndefined()
    expect(payoutStore(b.local).load()).toBeUndefined()
    expect(payoutStore(b.local).load({ accountId: 'acc_A', wallet: WALLET })).toBeUndefined()
    expect(spentAddresses(b.local).has(DEPOSIT_A)).toBe(false)
    expect(usedAuthCodes(b.local).has('code-A')).toBe(false)
    expect(identityDraft(b.session).take()).toBeUndefined()
    expect(anyStored(b.session, identityKeys.session)).toBe(false)
    for (let i = 0; i < b.local.length; i++) expect(b.local.key(i)).toBeNull()

    // B's buyer says "Not you?": A's records stay for A.
    forgetBuyer(b.local)
    expect(local.data.size).toBe(written)
    expect(buyerAccount(a.local).load()).toEqual({ accountId: 'acc_A', walletId: 'w_A', wallet: WALLET })
    expect(payoutStore(a.local).load({ accountId: 'acc_A', wallet: WALLET })?.id).toBe('bp_A')
    expect(anyStored(a.session, identityKeys.session)).toBe(true)
  })

  it('A\'s own records come back to A, and A\'s "Not you?" forgets them', async () => {
    const local = memoryStorage()
    const session = memoryStorage()
    const a = { local: scopedStorage(local, A)!, session: scopedStorage(session, A)! }
    await leaveEverythingOfA(a.local, a.session)
    expect(buyerAccount(scopedStorage(local, { ...A })).load()?.accountId).toBe('acc_A')
    expect(spentAddresses(a.local).has(DEPOSIT_A)).toBe(true)
    expect(usedAuthCodes(a.local).has('code-A')).toBe(true)
    forgetBuyer(a.local)
    // Every record a bank flow wrote for the buyer is gone (identity/account.ts BANK_RECORDS); what
    // is left is not theirs to forget: the card's and the deposit's records, spent addresses, used codes.
    const left = [...local.data.keys()].map((key) => key.slice(key.indexOf(']') + 1))
    expect(left.sort()).toEqual([':flow:card', ':flow:deposit', ':payout-spent', ':used-auth-codes'])
    expect(buyerAccount(a.local).load()).toBeUndefined()
    expect(payoutStore(a.local).load()).toBeUndefined()
    for (const key of [...payoutKeys, ...onboardingKeys, ...bankDepositKeys, ...identityKeys.local]) expect(anyStored(a.local, [key]), key).toBe(false)
    // Not a buyer's record: the spent addresses and used codes stay, as before.
    expect(spentAddresses(a.local).has(DEPOSIT_A)).toBe(true)
  })

  it('every key written carries the partner and the service; an unscoped (older) record is never read', async () => {
    const local = memoryStorage()
    const session = memoryStorage()
    await leaveEverythingOfA(scopedStorage(local, A)!, scopedStorage(session, A)!)
    for (const key of [...local.data.keys(), ...session.data.keys()]) {
      expect(key).toContain('"acme-shop"')
      expect(key).toContain('"https://api.payments.test"')
    }
    // What an older widget wrote, with no partner in its key, cannot be proven to be A's.
    const older = memoryStorage()
    older.setItem('stablecoin-widget:v1:flow:account', JSON.stringify({ accountId: 'acc_X', walletId: 'w_X', wallet: WALLET, savedAt: NOW }))
    expect(buyerAccount(scopedStorage(older, A)).load()).toBeUndefined()
  })

  it("the rate limiter's slots are not a partner's: its key stays shared (the service limits per IP)", () => {
    expect(RATE_SLOTS_KEY).toBe('stablecoin-widget:v1:rate-slots')
  })
})

// The same, through the payout flow as it mounts for partner B.
function services(partner: string, sent: string[]): Services {
  const result = readConfig('?apiBase=https://api.payments.test&partnerBase=https://shop.example/api&identityUrl=https://id.example.com&locale=en&flow=payout')
  if (!result.ok) throw new Error(result.problem)
  const config = { ...result.config, partner }
  return servicesOf(
    config,
    vi.fn(async (_path: string, body: unknown) => (sent.push(JSON.stringify(body)), {})),
  )
}

describe("partner B's payout page after partner A's unfinished payout", () => {
  let sent: string[]
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
    sent = []
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      sent.push(`${url} ${String(init?.body ?? '')}`)
      return new Response(JSON.stringify({ id: 'bp_A', status: 'pending' }), { status: 200, headers: { 'content-type': 'application/json' } })
    })
  })
  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  const leave = async () => {
    await Promise.all([payoutChecks.load(), identityChecks.load()])
    const local = scopedStorage(localStorage, { partner: 'acme-shop', apiBase: 'https://api.payments.test' })
    buyerAccount(local).save({ accountId: 'acc_A', walletId: 'w_A', wallet: WALLET })
    payoutStore(local).save(payoutOfA as never)
  }

  it("B's page starts with the anonymous price: nothing of A's is shown or sent", async () => {
    await leave()
    const { default: PayoutFlow } = await import('../../../src/flows/payout/PayoutFlow')
    render(<PayoutFlow services={services('evil-shop', sent)} onStep={() => {}} />)
    await screen.findByRole('heading', { name: /^Cash out/ })
    await new Promise((r) => setTimeout(r, 100))
    expect(screen.queryByText(DEPOSIT_A)).toBeNull()
    // No "Not you?" naming A's wallet: B's page knows no buyer.
    expect(screen.queryByText(WALLET)).toBeNull()
    expect(sent.filter((s) => /acc_A|w_A|bp_A/.test(s))).toEqual([])
  })

  it("A's page resumes A's payout (the record is there, for A)", async () => {
    await leave()
    const { default: PayoutFlow } = await import('../../../src/flows/payout/PayoutFlow')
    render(<PayoutFlow services={services('acme-shop', sent)} onStep={() => {}} />)
    await screen.findByRole('heading', { name: 'Send the stablecoins' })
    expect(screen.getByText(DEPOSIT_A)).toBeTruthy()
  })
})
