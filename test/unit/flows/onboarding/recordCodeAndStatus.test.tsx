// @vitest-environment happy-dom
// The virtual-account flow's record, code and status: a stored fee, the record on a shared device,
// a rejected onboarding (the single-use code is spent), the delivered asset, an unknown kycStatus.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { cleanup, fireEvent, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiClient } from '../../../../src/api/client'
import { readConfig } from '../../../../src/config/config'
import { ApiError } from '../../../../src/errors/ApiError'
import { createOnboardingEffects } from '../../../../src/flows/onboarding/effects'
import { type OnboardingEvent, type OnboardingState, emptyApplicant, initialState, transition } from '../../../../src/flows/onboarding/machine'
import { identityDraft } from '../../../../src/identity/draft'
import { onboardingStore } from '../../../../src/flows/onboarding/persisted'
import { enOnboarding } from '../../../../src/i18n/en-onboarding'
import { addEnglish } from '../../../../src/i18n/i18n'
import { AccountScreen, OpeningScreen } from '../../../../src/screens/onboarding/AccountScreens'
import { IdentityStep } from '../../../../src/screens/identity/IdentityStep'
import { createFakeClock } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import { initialIdentity } from '../../../../src/identity/machine'
import { buyerAccount } from '../../../../src/identity/account'
import type { Applicant, ServerMessage, StoredAccount } from '../../../../src/flows/onboarding/machine'

/** The flow's start as the entry composes it: the identity steps' start, or a saved record. */
const init = (form: Applicant, code?: string, resume?: StoredAccount, refused?: ServerMessage) => initialState(initialIdentity(form, code, refused), resume)

addEnglish(enOnboarding)
afterEach(cleanup)

const KEY = 'stablecoin-widget:v1:flow:onboarding'
const DAY = 86_400_000
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const filled = {
  ...emptyApplicant,
  wallet: WALLET,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+49 151 23456789',
  nationality: 'DE',
  country: 'DE',
}
const run = (s: OnboardingState, ...events: OnboardingEvent[]) => events.reduce((state, e) => transition(state, e), s)
const opened = { accountId: 'acc_1', walletId: 'wal_1', virtualAccountId: 'va_1', details: { iban: 'DE89370400440532013000', reference: 'SBX-1' }, feeBps: 100 }

function config() {
  const result = readConfig('?apiBase=https://api.example.com&identityUrl=https://id.example.com&flow=onboarding&locale=en')
  if (!result.ok) throw new Error(result.problem)
  return result.config
}

function effects(api: Partial<ApiClient>, storage = memoryStorage(), now = 1_000 * DAY) {
  const used = new Set<string>()
  const clock = createFakeClock(now)
  const store = onboardingStore(storage, clock.now)
  const events: OnboardingEvent[] = []
  const runner = createOnboardingEffects(
    {
      config: config(),
      api: api as ApiClient,
      store,
      identity: { api: api as ApiClient, accounts: buyerAccount(storage, clock.now), usedCodes: { add: (c) => void used.add(c) } },
      clock,
      emit: () => {},
    },
    (e) => void events.push(e),
  )
  return { runner, used, events, store, storage, clock }
}

describe('the bank record on a shared device', () => {
  it('keeps only what resuming needs: no walletId once the account is open', async () => {
    const post = vi.fn(async () => ({ id: 'va_1', details: opened.details, applicationFeeBps: 100 }))
    const { runner, storage, clock } = effects({ post } as never)
    runner.run({ tag: 'opening', record: { accountId: 'acc_1', walletId: 'wal_1' }, kycPending: false, attempt: 0 })
    await clock.settle()
    const stored = JSON.parse(storage.getItem(KEY) ?? '{}')
    expect(stored.walletId).toBeUndefined()
    expect(stored).toMatchObject({ accountId: 'acc_1', virtualAccountId: 'va_1', details: opened.details, feeBps: 100 })
    expect(typeof stored.savedAt).toBe('number')
  })

  it('a record older than 30 days is not resumed, and is removed', () => {
    const storage = memoryStorage()
    const now = 1_000 * DAY
    storage.setItem(KEY, JSON.stringify({ ...opened, savedAt: now - 31 * DAY }))
    expect(onboardingStore(storage, () => now).load()).toBeUndefined()
    expect(storage.getItem(KEY)).toBeNull()
    storage.setItem(KEY, JSON.stringify({ ...opened, savedAt: now - 29 * DAY }))
    expect(onboardingStore(storage, () => now).load()).toMatchObject({ accountId: 'acc_1' })
  })

  it('is cleared once the account is funded', () => {
    const { runner, store, storage } = effects({})
    store.save(opened)
    runner.run({ tag: 'result', record: opened, deliveredAmount: '50' })
    expect(storage.getItem(KEY)).toBeNull()
  })

  it('every resumed screen offers "Not you? Start over", which forgets the record', async () => {
    const storage = memoryStorage()
    const store = onboardingStore(storage, () => 0)
    store.save(opened)
    const resumed = init(emptyApplicant, undefined, store.load())
    const dispatch = vi.fn()
    render(<AccountScreen state={resumed as Extract<OnboardingState, { tag: 'tracking' }>} dispatch={dispatch} locale="en" />)
    fireEvent.click(screen.getByRole('button', { name: 'Not you? Start over' }))
    expect(dispatch).toHaveBeenCalledWith({ type: 'RESTART' })
    cleanup()
    const opening = init(emptyApplicant, undefined, { accountId: 'acc_1', walletId: 'wal_1' })
    render(<OpeningScreen state={opening as Extract<OnboardingState, { tag: 'opening' }>} dispatch={dispatch} />)
    expect(screen.getByRole('button', { name: 'Not you? Start over' })).toBeTruthy()
    const next = run(resumed, { type: 'RESTART' })
    expect(next).toMatchObject({ tag: 'wallet', form: emptyApplicant })
    const { runner } = effects({}, storage)
    runner.run(next)
    expect(storage.getItem(KEY)).toBeNull()
  })
})

describe('any 400 from /fiat/onboard spends the code', () => {
  const state: OnboardingState = { tag: 'details', form: filled, authCode: 'ac_1', errors: {}, work: 'submitting' }
  it('the code is never sent again, and the buyer goes back to identity with the message and their details', async () => {
    const post = vi.fn(async () => {
      throw new ApiError(400, 'KYC_DOCUMENT_EXPIRED', 'verify again with a valid document')
    })
    const { runner, used, events, clock } = effects({ post } as never)
    runner.run(state)
    await clock.settle()
    expect(used.has('ac_1')).toBe(true)
    const next = run(state, ...events)
    expect(next).toMatchObject({ tag: 'identity', form: filled })
    render(<IdentityStep state={next as Extract<OnboardingState, { tag: 'identity' }>} dispatch={() => {}} identityHref="https://id.example.com" />)
    expect(document.body.textContent).toContain('verify again with a valid document')
    const again = run(next, { type: 'AUTH_CODE', code: 'ac_2' })
    expect(again).toMatchObject({ tag: 'details', authCode: 'ac_2', form: filled })
  })

  it('a field the bank refused is marked when the buyer is back on the details', async () => {
    const post = vi.fn(async () => {
      throw new ApiError(400, 'INVALID_PHONE_NUMBER', 'applicantInfo.phone: must be in E.164 format')
    })
    const { runner, used, events, clock } = effects({ post } as never)
    runner.run(state)
    await clock.settle()
    expect(used.has('ac_1')).toBe(true)
    const back = run(state, ...events, { type: 'AUTH_CODE', code: 'ac_2' })
    expect(back).toMatchObject({ tag: 'details', authCode: 'ac_2', errors: { phone: 'server' } })
  })

  it('the typed details and the bank’s message survive the navigation to the identity provider and back', () => {
    const problem = { key: 'error.unknown' as const, code: 'INVALID_PHONE_NUMBER', detail: 'applicantInfo.phone: number is not reachable' }
    const storage = memoryStorage()
    identityDraft(storage).put({ form: filled, serverMessage: { field: 'phone', problem } })
    const draft = identityDraft(storage).take()
    expect(identityDraft(storage).take()).toBeUndefined() // read once
    const back = init(draft!.form, 'ac_2', undefined, draft!.serverMessage)
    expect(back).toMatchObject({ tag: 'details', authCode: 'ac_2', form: filled, errors: { phone: 'server' }, serverMessage: { field: 'phone', problem } })
  })

  it('a 5xx does not spend the code', async () => {
    const post = vi.fn(async () => {
      throw new ApiError(500, 'internal', '')
    })
    const { runner, used, events, clock } = effects({ post } as never)
    runner.run(state)
    await clock.settle()
    expect(used.has('ac_1')).toBe(false)
    expect(run(state, ...events)).toMatchObject({ tag: 'details', authCode: 'ac_1' })
  })
})

describe('the funded text names the delivered asset', () => {
  it('the asset the service names, never the configured destination', () => {
    render(<AccountScreen state={{ tag: 'result', record: opened, deliveredAmount: '49.5', deliveredAsset: 'EURC' }} dispatch={() => {}} locale="en" />)
    // What landed (no unit given), less the account's fee, goes on in the asset named.
    expect(document.body.textContent).toMatch(/Your transfer of 49\.5 arrived\. Less the [\d.]+% fee, it is converted and sent to your wallet as EURC\./)
  })
  it('no asset named: no USDC assumed', () => {
    render(<AccountScreen state={{ tag: 'result', record: opened, deliveredAmount: '49.5' }} dispatch={() => {}} locale="en" />)
    expect(document.body.textContent).not.toContain('USDC')
    expect(document.body.textContent).toContain('49.5')
  })
  it('the status answer carries the asset into the funded state', () => {
    const s = run({ tag: 'tracking', record: opened, attempt: 0 }, { type: 'TRACK', status: 'funded', deliveredAmount: '49.5', asset: 'EURC' })
    expect(s).toMatchObject({ tag: 'result', deliveredAsset: 'EURC' })
  })
})

describe('an unknown kycStatus is shown as it is', () => {
  it('manual_review is not called pending', () => {
    const s = run(
      { tag: 'details', form: filled, authCode: 'ac_1', errors: {}, work: 'submitting' },
      { type: 'ONBOARDED', accountId: 'acc_1', walletId: 'wal_1', kycStatus: 'manual_review' },
    )
    expect(s).toMatchObject({ tag: 'opening', kycStatus: 'manual_review' })
    render(<OpeningScreen state={s as Extract<OnboardingState, { tag: 'opening' }>} dispatch={() => {}} />)
    expect(document.body.textContent).toContain('manual_review')
    expect(document.body.textContent).not.toContain('still being reviewed')
  })
})

describe('a stored fee that cannot be shown', () => {
  for (const feeBps of [-1, 1e21, 1e-7]) {
    it(`a stored feeBps of ${feeBps} is not resumed`, () => {
      const storage = memoryStorage()
      storage.setItem(KEY, JSON.stringify({ ...opened, feeBps, savedAt: 0 }))
      expect(onboardingStore(storage, () => 0).load()).toBeUndefined()
    })
  }
})
