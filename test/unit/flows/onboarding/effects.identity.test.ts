// The identity steps' effect (src/identity/effects.ts) on its own: what each state starts, and the
// onboarding call's bookkeeping even when the flow has moved on.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../../src/errors/ApiError'
import { buyerAccount } from '../../../../src/identity/account'
import { type IdentityDeps, identityEffect, submitApplicant } from '../../../../src/identity/effects'
import type { Applicant, IdentityEvent, IdentityState } from '../../../../src/identity/machine'
import { usedAuthCodes } from '../../../../src/identity/usedCodes'
import { fakeApi, inTurn } from '../../helpers/fakeApi'
import { memoryStorage } from '../../helpers/memoryStorage'

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const form: Applicant = { wallet: WALLET, nationality: 'FR', country: 'FR', phone: '+33 1 23 45 67 89', name: 'Ada', email: 'ada@example.com' }
const details = (work: 'idle' | 'submitting'): Extract<IdentityState, { tag: 'details' }> => ({ tag: 'details', form, authCode: 'c-1', errors: {}, work })

function deps(answer: Parameters<typeof fakeApi>[0] = {}) {
  const storage = memoryStorage()
  const api = fakeApi(answer)
  return { api, accounts: buyerAccount(storage), usedCodes: usedAuthCodes(storage) } satisfies IdentityDeps
}

describe('identityEffect', () => {
  it('starts the onboarding call only while submitting, keyed by the code', () => {
    const d = deps()
    expect(identityEffect(details('idle'), d, () => {})).toBeUndefined()
    expect(identityEffect({ tag: 'identity', form }, d, () => {})).toBeUndefined()
    expect(identityEffect(details('submitting'), d, () => {})?.key).toBe('onboard:c-1')
  })

  it('"Not you?" at the wallet step clears the buyer account', () => {
    const d = deps()
    d.accounts.save({ accountId: 'a', walletId: 'w', wallet: WALLET })
    const effect = identityEffect({ tag: 'wallet', form, connection: { tag: 'discovering' }, forget: true }, d, () => {})
    expect(effect?.key).toBe('forget-account')
    effect?.start(() => true, new AbortController().signal)
    expect(d.accounts.load()).toBeUndefined()
  })
})

describe('submitApplicant', () => {
  it('sends no category (the service applies its default), and saves the account before ONBOARDED', async () => {
    const d = deps({ '/fiat/onboard': () => ({ accountId: 'a-1', walletId: 'w-1', kycStatus: 'pending' }) })
    const dispatch = vi.fn((_e: IdentityEvent) => expect(d.accounts.load()).toEqual({ accountId: 'a-1', walletId: 'w-1', wallet: WALLET }))
    await submitApplicant(details('submitting'), d, () => true, dispatch)
    const body = d.api.to('/fiat/onboard')[0].body as { individual: object }
    expect(body).toMatchObject({ applicantInfo: { phone: '+33123456789' } })
    expect(Object.keys(body.individual)).toEqual(['name', 'email', 'country'])
    expect(dispatch).toHaveBeenCalledWith({ type: 'ONBOARDED', accountId: 'a-1', walletId: 'w-1', kycStatus: 'pending' })
  })

  it('a flow that moved on hears nothing, but the account and the spent code are still kept', async () => {
    const d = deps({ '/fiat/onboard': () => ({ accountId: 'a-2', walletId: 'w-2', kycStatus: 'approved' }) })
    const dispatch = vi.fn()
    await submitApplicant(details('submitting'), d, () => false, dispatch)
    expect(dispatch).not.toHaveBeenCalled()
    expect(d.usedCodes.has('c-1')).toBe(true)
    expect(d.accounts.load()).toMatchObject({ accountId: 'a-2' })
  })

  it('a 400 without a field path spends the code and names no field', async () => {
    const d = deps({ '/fiat/onboard': inTurn(new ApiError(400, 'invalid_request', 'code already used')) })
    const dispatch = vi.fn()
    await submitApplicant(details('submitting'), d, () => true, dispatch)
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ type: 'ONBOARD_FAILED', codeSpent: true, field: undefined }))
    expect(d.usedCodes.has('c-1')).toBe(true)
  })

  it('a field path the form does not have names no field', async () => {
    const d = deps({ '/fiat/onboard': inTurn(new ApiError(400, 'invalid_request', 'applicantInfo.taxId: required')) })
    const dispatch = vi.fn()
    await submitApplicant(details('submitting'), d, () => true, dispatch)
    expect(dispatch).toHaveBeenCalledWith(expect.objectContaining({ codeSpent: true, field: undefined }))
  })
})
