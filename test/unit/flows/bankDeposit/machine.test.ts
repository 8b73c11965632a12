// The one-off bank deposit's machine: the amount (country, limits before any request), every
// status, expired → received, resume, and the identity steps composed in front.
import { describe, expect, it } from 'vitest'
import type { LimitEntry, PaymentMethods } from '../../../../src/api/reference'
import {
  type BankDepositEvent,
  type BankDepositState,
  type StatusView,
  type StoredDeposit,
  formState,
  initialState,
  transition,
} from '../../../../src/flows/bankDeposit/machine'
import { type IdentityState, emptyApplicant } from '../../../../src/identity/machine'

const ctx = {
  decimalMark: '.' as const,
  currencies: ['EUR', 'USD', 'GBP', 'BRL'],
  form: (country?: string) => ({ country: country ?? '', currency: 'EUR', amount: '' }),
}
const walletStep: IdentityState = { tag: 'wallet', form: emptyApplicant, connection: { tag: 'discovering' } }
/** A deposit kept in storage, resumed at its last known status. */
const resumeState = (deposit: StoredDeposit, status: StatusView) => initialState({ deposit, status })
const account = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
const methods: PaymentMethods = {
  countries: {
    DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true },
    BR: { currency: 'BRL', bank_deposit: true, virtual_account: true, card: true },
    US: { currency: 'USD', bank_deposit: false, virtual_account: true, card: true },
  },
}
const limits: LimitEntry[] = [
  { currency: 'EUR', rail: 'sepa_instant', direction: 'both', min: '1.00', max: '100000.00', settlement: 'instant' },
  { currency: 'EUR', rail: 'sepa', direction: 'payout', min: '1.00', max: null, settlement: 't+1' },
  { currency: 'BRL', rail: 'pix', direction: 'both', min: '1.00', max: null, settlement: 'instant' },
]
const deposit: StoredDeposit = {
  id: 'bd_1',
  rail: 'sepa_instant',
  expiresAt: '2026-11-23T13:00:00Z',
  details: { reference: 'SBX-1', iban: 'DE89370400440532013000' },
  currency: 'EUR',
  amount: '120.00',
  wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  createdAt: 0,
}
const status = (s: StatusView['status'], extra: Partial<StatusView> = {}): StatusView => ({ id: 'bd_1', status: s, ...extra })
const step = (state: BankDepositState, ...events: BankDepositEvent[]) => events.reduce((s, e) => transition(s, e, ctx), state)
// The country as the buyer chose it (a default without a route is replaced: route.ts).
const ready = (amount = '', country = 'DE') => {
  const s = step(formState(account, { country: 'DE', currency: 'EUR', amount }), { type: 'REFERENCE', data: { methods, limits } })
  return country === 'DE' ? s : step(s, { type: 'EDIT', country })
}

describe('amount', () => {
  // Issue 19: the form does not wait for the reference data; an amount asked for before it is
  // checked against it (country, limits) when it comes, and only then created.
  it('SUBMIT before the reference data is kept, and answered once it comes', () => {
    const s = step(formState(account, { country: 'DE', currency: 'EUR', amount: '10' }), { type: 'SUBMIT' })
    expect(s).toMatchObject({ submitted: true, work: 'idle' })
    expect(step(s, { type: 'REFERENCE', data: { methods, limits } })).toMatchObject({ work: 'creating', checked: '10', submitted: undefined })
  })

  it('before the reference data: an unreadable amount or no country is said at once; over the limit once the limits come', () => {
    expect(step(formState(account, { country: 'DE', currency: 'EUR', amount: '1,2,3' }), { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'amount' } })
    expect(step(formState(account, { country: '', currency: 'EUR', amount: '10' }), { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'country' } })
    const over = step(
      formState(account, { country: 'DE', currency: 'EUR', amount: '100000.01' }),
      { type: 'SUBMIT' },
      { type: 'REFERENCE', data: { methods, limits } },
    )
    expect(over).toMatchObject({ work: 'idle', error: { kind: 'limit' } })
  })

  it('a country without the one-off deposit, a currency the country changed, an edit or a failed load: nothing is created', () => {
    const asked = (country: string, currency = 'EUR') => step(formState(account, { country, currency, amount: '10' }), { type: 'SUBMIT' })
    expect(step(asked('US', 'USD'), { type: 'REFERENCE', data: { methods, limits } })).toMatchObject({ work: 'idle' })
    // BR pays in BRL: the buyer typed EUR, sees the change, and asks again.
    expect(step(asked('BR'), { type: 'REFERENCE', data: { methods, limits } })).toMatchObject({ work: 'idle', form: { currency: 'BRL' } })
    expect(step(asked('DE'), { type: 'EDIT', amount: '11' }, { type: 'REFERENCE', data: { methods, limits } })).toMatchObject({ work: 'idle' })
    const failed = step(asked('DE'), { type: 'REFERENCE_FAILED', problem: { key: 'error.network' } })
    expect(failed).toMatchObject({ submitted: undefined, loadProblem: { key: 'error.network' } })
    expect(step(failed, { type: 'RELOAD' }, { type: 'REFERENCE', data: { methods, limits } })).toMatchObject({ work: 'idle' })
  })

  it("a country's currency is chosen for the buyer when this embedding takes it", () => {
    const s = step(ready('', ''), { type: 'EDIT', country: 'BR' })
    expect(s).toMatchObject({ form: { country: 'BR', currency: 'BRL' } })
    expect(step(ready('', ''), { type: 'EDIT', country: 'US' })).toMatchObject({ form: { currency: 'USD' } })
  })

  it('asks for a country first', () => {
    expect(step(ready('10', ''), { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'country' }, work: 'idle' })
  })

  it('no request where the one-off deposit is not offered (the screen offers the virtual account)', () => {
    const s = ready('10', 'US')
    expect(step(s, { type: 'SUBMIT' })).toBe(s)
  })

  it('refuses an amount over the rail ceiling before any request, keeping what was typed', () => {
    const s = step(ready('100000.01'), { type: 'SUBMIT' })
    expect(s).toMatchObject({
      work: 'idle',
      form: { amount: '100000.01' },
      error: { kind: 'limit', check: { problem: 'above_max', limit: '100000.00', rail: 'sepa_instant' } },
    })
  })

  it('refuses below the rail minimum, and a malformed amount', () => {
    expect(step(ready('0.50'), { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'limit', check: { problem: 'below_min', limit: '1.00' } } })
    expect(step(ready('1.234'), { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'amount', problem: 'decimals' } })
    expect(step(ready(''), { type: 'SUBMIT' })).toMatchObject({ error: { kind: 'amount', problem: 'empty' } })
  })

  it('the ceiling itself, and a rail with no ceiling (null), go on to create', () => {
    expect(step(ready('100000'), { type: 'SUBMIT' })).toMatchObject({ work: 'creating', checked: '100000' })
    const brl = step(ready('', 'BR'), { type: 'EDIT', amount: '9999999' }, { type: 'SUBMIT' })
    expect(brl).toMatchObject({ work: 'creating', checked: '9999999', form: { currency: 'BRL' } })
  })

  it('no limit known for a currency is no limit: the service has the last word', () => {
    const s = step(ready('5000000'), { type: 'EDIT', currency: 'GBP' }, { type: 'SUBMIT' })
    expect(s).toMatchObject({ work: 'creating' })
  })

  it('reads amounts in the locale: a comma in German', () => {
    const s = transition(ready('1234,50'), { type: 'SUBMIT' }, { ...ctx, decimalMark: ',' })
    expect(s).toMatchObject({ work: 'creating', checked: '1234.5' })
  })

  it('a failed create keeps the form; a partner reference then pins the amount', () => {
    const creating = step(ready('20'), { type: 'SUBMIT' })
    const failed = step(creating, { type: 'CREATE_FAILED', problem: { key: 'error.server', code: 'internal' }, pinned: true })
    expect(failed).toMatchObject({ work: 'idle', problem: { code: 'internal' }, pinned: true, form: { amount: '20' } })
    expect(step(failed, { type: 'EDIT', amount: '30' })).toMatchObject({ form: { amount: '20' }, problem: undefined })
  })

  it('edits are ignored while creating', () => {
    const creating = step(ready('20'), { type: 'SUBMIT' })
    expect(step(creating, { type: 'EDIT', amount: '30' })).toBe(creating)
  })

  it('reference data that fails to load is retried on RELOAD', () => {
    const failed = step(formState(account, { country: 'DE', currency: 'EUR', amount: '' }), { type: 'REFERENCE_FAILED', problem: { key: 'error.network' } })
    expect(failed).toMatchObject({ loadProblem: { key: 'error.network' }, loads: 0 })
    expect(step(failed, { type: 'RELOAD' })).toMatchObject({ loadProblem: undefined, loads: 1 })
  })

  it('CREATED follows the deposit at the status the service gave (a retry may find it moved on)', () => {
    const creating = step(ready('120'), { type: 'SUBMIT' })
    expect(step(creating, { type: 'CREATED', deposit, status: status('awaiting_funds') })).toMatchObject({
      tag: 'tracking',
      attempt: 0,
      status: { status: 'awaiting_funds' },
    })
    expect(step(creating, { type: 'CREATED', deposit, status: status('settled') })).toMatchObject({ tag: 'result' })
  })
})

describe('following', () => {
  const following = resumeState(deposit, status('awaiting_funds'))

  it('every status: awaiting_funds → received → converting → settled', () => {
    const received = step(following, { type: 'TRACK', status: status('received', { fiatAmount: '95.50' }) })
    expect(received).toMatchObject({ tag: 'tracking', status: { status: 'received', fiatAmount: '95.50' } })
    const converting = step(received, { type: 'TRACK', status: status('converting', { fiatAmount: '95.50' }) })
    expect(converting).toMatchObject({ tag: 'tracking', status: { status: 'converting' } })
    const settled = step(converting, {
      type: 'TRACK',
      status: status('settled', { fiatAmount: '95.50', cryptoAmount: '102.76', cryptoCurrency: 'USDC', settlementTxHash: `0x${'a'.repeat(64)}` }),
    })
    expect(settled).toMatchObject({ tag: 'result', status: { status: 'settled', fiatAmount: '95.50', cryptoCurrency: 'USDC' } })
  })

  it('returned ends it, with the reason', () => {
    expect(step(following, { type: 'TRACK', status: status('returned', { fiatAmount: '0.50', reason: 'below_minimum' }) })).toMatchObject({
      tag: 'result',
      status: { status: 'returned', reason: 'below_minimum' },
    })
  })

  it('expired is followed, not an end, and expired → received goes on', () => {
    const expired = step(following, { type: 'TRACK', status: status('expired') })
    expect(expired).toMatchObject({ tag: 'tracking', status: { status: 'expired' } })
    expect(step(expired, { type: 'TRACK', status: status('received', { fiatAmount: '120.00' }) })).toMatchObject({
      tag: 'tracking',
      status: { status: 'received' },
    })
  })

  it('a new deposit only from expired details or the end, never under money in flight', () => {
    const restart: BankDepositEvent = { type: 'RESTART', account, form: { country: 'DE', currency: 'EUR', amount: '' } }
    expect(step(following, restart)).toBe(following)
    const received = step(following, { type: 'TRACK', status: status('received') })
    expect(step(received, restart)).toBe(received)
    expect(step(step(following, { type: 'TRACK', status: status('expired') }), restart)).toMatchObject({ tag: 'form', account })
    expect(step(resumeState(deposit, status('settled')), restart)).toMatchObject({ tag: 'form' })
  })

  it("another deposit's status is not this one's", () => {
    expect(step(following, { type: 'TRACK', status: { id: 'bd_2', status: 'settled' } })).toBe(following)
  })

  it('trouble while following: waiting, an error, a retry that polls again, another tab', () => {
    const waiting = step(following, { type: 'WAITING', waiting: true })
    expect(waiting).toMatchObject({ waiting: true })
    const failed = step(waiting, { type: 'TRACK_ERROR', problem: { key: 'error.server' } })
    expect(failed).toMatchObject({ waiting: false, problem: { key: 'error.server' } })
    expect(step(failed, { type: 'RETRY' })).toMatchObject({ problem: undefined, attempt: 1 })
    expect(step(following, { type: 'ELSEWHERE', tab: 'elsewhere' })).toMatchObject({ tab: 'elsewhere' })
    expect(step(failed, { type: 'TRACK', status: status('received') })).toMatchObject({ problem: undefined, status: { status: 'received' } })
  })
})

describe('resume', () => {
  it.each(['awaiting_funds', 'expired', 'received', 'converting'] as const)('at %s: followed again', (s) => {
    expect(resumeState(deposit, status(s))).toMatchObject({ tag: 'tracking', resumed: true, attempt: 0, status: { status: s } })
  })
  it.each(['settled', 'returned'] as const)('at %s: the end, without a poll', (s) => {
    expect(resumeState(deposit, status(s))).toMatchObject({ tag: 'result', status: { status: s } })
  })
})

describe('the identity steps in front', () => {
  it('starts where the buyer is: a kept deposit, the form for a buyer the service knows, else the identity steps', () => {
    const known = { account, form: ctx.form('DE') }
    expect(initialState()).toEqual({ tag: 'starting' })
    expect(initialState(undefined, known)).toMatchObject({ tag: 'form', account, form: { country: 'DE' }, work: 'idle' })
    expect(initialState(undefined, { ...known, pinned: true })).toMatchObject({ tag: 'form', pinned: true })
    expect(initialState({ deposit, status: status('received') }, known)).toMatchObject({ tag: 'tracking', resumed: true })
  })
  it('a buyer the service does not know waits for where their identity steps begin, then takes them', () => {
    const starting = initialState()
    expect(transition(starting, { type: 'IDENTITY_READY', identity: walletStep }, ctx)).toBe(walletStep)
    expect(transition(starting, { type: 'SUBMIT' }, ctx)).toBe(starting)
    expect(transition(starting, { type: 'EDIT', amount: '5' }, ctx)).toBe(starting)
    // Once begun, a late IDENTITY_READY changes nothing.
    expect(transition(walletStep, { type: 'IDENTITY_READY', identity: { tag: 'identity', form: emptyApplicant } }, ctx)).toBe(walletStep)
  })
  it('onboarded goes to the form, for the country the buyer gave', () => {
    const details: BankDepositState = {
      tag: 'details',
      form: { ...emptyApplicant, wallet: account.wallet, country: 'DE' },
      authCode: 'ac_1',
      errors: {},
      work: 'submitting',
    }
    const next = transition(details, { type: 'ONBOARDED', accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }, ctx)
    expect(next).toMatchObject({ tag: 'form', account: { accountId: 'acc_9', walletId: 'w_9', wallet: account.wallet }, form: { country: 'DE' } })
  })
  it('the identity steps take their own events', () => {
    const typed = step(walletStep, { type: 'EDIT', field: 'wallet', value: account.wallet })
    expect(step(typed, { type: 'SUBMIT_WALLET' })).toMatchObject({ tag: 'identity', form: { wallet: account.wallet } })
  })
  it("the amount's EDIT (a partner's live update) never reaches the identity form", () => {
    const details: BankDepositState = { tag: 'details', form: { ...emptyApplicant, wallet: account.wallet }, authCode: 'ac_1', errors: {}, work: 'idle' }
    expect(transition(details, { type: 'EDIT', amount: '5' }, ctx)).toBe(details)
    expect(transition(details, { type: 'EDIT', field: 'name', value: 'Ada' }, ctx)).toMatchObject({ form: { name: 'Ada' } })
  })
  it("deposit events do nothing to an identity step, nor the identity form's EDIT to the deposit's form", () => {
    expect(transition(walletStep, { type: 'SUBMIT' }, ctx)).toBe(walletStep)
    expect(transition(walletStep, { type: 'RESTART', account, form: ctx.form() }, ctx)).toBe(walletStep)
    const form = ready('10')
    expect(transition(form, { type: 'EDIT', field: 'name', value: 'Ada' }, ctx)).toBe(form)
  })
})
