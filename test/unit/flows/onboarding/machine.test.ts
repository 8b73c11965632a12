import { describe, expect, it } from 'vitest'
import { type OnboardingEvent, type OnboardingState, emptyApplicant, initialState, stepOf, transition } from '../../../../src/flows/onboarding/machine'
import { validateApplicant } from '../../../../src/identity/machine'
import { initialIdentity } from '../../../../src/identity/machine'
import type { Applicant, ServerMessage, StoredAccount } from '../../../../src/flows/onboarding/machine'
import { WALLET, filledApplicant } from '../../helpers/applicant'

/** The flow's start as the entry composes it: the identity steps' start, or a saved record. */
const init = (form: Applicant, code?: string, resume?: StoredAccount, refused?: ServerMessage) => initialState(initialIdentity(form, code, refused), resume)

const run = (s: OnboardingState, ...events: OnboardingEvent[]) => events.reduce((state, e) => transition(state, e), s)
const filled = filledApplicant
const details = (): OnboardingState => ({ tag: 'details', form: filled, authCode: 'ac_1', errors: {}, work: 'idle' })
const record = { accountId: 'acc_1', walletId: 'wal_1' }
const full = { ...record, virtualAccountId: 'va_1', details: { iban: 'DE89370400440532013000', reference: 'SBX-1' }, feeBps: 100 }

describe('onboarding machine', () => {
  it('starts where the buyer is: wallet, identity, details with a code, or the saved account', () => {
    expect(init(emptyApplicant).tag).toBe('wallet')
    expect(init({ ...emptyApplicant, wallet: WALLET }).tag).toBe('identity')
    expect(init({ ...emptyApplicant, wallet: WALLET }, 'ac_1')).toMatchObject({ tag: 'details', authCode: 'ac_1' })
    expect(init(emptyApplicant, 'ac_1', full)).toMatchObject({ tag: 'tracking', record: full })
    expect(init(emptyApplicant, undefined, record)).toMatchObject({ tag: 'opening', record })
  })

  it('validates the wallet and keeps what was typed', () => {
    const s = run(init(emptyApplicant), { type: 'EDIT', field: 'wallet', value: '0x12' }, { type: 'SUBMIT_WALLET' })
    expect(s).toMatchObject({ tag: 'wallet', error: 'address', form: { wallet: '0x12' } })
    expect(run(s, { type: 'EDIT', field: 'wallet', value: ` ${WALLET} ` }, { type: 'SUBMIT_WALLET' })).toMatchObject({
      tag: 'identity',
      form: { wallet: WALLET },
    })
  })

  it('marks each wrong field and loses nothing typed', () => {
    const bad = { ...filled, phone: '0151 234', email: 'ada@', nationality: 'XX', country: '' }
    expect(validateApplicant(bad)).toEqual({ phone: 'phone', email: 'email', nationality: 'country', country: 'required' })
    const s = run({ ...details(), form: bad } as OnboardingState, { type: 'SUBMIT' })
    expect(s).toMatchObject({ tag: 'details', work: 'idle', form: bad })
    const fixed = run(s, { type: 'EDIT', field: 'phone', value: '+49 151 23456789' })
    expect((fixed as Extract<OnboardingState, { tag: 'details' }>).errors.phone).toBeUndefined()
    expect((fixed as Extract<OnboardingState, { tag: 'details' }>).errors.email).toBe('email')
  })

  it('submits once; edits are ignored while submitting', () => {
    const s = run(details(), { type: 'SUBMIT' })
    expect(s).toMatchObject({ work: 'submitting' })
    expect(run(s, { type: 'SUBMIT' })).toBe(s)
    expect(run(s, { type: 'EDIT', field: 'name', value: 'x' })).toBe(s)
  })

  it('a banking-partner error marks its field and keeps the form', () => {
    const s = run(
      details(),
      { type: 'SUBMIT' },
      { type: 'ONBOARD_FAILED', problem: { key: 'error.unknown', code: 'INVALID_PHONE_NUMBER', detail: 'applicantInfo.phone: bad' }, field: 'phone' },
    )
    expect(s).toMatchObject({
      tag: 'details',
      work: 'idle',
      form: filled,
      errors: { phone: 'server' },
      serverMessage: { field: 'phone', problem: { code: 'INVALID_PHONE_NUMBER' } },
    })
  })

  it('a rejected auth code goes back to identity and drops the code', () => {
    const problem = { key: 'error.unknown', code: 'AUTH_CODE_USED' } as const
    const s = run(details(), { type: 'SUBMIT' }, { type: 'ONBOARD_FAILED', problem, codeSpent: true })
    expect(s).toEqual({ tag: 'identity', form: filled, rejectedCode: true, serverMessage: { field: undefined, problem } })
  })

  it('kycStatus: approved opens the account, pending waits, rejected stops', () => {
    const submitted = run(details(), { type: 'SUBMIT' })
    expect(run(submitted, { type: 'ONBOARDED', ...record, kycStatus: 'approved' })).toMatchObject({ tag: 'opening', kycPending: false })
    expect(run(submitted, { type: 'ONBOARDED', ...record, kycStatus: 'pending' })).toMatchObject({ tag: 'opening', kycPending: true })
    expect(run(submitted, { type: 'ONBOARDED', ...record, kycStatus: 'rejected' })).toMatchObject({ tag: 'rejected' })
    expect(run(submitted, { type: 'ONBOARDED', ...record, kycStatus: 'in_review' })).toMatchObject({ tag: 'opening', kycPending: true })
  })

  it('opens the account, then stays on it until funded with what was delivered', () => {
    const opening: OnboardingState = { tag: 'opening', record, kycPending: false, attempt: 0 }
    expect(run(opening, { type: 'ACCOUNT_PENDING' })).toMatchObject({ tag: 'opening', kycPending: true, attempt: 1 })
    const account = run(opening, { type: 'ACCOUNT_OPENED', virtualAccountId: 'va_1', details: full.details, feeBps: 100 })
    expect(account).toMatchObject({ tag: 'tracking', record: full })
    expect(run(account, { type: 'TRACK', status: 'awaiting_deposit' })).toBe(account)
    expect(run(account, { type: 'TRACK', status: 'funded' })).toBe(account) // funded without an amount is not credited
    expect(run(account, { type: 'TRACK', status: 'funded', deliveredAmount: '99.5' })).toEqual({ tag: 'result', record: full, deliveredAmount: '99.5' })
  })

  it('numbers the steps the header shows: wallet, identity, details (and the opening), the account', () => {
    const opening: OnboardingState = { tag: 'opening', record, kycPending: false, attempt: 0 }
    const states: OnboardingState[] = [
      init(emptyApplicant),
      init({ ...emptyApplicant, wallet: WALLET }),
      details(),
      opening,
      { tag: 'rejected', record },
      init(emptyApplicant, undefined, full),
      { tag: 'result', record: full, deliveredAmount: '1' },
    ]
    const steps = Object.fromEntries(states.map((s) => [s.tag, stepOf(s).step]))
    expect(steps).toEqual({ wallet: 1, identity: 2, details: 3, opening: 3, rejected: 3, tracking: 4, result: 4 })
    expect(stepOf(details()).of).toBe(4)
  })

  it('"Not you?" (RESTART) starts a resumed account over from nothing; one opened in this visit stays', () => {
    const resumed = init(emptyApplicant, undefined, full)
    expect(run(resumed, { type: 'RESTART' })).toEqual({ tag: 'wallet', form: emptyApplicant, connection: { tag: 'discovering' }, forget: true })
    const opened = run(
      { tag: 'opening', record, kycPending: false, attempt: 0 },
      { type: 'ACCOUNT_OPENED', virtualAccountId: 'va_1', details: full.details, feeBps: 100 },
    )
    expect(run(opened, { type: 'RESTART' })).toBe(opened)
  })
})
