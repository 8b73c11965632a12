// Stored records checked by lazily fetched zod checks, from an attacker's side: a record another
// tab (or a script of the partner's origin) wrote, read before its check is here, or tampered. Every test asserts the safe behaviour.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../setup/afterFirstScreen'
import { describe, expect, it, vi } from 'vitest'
import { attemptStore } from '../../../src/flows/bankDeposit/persisted'
import { digestOf } from '../../../src/flows/payout/creating'
import { payoutStore, referenceStore } from '../../../src/flows/payout/persisted'
import type { PayoutRecord } from '../../../src/flows/payout/record'
import { lazyPart } from '../../../src/kernel/lazyPart'
import { StoredCheckPending, flowKey, whenChecked } from '../../../src/storage/storedCheck'
import { createFlowStore } from '../../../src/storage/flowStore'
import { memoryStorage } from '../helpers/memoryStorage'
import { BUYER_WALLET, payoutRecord } from '../helpers/payout'

const NOW = Date.parse('2026-11-23T12:00:00Z')
const A = BUYER_WALLET
/** Another buyer's wallet. */
const B = '0x3333333333333333333333333333333333333333'
const HASH = `0x${'a'.repeat(64)}`

const record = (extra: Partial<PayoutRecord> = {}): PayoutRecord => payoutRecord({ createdAt: NOW, ...extra })

// The setup file loads every check (test/unit/setup/afterFirstScreen.ts): the tests of the time
// before import fresh copies of the modules, as test/unit/kernel/firstScreen.test.tsx does.
async function fresh() {
  vi.resetModules()
  return {
    payout: await import('../../../src/flows/payout/persisted'),
    bank: await import('../../../src/flows/bankDeposit/persisted'),
    onboarding: await import('../../../src/flows/onboarding/persisted'),
    deposit: await import('../../../src/flows/deposit/persisted'),
    card: await import('../../../src/flows/card/persisted'),
    account: await import('../../../src/identity/account'),
    draft: await import('../../../src/identity/draft'),
    checks: await import('../../../src/identity/checks'),
  }
}
/** Throws the pending-check error (of whichever module copy). */
function pending(run: () => unknown) {
  let thrown: unknown
  try {
    run()
  } catch (error) {
    thrown = error
  }
  expect((thrown as Error | undefined)?.name).toBe('StoredCheckPending')
}

describe('before the checks are here: nothing is read unchecked, nothing is dropped', () => {
  it('the fresh copies start without their checks', async () => {
    const m = await fresh()
    for (const part of [
      m.payout.payoutChecks,
      m.bank.bankDepositChecks,
      m.onboarding.onboardingChecks,
      m.checks.identityChecks,
      m.deposit.depositChecks,
      m.card.cardChecks,
    ]) {
      expect(part.get()).toBeUndefined()
    }
  })

  it('a payout with its funding hash: load, save and clear wait (StoredCheckPending), the record stays as written', async () => {
    const { payout } = await fresh()
    const storage = memoryStorage()
    const raw = JSON.stringify({ records: [record({ txHash: HASH, sender: A })] })
    storage.setItem(flowKey('payout'), raw)
    const store = payout.payoutStore(storage, () => NOW)
    pending(() => store.load({ accountId: 'acc_1', wallet: A }))
    pending(() => store.save(record({ id: 'po_2', accountId: 'acc_2' })))
    pending(() => store.clear('po_1'))
    expect(storage.getItem(flowKey('payout'))).toBe(raw)
  })

  it('a stored payout reference is never replaced by a fresh one before its check', async () => {
    const { payout } = await fresh()
    const storage = memoryStorage()
    const raw = JSON.stringify({ reference: 'po_kept', request: 'x', savedAt: NOW })
    storage.setItem(flowKey('payout-reference'), raw)
    const refs = payout.referenceStore(storage, () => NOW)
    pending(() => refs.forRequest(digestOf({ quoteId: 'q', accountId: 'a', beneficiary: {} }), () => 'po_new'))
    expect(storage.getItem(flowKey('payout-reference'))).toBe(raw)
    storage.setItem(flowKey('payout-signed'), JSON.stringify({ claims: [{ reference: 'signed', request: 'other', savedAt: NOW }] }))
    pending(() => refs.claim('signed', digestOf({ quoteId: 'q', accountId: 'a', beneficiary: {} })))
  })

  it('a bank deposit and its attempt (the idempotency key) are not aged away for want of a check', async () => {
    const { bank } = await fresh()
    const storage = memoryStorage()
    const attempt = JSON.stringify({ reference: 'bd-1', accountId: 'a', currency: 'EUR', amount: '10', savedAt: NOW })
    storage.setItem(flowKey('bankDeposit-attempt'), attempt)
    storage.setItem(flowKey('bankDeposit'), '{"deposit":{}}')
    pending(() => bank.attemptStore(storage, () => NOW).load())
    pending(() => bank.depositStore(storage, () => NOW).load())
    expect(storage.getItem(flowKey('bankDeposit-attempt'))).toBe(attempt)
    expect(storage.getItem(flowKey('bankDeposit'))).toBe('{"deposit":{}}')
  })

  it('the opened account, the buyer account and the identity draft stay until checked', async () => {
    const m = await fresh()
    const local = memoryStorage()
    const session = memoryStorage()
    local.setItem(flowKey('onboarding'), '{"accountId":"a"}')
    local.setItem(flowKey('account'), '{"accountId":"a"}')
    session.setItem('stablecoin-widget:v1:identity-draft', '{"form":{}}')
    pending(() => m.onboarding.onboardingStore(local, () => NOW).load())
    pending(() => m.account.buyerAccount(local, () => NOW).load())
    pending(() => m.draft.identityDraft(session).take())
    expect(local.getItem(flowKey('onboarding'))).toBe('{"accountId":"a"}')
    expect(local.getItem(flowKey('account'))).toBe('{"accountId":"a"}')
    expect(session.getItem('stablecoin-widget:v1:identity-draft')).toBe('{"form":{}}')
  })

  it('a deposit tracking record and a card purchase: read only once checked', async () => {
    const m = await fresh()
    const storage = memoryStorage()
    storage.setItem(flowKey('deposit'), '{"txHash":"0x"}')
    storage.setItem(flowKey('card'), '{"id":"c"}')
    pending(() => m.deposit.depositStore(storage).load())
    pending(() => m.card.cardStore(storage).load())
  })

  it('a storage key that is not JSON is "nothing stored", not a pending check', async () => {
    const { payout } = await fresh()
    const storage = memoryStorage()
    storage.setItem(flowKey('payout'), '{not json')
    expect(payout.payoutStore(storage, () => NOW).load()).toBeUndefined()
  })

  it('whenChecked reads once the check arrives', async () => {
    const part = lazyPart(async () => ({ ok: true }))
    const reads: string[] = []
    const read = () => {
      if (!part.get()) throw new StoredCheckPending()
      reads.push('read')
    }
    whenChecked(read, part.load)
    expect(reads).toEqual([])
    await part.load()
    await Promise.resolve()
    expect(reads).toEqual(['read'])
  })
})

describe('once the checks are here: tampered records are refused', () => {
  it.each([
    ['a deposit address that is not an address', { depositAddress: 'javascript:alert(1)' }],
    ['a deposit amount in exponent form', { depositAmount: '1e30' }],
    ['a negative amount', { depositAmount: '-10' }],
    ['a chain id as a string', { chain: '8453' as unknown as number }],
    ['a non-integer chain', { chain: 8453.5 }],
    ['a token that is not an address', { token: 'USDC' }],
    ['decimals out of range', { decimals: 77 }],
    ['a hash of the wrong shape', { txHash: '0x1234' }],
    ['a wallet look-alike', { wallet: A.replace('1', 'l') }],
  ])('a payout record with %s is not resumed', (_, extra) => {
    const storage = memoryStorage()
    storage.setItem(flowKey('payout'), JSON.stringify({ records: [record(extra as Partial<PayoutRecord>)] }))
    expect(payoutStore(storage, () => NOW).load({ accountId: 'acc_1', wallet: A })).toBeUndefined()
  })

  it('another buyer’s payout is not resumed for this buyer, nor under a link signed for another wallet', () => {
    const storage = memoryStorage()
    storage.setItem(flowKey('payout'), JSON.stringify({ records: [record({ txHash: HASH })] }))
    const store = payoutStore(storage, () => NOW)
    expect(store.load({ accountId: 'acc_2', wallet: A })).toBeUndefined()
    expect(store.load({ accountId: 'acc_1', wallet: B })).toBeUndefined()
    expect(store.load({ accountId: 'acc_1', wallet: A }, B)).toBeUndefined()
    expect(store.load({ accountId: 'acc_1', wallet: A })?.txHash).toBe(HASH)
  })

  it('a record with "__proto__" keys gains nothing from them', () => {
    const storage = memoryStorage()
    const raw = JSON.stringify({ records: [record()] }).replace('"id":"po_1"', '"__proto__":{"txHash":"' + HASH + '"},"id":"po_1"')
    storage.setItem(flowKey('payout'), raw)
    const found = payoutStore(storage, () => NOW).load({ accountId: 'acc_1', wallet: A })
    expect(found?.txHash).toBeUndefined()
    expect(({} as Record<string, unknown>).txHash).toBeUndefined()
  })

  it('a tampered idempotency key (too long, empty, not a string) is not sent', () => {
    const storage = memoryStorage()
    for (const reference of ['', 'x'.repeat(65), 12]) {
      storage.setItem(flowKey('bankDeposit-attempt'), JSON.stringify({ reference, accountId: 'a', currency: 'EUR', amount: '10', savedAt: NOW }))
      expect(attemptStore(storage, () => NOW).load()).toBeUndefined()
      storage.setItem(flowKey('payout-reference'), JSON.stringify({ reference, request: 'r', savedAt: NOW }))
      const refs = referenceStore(storage, () => NOW)
      expect(refs.forRequest(digestOf({ quoteId: 'q', accountId: 'a', beneficiary: {} }), () => 'po_new')).toBe('po_new')
    }
  })

  it('a flow store whose own check throws something else reads as nothing (never throws on)', () => {
    const storage = memoryStorage()
    storage.setItem(flowKey('x'), '{}')
    const store = createFlowStore(storage, 'x', () => {
      throw new TypeError('bad')
    })
    expect(store.load()).toBeUndefined()
  })
})
