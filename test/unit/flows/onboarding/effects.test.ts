// The bank (virtual account) flow's effects with a fake clock and a fake service: the identity
// steps' onboarding call as the flow composes it, the account opening with its KYC recheck, and the
// slow funding poll.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../../src/errors/ApiError'
import { describeError } from '../../../../src/errors/describeError'
import { type OnboardingDeps, createOnboardingEffects } from '../../../../src/flows/onboarding/effects'
import { slowPolling } from '../../../../src/flows/onboarding/tracking'
import { type OnboardingEvent, type OnboardingState, transition } from '../../../../src/flows/onboarding/machine'
import { onboardingStore } from '../../../../src/flows/onboarding/persisted'
import { buyerAccount } from '../../../../src/identity/account'
import type { Applicant } from '../../../../src/identity/machine'
import { usedAuthCodes } from '../../../../src/identity/usedCodes'
import { driveFlow } from '../../helpers/driveFlow'
import { type FakeApi, fakeApi, inTurn } from '../../helpers/fakeApi'
import { type FakeClock, createFakeClock, expectNextPollAfter, until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import { useFakeQueryTime } from '../../helpers/queryTime'
import { configFrom } from '../../helpers/links'

const START = Date.parse('2026-11-23T12:00:00Z')
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const timings = { pollMs: 1_000, dropCheckMs: 500, kycRecheckMs: 2_000, bankPollMs: 5_000, backoffBaseMs: 100 }
const baseConfig = configFrom({ apiBase: 'http://127.0.0.1:8787' })
const applicant: Applicant = {
  wallet: ` ${WALLET} `,
  nationality: 'DE',
  country: 'DE',
  phone: '+49 30 1234567',
  name: ' Ada Lovelace ',
  email: 'ada@example.com',
}
const account = { id: 'va-1', details: { iban: 'DE89370400440532013000', bankName: 'Test Bank', routing: 5 }, applicationFeeBps: 50, asset: 'USDC' }

let clock: FakeClock
let api: FakeApi
let driver: { dispose(): void } | undefined

beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  api = fakeApi()
})
afterEach(() => {
  driver?.dispose()
  driver = undefined
})

function drive(start: OnboardingState, deps: Partial<OnboardingDeps> = {}) {
  const storage = memoryStorage()
  const accounts = buyerAccount(storage, clock.now)
  const usedCodes = usedAuthCodes(storage)
  const store = onboardingStore(storage, clock.now)
  const emit = vi.fn()
  const all: OnboardingDeps = { config: { ...baseConfig, timings }, api, store, identity: { api, accounts, usedCodes }, clock, emit: emit as never, ...deps }
  const d = driveFlow<OnboardingState, OnboardingEvent>(start, transition, (dispatch) => createOnboardingEffects(all, dispatch))
  driver = d
  return { ...d, store, accounts, usedCodes, emit }
}

const submitting = (authCode = 'code-1'): OnboardingState => ({ tag: 'details', form: applicant, authCode, errors: {}, work: 'submitting' })
const opening = (kycPending = false): OnboardingState => ({ tag: 'opening', record: { accountId: 'acc-1', walletId: 'w-1' }, kycPending, attempt: 0 })
const open = { accountId: 'acc-1', virtualAccountId: 'va-1', details: { iban: 'DE89370400440532013000' }, feeBps: 50 }

describe('onboarding (the identity steps as this flow composes them)', () => {
  it('ONBOARDED: the code is spent, the account saved; an approved buyer opens the account at once', async () => {
    api.answer('/fiat/onboard', () => ({ accountId: 'acc-1', walletId: 'w-1', kycStatus: 'approved' }))
    api.answer('/fiat/account', () => account)
    const d = drive(submitting())
    await until(() => d.state().tag === 'tracking', 'the account')
    // No category: the contract names only its default, which the service applies (issue 28, item 9).
    expect(api.to('/fiat/onboard')[0].body).toStrictEqual({
      authCode: 'code-1',
      applicantInfo: { nationality: 'DE', phone: '+49301234567' },
      individual: { name: 'Ada Lovelace', email: 'ada@example.com', country: 'DE' },
      wallet: WALLET,
    })
    expect(d.usedCodes.has('code-1')).toBe(true)
    expect(d.accounts.load()).toEqual({ accountId: 'acc-1', walletId: 'w-1', wallet: WALLET })
    expect(api.to('/fiat/account')[0].body).toEqual({ accountId: 'acc-1', walletId: 'w-1' })
    expect(d.types().slice(0, 2)).toEqual(['ONBOARDED', 'ACCOUNT_OPENED'])
  })

  it('a 400 spends the code (AuthCodeRejected) and names the field it refused (FieldRejected)', async () => {
    const refused = new ApiError(400, 'invalid_request', 'individual.email: not deliverable')
    api.answer('/fiat/onboard', inTurn(refused))
    const d = drive(submitting('code-2'))
    await until(() => d.types().includes('ONBOARD_FAILED'))
    const failed = d.last('ONBOARD_FAILED')
    expect(failed).toMatchObject({ field: 'email', codeSpent: true, problem: { key: 'error.invalid', code: 'invalid_request' } })
    expect(d.usedCodes.has('code-2')).toBe(true)
    expect(d.state()).toMatchObject({ tag: 'identity', rejectedCode: true, serverMessage: { field: 'email' } })
    expect(d.accounts.load()).toBeUndefined()
  })

  it('a 5xx keeps the code (not spent) and names no field: the buyer may submit again', async () => {
    const down = new ApiError(503, 'unavailable', 'down')
    api.answer('/fiat/onboard', inTurn(down))
    const d = drive(submitting('code-3'))
    await until(() => d.types().includes('ONBOARD_FAILED'))
    expect(d.last('ONBOARD_FAILED')).toEqual({ type: 'ONBOARD_FAILED', problem: describeError(down), field: undefined, codeSpent: false })
    expect(d.usedCodes.has('code-3')).toBe(false)
    expect(d.state()).toMatchObject({ tag: 'details', work: 'idle' })
  })

  it('"Not you?" forgets this flow\'s record and the buyer account', async () => {
    const d = drive(opening())
    d.store.save({ accountId: 'acc-1', walletId: 'w-1' })
    d.accounts.save({ accountId: 'acc-1', walletId: 'w-1', wallet: WALLET })
    driver?.dispose()
    const forgetting = drive({ tag: 'wallet', form: applicant, connection: { tag: 'discovering' }, forget: true })
    expect(forgetting.store.load()).toBeUndefined()
    expect(forgetting.accounts.load()).toBeUndefined()
  })
})

describe('opening the account', () => {
  it('keeps the ids before asking, then the account with its string details, and tells the embedding', async () => {
    api.answer('/fiat/account', () => account)
    const d = drive(opening())
    await until(() => d.types().includes('ACCOUNT_OPENED'))
    expect(d.last('ACCOUNT_OPENED')).toEqual({
      type: 'ACCOUNT_OPENED',
      virtualAccountId: 'va-1',
      details: { iban: 'DE89370400440532013000', bankName: 'Test Bank' },
      feeBps: 50,
      asset: 'USDC',
    })
    expect(d.store.load()).toMatchObject({ accountId: 'acc-1', virtualAccountId: 'va-1', feeBps: 50 })
    expect(d.emit).toHaveBeenCalledWith('account', expect.objectContaining({ virtualAccountId: 'va-1', feeBps: 50 }))
  })

  it('KYC pending: ACCOUNT_PENDING, then a recheck after config.timings.kycRecheckMs (not before)', async () => {
    api.answer('/fiat/account', inTurn(new ApiError(409, 'kyc_pending', 'still checking'), new ApiError(409, 'kyc_pending', 'still checking'), account))
    const d = drive(opening(true))
    await until(() => d.types().includes('ACCOUNT_PENDING'))
    expect(d.state()).toMatchObject({ tag: 'opening', kycPending: true, attempt: 1 })
    await clock.advance(1_999)
    expect(api.to('/fiat/account')).toHaveLength(1)
    await clock.advance(1)
    await until(() => api.to('/fiat/account').length === 2)
    await until(() => d.types().filter((t) => t === 'ACCOUNT_PENDING').length === 2)
    await clock.advance(2_000)
    await until(() => d.state().tag === 'tracking')
    expect(api.to('/fiat/account')).toHaveLength(3)
  })

  it('deps.kycRecheckMs overrides the config', async () => {
    api.answer('/fiat/account', inTurn(new ApiError(409, 'kyc_pending', ''), account))
    const d = drive(opening(true), { kycRecheckMs: 300 })
    await until(() => d.types().includes('ACCOUNT_PENDING'))
    await clock.advance(300)
    await until(() => d.state().tag === 'tracking')
  })

  it('a failure is ACCOUNT_FAILED with its words and waits for the buyer; RETRY asks again at once', async () => {
    const error = new ApiError(500, 'internal', 'boom')
    api.answer('/fiat/account', inTurn(error, account))
    const d = drive(opening())
    await until(() => d.types().includes('ACCOUNT_FAILED'))
    expect(d.state()).toMatchObject({ tag: 'opening', problem: describeError(error) })
    await clock.advance(600_000)
    expect(api.to('/fiat/account')).toHaveLength(1)
    d.dispatch({ type: 'RETRY' })
    await until(() => d.state().tag === 'tracking')
  })
})

describe('funding', () => {
  const following = (): OnboardingState => ({ tag: 'tracking', record: open, attempt: 0 })

  it('slowPolling: 15 s, then half as long again each time, at most 2 minutes', () => {
    expect([1, 2, 3, 4, 10].map(slowPolling)).toEqual([15_000, 22_500, 33_750, 50_625, 120_000])
    expect(slowPolling(0)).toBe(15_000)
  })

  it('polls every config.timings.bankPollMs until funded with an amount, then clears the record', async () => {
    api.answer('/fiat/status', inTurn({ status: 'awaiting_funds' }, { status: 'funded' }, { status: 'funded', deliveredAmount: '99.5', asset: 'USDC' }))
    const d = drive(following())
    d.store.save(open)
    await until(() => api.to('/fiat/status').length === 1, 'the first poll')
    expect(api.to('/fiat/status')[0]).toMatchObject({ body: { accountId: 'acc-1', virtualAccountId: 'va-1' }, priority: 'poll' })
    await expectNextPollAfter(clock, () => api.to('/fiat/status').length, 5_000)
    await clock.advance(5_000)
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', deliveredAmount: '99.5', deliveredAsset: 'USDC' })
    expect(d.store.load()).toBeUndefined()
  })

  it('without timings, the production backoff: 15 s, 22.5 s, 33.75 s apart', async () => {
    api.answer('/fiat/status', () => ({ status: 'awaiting_funds' }))
    const d = drive(following(), { config: baseConfig })
    await until(() => api.to('/fiat/status').length === 1, 'the first poll')
    const at: number[] = []
    for (let i = 0; i < 72_000; i += 250) {
      const before = api.calls.length
      await clock.advance(250)
      if (api.calls.length > before) at.push(clock.now() - START)
    }
    expect(at).toEqual([15_000, 37_500, 71_250])
    expect(d.types().every((t) => t === 'TRACK' || t === 'ELSEWHERE')).toBe(true)
  })

  it('deps.pollIntervalMs is asked with the number of polls so far', async () => {
    api.answer('/fiat/status', () => ({ status: 'awaiting_funds' }))
    const interval = vi.fn((polls: number) => polls * 1_000)
    drive(following(), { pollIntervalMs: interval })
    await until(() => api.to('/fiat/status').length === 1, 'the first poll')
    await clock.advance(1_000)
    expect(api.to('/fiat/status')).toHaveLength(2)
    await clock.advance(1_999)
    expect(api.to('/fiat/status')).toHaveLength(2)
    await clock.advance(1)
    expect(api.to('/fiat/status')).toHaveLength(3)
    expect(interval).toHaveBeenCalledWith(2)
  })

  it('a 4xx is TRACK_ERROR; retryable trouble is WAITING', async () => {
    api.answer('/fiat/status', inTurn(new ApiError(502, 'upstream_error', ''), { status: 'awaiting_funds' }, new ApiError(404, 'not_found', 'gone')))
    const d = drive(following(), { pollIntervalMs: () => 1_000 })
    await until(() => d.types().includes('WAITING'))
    await clock.advance(10_000)
    await until(() => d.types().includes('TRACK_ERROR'))
    expect(d.types().filter((t) => t !== 'ELSEWHERE')).toEqual(['WAITING', 'TRACK', 'TRACK_ERROR'])
    expect(d.state()).toMatchObject({ tag: 'tracking', problem: { code: 'not_found' } })
  })
})
