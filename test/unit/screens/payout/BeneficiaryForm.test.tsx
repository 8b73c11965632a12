// @vitest-environment happy-dom
// Issue 31: the beneficiary form of every schema the payout's currency and country take, driven
// through the real machine: labels and hints tied to their inputs, each problem beside its field
// in the buyer's words, the service's refusal of a field beside that field, nothing typed lost.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact'
import axe from 'axe-core'
import { useState } from 'preact/hooks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PayoutQuote } from '../../../../src/api/payout'
import { emptyDraft } from '../../../../src/flows/payout/base'
import type { DestinationEvent } from '../../../../src/flows/payout/destination'
import { type PayoutState, transition } from '../../../../src/flows/payout/machine'
import { buyer, ctx, toDestination } from '../../helpers/payout'
import { BeneficiaryForm } from '../../../../src/screens/payout/BeneficiaryForm'

// No addEnglish here: the form brings its own words (it is a chunk of its own in the build).
afterEach(cleanup)
// axe reads every node, the country list's 250 options too: seconds on a loaded machine.
vi.setConfig({ testTimeout: 60_000 })

// The screen stamps SUBMIT with the real clock: the quote holds two hours from now.
const NOW = Date.now()

/** The quote screen for a payout in `currency` to `country` over `rail`, continued to the beneficiary. */
function mount(currency: string, country: string, rail: string) {
  const quote: PayoutQuote = {
    quoteId: 'bq_1',
    cryptoAmount: '20.000000',
    fiatAmount: '100.00',
    rate: '5',
    rail,
    estimatedSettlement: 'instant',
    providerFee: '1.00',
    ourFee: '0.50',
    expiresAt: new Date(NOW + 7_200_000).toISOString(),
  }
  const quoted: PayoutState = {
    tag: 'quote',
    buyer,
    funder: { sender: buyer.wallet },
    form: { kind: 'fiat', amount: '100', currency, country, rail: '' },
    draft: emptyDraft(),
    ask: { kind: 'fiat', amount: '100', currency, country },
    quote,
    quotedAt: NOW,
    work: 'idle',
  }
  const box: { state: PayoutState; dispatch: (e: DestinationEvent) => void } = {
    state: transition(quoted, { type: 'CONFIRM', now: NOW }, ctx),
    dispatch: () => {},
  }
  function Harness() {
    const [state, setState] = useState(box.state)
    box.state = state
    box.dispatch = (e) => setState((s) => transition(s, toDestination(e), ctx))
    return state.tag === 'beneficiary' ? <BeneficiaryForm state={state} dispatch={box.dispatch} locale="en-GB" /> : <p>{state.tag}</p>
  }
  render(<Harness />)
  return box
}

const type = (label: RegExp, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } })
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create the payout' }))
/** The buyer types each field's value, then presses Create the payout. */
const submitWith = (...fields: Array<[RegExp, string]>) => {
  for (const [label, value] of fields) type(label, value)
  submit()
}
/** The service answers the creation with 400 invalid_request, refusing the beneficiary's field `name`. */
const refused = (box: ReturnType<typeof mount>, name: string) =>
  act(() => box.dispatch({ type: 'CREATE_FAILED', problem: { key: 'error.invalid', code: 'invalid_request' }, field: { name, problem: { kind: 'refused' } } }))
const valueOf = (label: RegExp) => (screen.getByLabelText(label) as HTMLInputElement).value
/** The words the input's aria-describedby points at. */
const described = (label: RegExp) =>
  (screen.getByLabelText(label).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' | ')

async function axeViolations() {
  const result = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } })
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)
}

describe('bank_uk (GBP to GB)', () => {
  it('sort code typed 12-34-56, 8-digit account: the problem beside its field, then sent as digits', async () => {
    const box = mount('GBP', 'GB', 'faster_payments')
    expect(screen.getByText('UK bank account (Faster Payments, GBP)')).toBeTruthy()
    submitWith([/Account holder name/, 'Jane Smith'], [/Sort code/, '08-99-99'], [/Account number/, '6637 495'])
    expect(screen.getByLabelText(/Account number/).getAttribute('aria-invalid')).toBe('true')
    expect(described(/Account number/)).toContain('A UK account number has 8 digits.')
    expect(screen.getByLabelText(/Sort code/).getAttribute('aria-invalid')).toBeNull()
    // Keyboard and screen reader: the first field in trouble has the focus.
    expect(document.activeElement).toBe(screen.getByLabelText(/Account number/))
    expect(await axeViolations()).toEqual([])
    submitWith([/Account number/, '6637 4958'])
    expect(box.state).toMatchObject({ tag: 'beneficiary', work: 'creating' })
  })

  it('the service refusing the sort code: said beside it, the form kept', () => {
    const box = mount('GBP', 'GB', 'faster_payments')
    submitWith([/Account holder name/, 'Jane Smith'], [/Sort code/, '12 34 56'], [/Account number/, '12345678'])
    refused(box, 'sortCode')
    expect(described(/Sort code/)).toContain('The service refused this field.')
    expect(valueOf(/Sort code/)).toBe('12 34 56')
    expect(valueOf(/Account number/)).toBe('12345678')
    expect(valueOf(/Account holder name/)).toBe('Jane Smith')
    expect(document.activeElement).toBe(screen.getByLabelText(/Sort code/))
  })
})

describe('bank_br_pix (BRL to BR)', () => {
  it('a CPF key with a typo is said as one, with a word for a phone typed without +55', async () => {
    const box = mount('BRL', 'BR', 'pix')
    expect(described(/PIX key/)).toContain('registered under for PIX')
    submitWith([/Account holder name/, 'Ana Souza'], [/PIX key/, '111.444.777-53'])
    expect(described(/PIX key/)).toContain('This CPF’s last two digits don’t match: check the 11 digits. A phone number starts with +55.')
    expect(await axeViolations()).toEqual([])
    type(/PIX key/, 'ana.souza@example.com.br')
    expect(described(/PIX key/)).not.toContain('CPF’s last two digits')
    submit()
    expect(box.state).toMatchObject({ work: 'creating', draft: { schema: 'bank_br_pix' } })
  })

  it('the service refusing the key: beside it, nothing typed lost', () => {
    const box = mount('BRL', 'BR', 'pix')
    submitWith([/Account holder name/, 'Ana Souza'], [/PIX key/, '+55 11 98765-4321'])
    refused(box, 'pixKey')
    expect(described(/PIX key/)).toContain('The service refused this field.')
    expect(valueOf(/PIX key/)).toBe('+55 11 98765-4321')
  })
})

describe('bank_mexico (MXN to MX)', () => {
  it('a CLABE whose last digit does not match is said before anything is sent', async () => {
    const box = mount('MXN', 'MX', 'spei')
    const clabe = screen.getByLabelText(/CLABE/)
    expect(clabe.getAttribute('inputmode')).toBe('numeric')
    submitWith([/Account holder name/, 'Luis Pérez'], [/CLABE/, '032180000118359718'])
    expect(described(/CLABE/)).toContain('This CLABE’s last digit doesn’t match: check the 18 digits.')
    expect(box.state).toMatchObject({ work: 'idle' })
    expect(await axeViolations()).toEqual([])
    submitWith([/CLABE/, '032 180 00011835971 9'])
    expect(box.state).toMatchObject({ work: 'creating' })
  })
})

describe('mobile money and African banks', () => {
  it('KES over M-Pesa: mobile money alone (its rail takes no bank account); the number in E.164', async () => {
    const box = mount('KES', 'KE', 'mpesa')
    expect(screen.getByText('Mobile money').tagName).toBe('STRONG')
    expect(screen.queryAllByRole('radio')).toEqual([])
    expect(screen.queryByLabelText(/Bank code/)).toBeNull()
    const number = screen.getByLabelText(/Mobile money number/)
    expect(number.getAttribute('autocomplete')).toBe('tel')
    expect(number.getAttribute('inputmode')).toBe('tel')
    submitWith([/Account holder name/, 'Wanjiru Kamau'], [/Mobile money number/, '0712 345 678'])
    expect(described(/Mobile money number/)).toContain('Write the number with its country code')
    expect(await axeViolations()).toEqual([])
    submitWith([/Mobile money number/, '+254 712 345 678'])
    expect(box.state).toMatchObject({ work: 'creating', draft: { schema: 'momo_africa' } })
  })

  it('NGN over NIP: the bank account alone, never mobile money, which the service refuses on a bank rail', () => {
    const box = mount('NGN', 'NG', 'nip')
    expect(screen.getByText(/Bank account in Africa/).tagName).toBe('STRONG')
    expect(screen.queryAllByRole('radio')).toEqual([])
    expect(screen.queryByText('Mobile money')).toBeNull()
    expect(screen.queryByLabelText(/Mobile money number/)).toBeNull()
    submitWith([/Account holder name/, 'Chidi Okafor'], [/Bank code/, '058'], [/Account number/, '0123456789'], [/Name on the account/, 'Chidi Okafor'])
    expect(box.state).toMatchObject({ work: 'creating', draft: { schema: 'bank_africa' } })
  })

  it('NGN over its mobile money rail (chosen on the payout form): mobile money alone', () => {
    const box = mount('NGN', 'NG', 'mobile_money')
    expect(screen.getByText('Mobile money').tagName).toBe('STRONG')
    expect(screen.queryByLabelText(/Bank code/)).toBeNull()
    submitWith([/Account holder name/, 'Chidi Okafor'], [/Mobile money number/, '+234 803 123 4567'])
    expect(box.state).toMatchObject({ work: 'creating', draft: { schema: 'momo_africa' } })
  })

  it('the service refusing the schema itself: the buyer is told to go back and choose another way, nothing typed lost', () => {
    const box = mount('NGN', 'NG', 'nip')
    submitWith([/Account holder name/, 'Chidi Okafor'], [/Bank code/, '058'], [/Account number/, '0123456789'], [/Name on the account/, 'Chidi Okafor'])
    refused(box, 'schema')
    expect(screen.getByText(/Payouts over NIP go to a kind of account we do not offer yet\. Go back/)).toBeTruthy()
    expect(screen.queryByText(/Check it against your bank statement/)).toBeNull()
    expect(valueOf(/Account number/)).toBe('0123456789')
  })
})

describe('the schemas offered before (unchanged)', () => {
  it.each([
    ['EUR', 'DE', 'sepa_instant', 'Bank account in Europe (SEPA, EUR)', /IBAN/],
    ['USD', 'US', 'ach', 'US bank account (ACH or wire, USD)', /Routing number/],
    ['USD', 'DE', 'swift', 'International bank transfer (SWIFT, USD)', /SWIFT \/ BIC code/],
    ['USD', 'US', 'stablecoin', 'Stablecoin wallet', /Wallet address/],
  ])('%s to %s over %s: %s', async (currency, country, rail, schema, field) => {
    mount(currency, country, rail)
    expect(screen.getByText(schema)).toBeTruthy()
    expect(screen.getByLabelText(field)).toBeTruthy()
    expect(screen.queryByRole('radio')).toBeNull()
    expect(await axeViolations()).toEqual([])
  })

  it('a currency no schema serves: said, with the way back', () => {
    mount('JPY', 'JP', 'zengin')
    expect(screen.getByText(/go to a kind of account we do not offer yet/)).toBeTruthy()
    expect(screen.queryByText(/Not offered yet/)).toBeNull()
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy()
  })
})
