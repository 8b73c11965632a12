// Issue 39, item 20: the service asks a higher verification tier (422 requires_action) of the
// one-off deposit. The buyer goes back to the identity provider (tier=higher), onboards again with
// the new code and the same details, and the same request goes again: nothing typed is lost, and
// only the buyer it was asked of resumes it.
import { describe, expect, it } from 'vitest'
import type { LimitEntry, PaymentMethods } from '../../../../src/api/reference'
import * as tier from '../../../../src/flows/bankDeposit/higherTier'
import { type BankDepositEvent, type BankDepositState, type FormState, formState, initialState, transition } from '../../../../src/flows/bankDeposit/machine'
import { type Applicant, type IdentityState, emptyApplicant } from '../../../../src/identity/machine'

const ctx = {
  decimalMark: '.' as const,
  currencies: ['EUR', 'USD', 'GBP'],
  form: (country?: string) => ({ country: country ?? '', currency: 'EUR', amount: '' }),
  tier,
}
const account = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
const applicant: Applicant = {
  wallet: account.wallet,
  nationality: 'DE',
  country: 'DE',
  phone: '+49 151 23456789',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
}
const methods: PaymentMethods = {
  countries: {
    DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true },
    AT: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true },
  },
}
const limits: LimitEntry[] = [{ currency: 'EUR', rail: 'sepa_instant', direction: 'both', min: '1.00', max: '100000.00', settlement: 'instant' }]
const reference = { type: 'REFERENCE', data: { methods, limits } } as const
const requiresAction = { key: 'error.requiresAction' as const, code: 'requires_action' }
const step = (state: BankDepositState, ...events: BankDepositEvent[]) => events.reduce((s, e) => transition(s, e, ctx), state)

/** A buyer onboarded in this page asks for bank details in Austria (not their country of residence): refused for the tier. */
function refused(): BankDepositState {
  const details: BankDepositState = { tag: 'details', form: applicant, authCode: 'ac_basic', errors: {}, work: 'submitting' }
  const form = step(
    details,
    { type: 'ONBOARDED', ...account, kycStatus: 'approved' },
    reference,
    { type: 'EDIT', country: 'AT', amount: '75.00' },
    { type: 'SUBMIT' },
  )
  expect(form).toMatchObject({ tag: 'form', work: 'creating', checked: '75' })
  return step(form, { type: 'CREATE_FAILED', problem: requiresAction, requiresAction: true })
}

describe('a higher verification tier asked of the one-off deposit', () => {
  it('goes to the identity step with the service’s words, the details typed and the buyer’s wallet, the form carried along', () => {
    expect(refused()).toEqual({
      tag: 'identity',
      form: applicant,
      rejectedCode: false,
      serverMessage: { problem: requiresAction },
      pending: { tier: 'higher', buyer: account, form: { country: 'AT', currency: 'EUR', amount: '75.00' } },
    })
  })

  it('any other refusal stays on the form, as before', () => {
    const form = step(formState(account, { country: 'DE', currency: 'EUR', amount: '20' }), reference, { type: 'SUBMIT' })
    const problem = { key: 'error.server' as const }
    expect(step(form, { type: 'CREATE_FAILED', problem })).toMatchObject({ tag: 'form', work: 'idle', problem })
  })

  it('a buyer the service knew from before (nothing typed here) gets the details form for the new code', () => {
    const form = step(formState(account, { country: 'DE', currency: 'EUR', amount: '20' }), reference, { type: 'SUBMIT' })
    const identity = step(form, { type: 'CREATE_FAILED', problem: requiresAction, requiresAction: true })
    expect(identity).toMatchObject({ tag: 'identity', form: { ...emptyApplicant, wallet: account.wallet } })
    expect(step(identity, { type: 'AUTH_CODE', code: 'ac_higher' })).toMatchObject({ tag: 'details', work: 'idle', authCode: 'ac_higher' })
  })

  it('back from the provider with the new code: the details go again unasked, then the same request once the limits are here', () => {
    const pending = (refused() as { pending: object }).pending as Parameters<typeof initialState>[2]
    // The page loads again: the detour is found for the buyer it was asked of.
    const starting = initialState(undefined, { account, form: ctx.form('DE') }, pending)
    expect(starting).toEqual({ tag: 'starting', pending })
    // Where the identity steps are: back with the code, the details typed (the tab kept them).
    const back: IdentityState = { tag: 'details', form: applicant, authCode: 'ac_higher', errors: {}, work: 'idle' }
    const onboarding = step(starting, { type: 'IDENTITY_READY', identity: back })
    expect(onboarding).toMatchObject({ tag: 'details', work: 'submitting', authCode: 'ac_higher', pending })
    const form = step(onboarding, { type: 'ONBOARDED', ...account, kycStatus: 'approved' })
    // Nothing typed is lost: the country chosen (not the residence), the amount; asked again at once.
    expect(form).toMatchObject({ tag: 'form', account, form: { country: 'AT', currency: 'EUR', amount: '75.00' }, submitted: true, work: 'idle' })
    expect(step(form, reference)).toMatchObject({ tag: 'form', work: 'creating', checked: '75', form: { country: 'AT' } })
  })

  it('a code that arrives while the identity step shows (a frame message) onboards again at once, too', () => {
    expect(step(refused(), { type: 'AUTH_CODE', code: 'ac_higher' })).toMatchObject({ tag: 'details', work: 'submitting', authCode: 'ac_higher' })
  })

  it('details the service refuses on the way are asked, with the detour kept', () => {
    const back: IdentityState = { tag: 'details', form: { ...applicant, phone: '' }, authCode: 'ac_higher', errors: {}, work: 'idle' }
    const pending = (refused() as { pending: object }).pending as Parameters<typeof initialState>[2]
    expect(step({ tag: 'starting', pending }, { type: 'IDENTITY_READY', identity: back })).toMatchObject({ tag: 'details', work: 'idle', pending })
  })

  it('Back from the identity step: the form as it was (never the wallet step), not asked again', () => {
    const form = step(refused(), { type: 'BACK' })
    expect(form).toMatchObject({ tag: 'form', account, form: { country: 'AT', amount: '75.00' }, work: 'idle' })
    expect((form as FormState).submitted).toBeUndefined()
  })

  it('only the buyer it was asked of resumes it: another account starts afresh', () => {
    const pending = (refused() as { pending: object }).pending as Parameters<typeof initialState>[2]
    const other = { ...account, accountId: 'acc_2' }
    expect(initialState(undefined, { account: other, form: ctx.form('DE') }, pending)).toMatchObject({ tag: 'form', account: other })
    expect(initialState(undefined, undefined, pending)).toEqual({ tag: 'starting' })
  })

  it('without what was typed (no draft came back), the form as asked, for that buyer', () => {
    const pending = (refused() as { pending: object }).pending as Parameters<typeof initialState>[2]
    const wallet: IdentityState = { tag: 'wallet', form: emptyApplicant, connection: { tag: 'discovering' } }
    expect(step({ tag: 'starting', pending }, { type: 'IDENTITY_READY', identity: wallet })).toMatchObject({
      tag: 'form',
      account,
      form: { country: 'AT', amount: '75.00' },
    })
  })
})
