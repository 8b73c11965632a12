// @vitest-environment happy-dom
// The bank deposit's screens: the amount with its limits line and the virtual-account offer, the
// details for each rail with the deadline, expired never a loss, and the two ends.
import { cleanup, fireEvent, render } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readConfig } from '../../../../src/config/config'
import { type BankDepositState, type StoredDeposit, formState, transition } from '../../../../src/flows/bankDeposit/machine'
import { enBankDepositAmount } from '../../../../src/i18n/bankDeposit/en-amount'
import { enLimits } from '../../../../src/i18n/shared/en-limits'
import { addEnglish } from '../../../../src/i18n/i18n'
import { AmountScreen } from '../../../../src/screens/bankDeposit/AmountScreen'
import { FollowScreen, ResultScreen } from '../../../../src/screens/bankDeposit/DepositScreens'

addEnglish({ ...enBankDepositAmount, ...enLimits })
afterEach(cleanup)

const result = readConfig('?apiBase=https://api.example.com&partnerBase=https://p.example.com&locale=en&currencies=EUR,USD,BRL')
if (!result.ok) throw new Error(result.problem)
const config = result.config
const account = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
const data = {
  methods: {
    countries: {
      DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true },
      US: { currency: 'USD', bank_deposit: false, virtual_account: true, card: true },
      NG: { currency: 'NGN', bank_deposit: false, virtual_account: false, card: false },
    },
  },
  limits: [{ currency: 'EUR', rail: 'sepa_instant', direction: 'both' as const, min: '1.00', max: '100000.00', settlement: 'instant' }],
}
const ctx = { decimalMark: '.' as const, currencies: config.fiatCurrencies, form: () => ({ country: '', currency: 'EUR', amount: '' }) }
// The country as the buyer chose it (a default without a route is replaced: route.ts).
const at = (country: string, amount = '') =>
  transition(transition(formState(account, { country, currency: 'EUR', amount }), { type: 'REFERENCE', data }, ctx), { type: 'EDIT', country }, ctx) as Extract<
    BankDepositState,
    { tag: 'form' }
  >

describe('amount', () => {
  it('before the ways to pay arrive: the form works, the chosen country shows, and what was asked is sent once they come', () => {
    const dispatch = vi.fn()
    const waiting = formState(account, { country: 'DE', currency: 'EUR', amount: '' })
    const { getByLabelText, getByRole } = render(<AmountScreen state={waiting} dispatch={dispatch} config={config} />)
    expect(getByRole('status').textContent).toBe('Loading the ways to pay…')
    expect((getByLabelText('Country of your bank account') as HTMLSelectElement).value).toBe('DE')
    const amount = getByLabelText('Amount you send') as HTMLInputElement
    expect(amount.readOnly).toBe(false)
    fireEvent.input(amount, { target: { value: '25' } })
    expect(dispatch).toHaveBeenCalledWith({ type: 'EDIT', amount: '25' })
    const submit = getByRole('button', { name: 'Get bank details' }) as HTMLButtonElement
    expect(submit.disabled).toBe(false)
    fireEvent.click(submit)
    expect(dispatch).toHaveBeenCalledWith({ type: 'SUBMIT' })
  })

  it('shows the limits line under the amount, tied to the field', () => {
    const { container, getByLabelText } = render(<AmountScreen state={at('DE')} dispatch={() => {}} config={config} />)
    expect(container.textContent).toContain('SEPA Instant · usually instant · up to 100,000 EUR')
    expect(getByLabelText('Amount you send').getAttribute('aria-describedby')).toContain('deposit-limits')
  })

  it('a refused amount says the rail ceiling, next to the field', () => {
    const state = transition(at('DE', '100000.01'), { type: 'SUBMIT' }, ctx) as Extract<BankDepositState, { tag: 'form' }>
    const { getByLabelText, container } = render(<AmountScreen state={state} dispatch={() => {}} config={config} />)
    expect(getByLabelText('Amount you send').getAttribute('aria-invalid')).toBe('true')
    expect(container.querySelector('#deposit-amount-error')?.textContent).toBe('The largest transfer SEPA Instant takes is 100,000 EUR.')
  })

  it('where the one-off deposit is not offered: the virtual account instead, and no way to request details', () => {
    const open = vi.fn()
    const { container, getByRole, queryByRole } = render(<AmountScreen state={at('US')} dispatch={() => {}} config={config} onVirtualAccount={open} />)
    expect(container.textContent).toMatch(/not available for bank accounts in United States/)
    expect(queryByRole('button', { name: 'Get bank details' })).toBeNull()
    fireEvent.click(getByRole('button', { name: 'Get standing bank details' }))
    expect(open).toHaveBeenCalled()
  })

  it('where nothing is offered, says so', () => {
    const { container, queryByRole } = render(<AmountScreen state={at('NG')} dispatch={() => {}} config={config} onVirtualAccount={() => {}} />)
    expect(container.textContent).toContain('We cannot take bank transfers from Nigeria yet.')
    expect(queryByRole('button')).toBeNull()
  })
})

const sepa: StoredDeposit = {
  id: 'bd_1',
  rail: 'sepa_instant',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  details: { reference: 'SBX-1A2B', iban: 'DE89370400440532013000', bic: 'SBXBDEFFXXX', accountName: 'Sandbox Ltd' },
  currency: 'EUR',
  amount: '120',
  wallet: account.wallet,
  createdAt: 0,
}
const following = (deposit: StoredDeposit, status: string, extra = {}) =>
  ({ tag: 'tracking', deposit, status: { id: deposit.id, status, ...extra }, attempt: 0 }) as Extract<BankDepositState, { tag: 'tracking' }>

describe('details, per rail', () => {
  const rails: Array<[string, StoredDeposit, string[]]> = [
    ['SEPA', sepa, ['IBAN', 'DE89 3704 0044 0532 0130 00', 'BIC', 'SBXBDEFFXXX']],
    [
      'Faster Payments',
      { ...sepa, rail: 'faster_payments', currency: 'GBP', details: { reference: 'SBX-2', accountNumber: '40005001', sortCode: '040004' } },
      ['Account number', '40005001', 'Sort code', '040004'],
    ],
    ['SPEI', { ...sepa, rail: 'spei', currency: 'MXN', details: { reference: 'SBX-3', clabe: '646180000000050018' } }, ['CLABE', '646180000000050018']],
    [
      'PIX',
      { ...sepa, rail: 'pix', currency: 'BRL', details: { reference: 'SBX-4', pixKey: 'deposits@sandbox.example', pixPayload: '00020126' } },
      ['PIX key', 'deposits@sandbox.example', 'PIX copy-and-paste code'],
    ],
  ]
  it.each(rails)('%s: the reference first with its warning, the amount, the deadline, the labelled details', (_rail, deposit, expected) => {
    const { container } = render(<FollowScreen state={following(deposit, 'awaiting_funds')} dispatch={() => {}} locale="en" onRestart={() => {}} />)
    const text = container.textContent ?? ''
    expect(container.querySelector('h1')?.textContent).toBe('Send your bank transfer')
    expect(text.indexOf('Payment reference')).toBeLessThan(text.indexOf('Amount to send'))
    expect(text).toContain(deposit.details.reference)
    expect(text).toMatch(/Put this reference on your transfer exactly as shown/)
    expect(text).toMatch(/These details are valid for (29|30):\d\d\./)
    for (const piece of expected) expect(text).toContain(piece)
    expect(!!container.querySelector('svg')).toBe(deposit.rail === 'pix')
  })
})

describe('after the deadline and at the end', () => {
  it('expired is not a loss: a transfer already sent still arrives; new details offered', () => {
    const restart = vi.fn()
    const { container, getByRole } = render(<FollowScreen state={following(sepa, 'expired')} dispatch={() => {}} locale="en" onRestart={restart} />)
    const text = container.textContent ?? ''
    expect(text).toContain('If you sent the transfer before the deadline, nothing is lost: it still settles')
    expect(text).not.toMatch(/failed|lost your|cancelled/i)
    expect(text).not.toContain('DE89')
    fireEvent.click(getByRole('button', { name: 'Get new bank details' }))
    expect(restart).toHaveBeenCalled()
  })

  it('received and converting: a timeline with what arrived', () => {
    const { container } = render(
      <FollowScreen state={following(sepa, 'converting', { fiatAmount: '95.5' })} dispatch={() => {}} locale="en" onRestart={() => {}} />,
    )
    expect(container.textContent).toContain('Transfer received: 95.5 EUR')
    expect(container.querySelector('[aria-current="step"]')?.textContent).toContain('Converting to stablecoins')
  })

  const chain = { id: 42161, name: 'Arbitrum', explorerUrl: 'https://arbiscan.io' }
  it('settled: what arrived first, then what the wallet got in the asset the service names, and the transaction', () => {
    const hash = `0x${'c'.repeat(64)}`
    const state = {
      tag: 'result',
      deposit: sepa,
      status: { id: 'bd_1', status: 'settled', fiatAmount: '95.50', cryptoAmount: '102.766304', cryptoCurrency: 'EURC', settlementTxHash: hash },
    } as const
    const { container } = render(<ResultScreen state={state} locale="en" chain={chain} onRestart={() => {}} />)
    const text = container.textContent ?? ''
    expect(text.indexOf('95.5 EUR')).toBeLessThan(text.indexOf('102.766304 EURC'))
    expect(text).toContain('You asked for 120 EUR and 95.5 EUR arrived')
    expect(container.querySelector('a.tx')?.getAttribute('href')).toBe(`https://arbiscan.io/tx/${hash}`)
  })

  it('returned: the reason, and the money goes back minus the rail cost', () => {
    const state = { tag: 'result', deposit: sepa, status: { id: 'bd_1', status: 'returned', fiatAmount: '0.50', reason: 'below_minimum' } } as const
    const { container } = render(<ResultScreen state={state} locale="en" chain={chain} onRestart={() => {}} />)
    expect(container.textContent).toContain('Why: the amount was below the smallest transfer SEPA Instant takes.')
    expect(container.textContent).toContain('The money goes back to the account you sent it from, minus the cost of the SEPA Instant transfer.')
  })
})
