// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import { ACCOUNT_MAX_AGE_MS, buyerAccount } from '../../../src/identity/account'
import { type IdentityState, identityTransition, initialIdentity, isIdentityEvent, isIdentityState } from '../../../src/identity/machine'
import { onboardAgain } from '../../../src/flows/payout/identitySteps'
import { memoryStorage } from '../helpers/memoryStorage'
import { WALLET, filledApplicant } from '../helpers/applicant'

describe('identity sub-machine', () => {
  const filled = filledApplicant

  it('ends in onboarded only for the answer to its own submission, with the wallet it was made for', () => {
    const details: IdentityState = { tag: 'details', form: filled, authCode: 'ac_1', errors: {}, work: 'idle' }
    const answer = { type: 'ONBOARDED', accountId: 'acc_1', walletId: 'wal_1', kycStatus: 'approved' } as const
    expect(identityTransition(details, answer)).toBe(details)
    const submitting = identityTransition(details, { type: 'SUBMIT' })
    expect(submitting).toMatchObject({ work: 'submitting' })
    expect(identityTransition(submitting as IdentityState, answer)).toEqual({
      tag: 'onboarded',
      account: { accountId: 'acc_1', walletId: 'wal_1', wallet: WALLET },
      kycStatus: 'approved',
    })
  })

  it('a spent code goes back to the identity step with everything typed', () => {
    const submitting: IdentityState = { tag: 'details', form: filled, authCode: 'ac_1', errors: {}, work: 'submitting' }
    expect(identityTransition(submitting, { type: 'ONBOARD_FAILED', problem: { key: 'error.invalid' }, field: 'phone', codeSpent: true })).toMatchObject({
      tag: 'identity',
      form: filled,
      rejectedCode: true,
      serverMessage: { field: 'phone' },
    })
    expect(initialIdentity(filled, 'ac_2', { field: 'phone', problem: { key: 'error.invalid' } })).toMatchObject({
      tag: 'details',
      errors: { phone: 'server' },
    })
  })

  it('knows its own states and events', () => {
    expect(['wallet', 'identity', 'details'].every((tag) => isIdentityState({ tag }))).toBe(true)
    expect(isIdentityState({ tag: 'opening' })).toBe(false)
    expect(isIdentityEvent({ type: 'SUBMIT' })).toBe(true)
    expect(isIdentityEvent({ type: 'TRACK' })).toBe(false)
  })
})

describe('the buyer account every bank flow reuses', () => {
  it('keeps ids and the wallet for 30 days, then forgets them', () => {
    const storage = memoryStorage()
    let now = 1_000
    const accounts = buyerAccount(storage, () => now)
    accounts.save({ accountId: 'acc_1', walletId: 'wal_1', wallet: WALLET })
    expect(accounts.load()).toEqual({ accountId: 'acc_1', walletId: 'wal_1', wallet: WALLET })
    now += ACCOUNT_MAX_AGE_MS + 1
    expect(accounts.load()).toBeUndefined()
    expect(storage.length).toBe(0)
  })

  it('refuses a record that is not one (a bad wallet, a missing id)', () => {
    const storage = memoryStorage()
    storage.setItem('stablecoin-widget:v1:flow:account', JSON.stringify({ accountId: 'acc_1', walletId: '', wallet: WALLET, savedAt: 1 }))
    expect(buyerAccount(storage, () => 2).load()).toBeUndefined()
    storage.setItem('stablecoin-widget:v1:flow:account', JSON.stringify({ accountId: 'acc_1', walletId: 'w', wallet: '<script>', savedAt: 1 }))
    expect(buyerAccount(storage, () => 2).load()).toBeUndefined()
  })
})

describe('how a bank flow begins', () => {
  const base = { authCode: undefined, walletAddress: undefined } as unknown as import('../../../src/config/config').WidgetConfig
  it('a known buyer skips the identity steps, unless the partner signed the link for another wallet', async () => {
    const { identityStart } = await import('../../../src/identity/start')
    const storage = memoryStorage()
    buyerAccount(storage).save({ accountId: 'acc_1', walletId: 'wal_1', wallet: WALLET })
    expect(identityStart(base, storage, memoryStorage()).account).toMatchObject({ accountId: 'acc_1' })
    expect(identityStart({ ...base, walletAddress: WALLET.toLowerCase() }, storage, memoryStorage()).account).toMatchObject({ accountId: 'acc_1' })
    const other = identityStart({ ...base, walletAddress: '0x1111111111111111111111111111111111111111' }, storage, memoryStorage())
    expect(other.account).toBeUndefined()
    expect(other.identity).toMatchObject({ tag: 'identity', form: { wallet: '0x1111111111111111111111111111111111111111' } })
  })
})

describe('identity sub-machine: verified again', () => {
  const filled = { ...filledApplicant, wallet: WALLET }
  const tierProblem = { problem: { key: 'error.requiresAction' as const, code: 'requires_action' } }

  it('back with a new code, a message about no field (the verification itself) is gone; a refused field stays marked', () => {
    const asked: IdentityState = { tag: 'identity', form: filled, serverMessage: tierProblem }
    expect(identityTransition(asked, { type: 'AUTH_CODE', code: 'c2' })).toMatchObject({ tag: 'details', serverMessage: undefined, errors: {} })
    expect(initialIdentity(filled, 'c2', tierProblem)).toMatchObject({ tag: 'details', serverMessage: undefined })
    const field = { field: 'phone' as const, problem: { key: 'error.invalid' as const } }
    expect(initialIdentity(filled, 'c2', field)).toMatchObject({ tag: 'details', serverMessage: field, errors: { phone: 'server' } })
  })

  it('a higher tier asks only the code: complete details go again unasked; missing or refused ones are asked', () => {
    const details = initialIdentity(filled, 'c2')
    expect(onboardAgain(details)).toMatchObject({ tag: 'details', work: 'submitting' })
    const missing = initialIdentity({ ...filled, phone: '' }, 'c2')
    expect(onboardAgain(missing)).toBe(missing)
    const refused = initialIdentity(filled, 'c2', { field: 'phone', problem: { key: 'error.invalid' as const } })
    expect(onboardAgain(refused)).toBe(refused)
  })
})
