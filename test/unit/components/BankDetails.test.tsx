// @vitest-environment happy-dom
// Issue 17: the one-off deposit's details: the reference first with its warning, the exact amount,
// then every string field of `details` for each known rail (labelled; unknown keys readable), each
// with a copy button, and a PIX payload as a QR code. Server text is text.
import { cleanup, render, screen, within } from '@testing-library/preact'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { BankDepositDetails } from '../../../src/api/bankDeposit'
import { BankDetails, labelFromKey } from '../../../src/components/BankDetails'
import { enBankDeposit } from '../../../src/i18n/en-bankDeposit'
import { addEnglish } from '../../../src/i18n/i18n'

// The flow's chunk adds its English strings when it loads; this test renders the component alone.
beforeAll(() => addEnglish(enBankDeposit as unknown as Parameters<typeof addEnglish>[0]))
afterEach(cleanup)

const PIX =
  '00020101021226580014br.gov.bcb.pix0136deposits+7@sandbox.example52040000530398654061000.005802BR5913Sandbox Ltda6009SAO PAULO62140510SBXABC12363041D3F'

const RAILS: Array<[string, BankDepositDetails, string, Array<[string, string]>]> = [
  [
    'SEPA',
    { iban: 'DE89370400440532013000', bic: 'SBXBDEFFXXX', bankName: 'Sandbox Bank AG', accountName: 'Sandbox GmbH', reference: 'SBX-SEPA-1' },
    'EUR',
    [
      ['Account holder', 'Sandbox GmbH'],
      ['IBAN', 'DE89 3704 0044 0532 0130 00'],
      ['BIC', 'SBXBDEFFXXX'],
      ['Bank', 'Sandbox Bank AG'],
    ],
  ],
  [
    'UK Faster Payments',
    { accountNumber: '40000007', sortCode: '040004', bankName: 'Sandbox Bank UK', accountName: 'Sandbox Ltd', reference: 'SBX-UK-1' },
    'GBP',
    [
      ['Account holder', 'Sandbox Ltd'],
      ['Sort code', '040004'],
      ['Account number', '40000007'],
      ['Bank', 'Sandbox Bank UK'],
    ],
  ],
  [
    'SPEI',
    { clabe: '002010077777777771', bankName: 'Sandbox Banco MX', accountName: 'Sandbox SA', reference: 'SBX-MX-1' },
    'MXN',
    [
      ['Account holder', 'Sandbox SA'],
      ['CLABE', '002010077777777771'],
      ['Bank', 'Sandbox Banco MX'],
    ],
  ],
  [
    'PIX',
    { pixKey: 'deposits+7@sandbox.example', pixPayload: PIX, accountName: 'Sandbox Ltda', reference: 'SBX-PIX-1' },
    'BRL',
    [
      ['Account holder', 'Sandbox Ltda'],
      ['PIX key', 'deposits+7@sandbox.example'],
      ['PIX copy-and-paste code', PIX],
    ],
  ],
]

function rows(container: Element): Array<[string, string]> {
  return [...container.querySelectorAll('.copy-field')].map((row) => [row.querySelector('dt')!.textContent!, row.querySelector('.value')!.textContent!])
}

describe('BankDetails', () => {
  it.each(RAILS)('%s: the reference first, then the amount, then every detail with its label and a copy button', (_rail, details, currency, expected) => {
    const { container } = render(<BankDetails details={details} amount="1000.00" currency={currency} locale="en" />)
    const all = rows(container)
    expect(all[0]).toEqual(['Payment reference', details.reference])
    expect(all[1]).toEqual(['Amount to send', `1,000 ${currency}`])
    expect(all.slice(2)).toEqual(expected)
    for (const [label] of all) expect(screen.getByRole('button', { name: `Copy ${label}` })).toBeTruthy()
    // The warning sits right after the reference, before the amount.
    const warning = container.querySelector('.reference-warning')!
    expect(warning.textContent).toContain('exactly as shown')
    expect(warning.previousElementSibling?.textContent).toContain(details.reference)
    expect(container.querySelector('.copy-field.large')?.textContent).toContain(details.reference)
  })

  it('draws the PIX payload as a QR code named with the amount; no QR on other rails', () => {
    render(<BankDetails details={RAILS[3]![1]} amount="1000.00" currency="BRL" locale="en" />)
    const qr = screen.getByRole('img', { name: 'PIX QR code to pay 1,000 BRL' })
    expect(qr.tagName.toLowerCase()).toBe('svg')
    cleanup()
    render(<BankDetails details={RAILS[0]![1]} amount="1000.00" currency="EUR" locale="en" />)
    expect(screen.queryByRole('img')).toBeNull()
  })

  it('copies the IBAN without the spaces it is shown with, and the amount as the exact decimal', async () => {
    const copied: string[] = []
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (text: string) => void copied.push(text) }, configurable: true })
    render(<BankDetails details={{ iban: 'de89 3704 0044 0532 0130 00', reference: 'R-1' }} amount="1234.50" currency="EUR" locale="de" />)
    screen.getByRole('button', { name: 'Copy IBAN' }).click()
    screen.getByRole('button', { name: 'Copy Amount to send' }).click()
    await screen.findByText('IBAN copied')
    expect(copied).toEqual(['DE89370400440532013000', '1234.50'])
    expect(screen.getByText('DE89 3704 0044 0532 0130 00')).toBeTruthy()
    expect(screen.getByText('1.234,5 EUR')).toBeTruthy()
  })

  it('never drops a field: unknown keys get a readable label, after the known ones; values that are not strings are left out', () => {
    const details = {
      beneficiaryBankAddress: '1 Bank St',
      reference: 'R-2',
      bank_code: '058',
      accountNumber: '0123456789',
      intermediary: { name: 'x' },
      amount: 12,
    } as unknown as BankDepositDetails
    const { container } = render(<BankDetails details={details} amount="5" currency="NGN" locale="en" />)
    expect(rows(container)[0]).toEqual(['Payment reference', 'R-2'])
    expect(rows(container).slice(2)).toEqual([
      ['Account number', '0123456789'],
      ['Beneficiary bank address', '1 Bank St'],
      ['Bank code', '058'],
    ])
  })

  it('renders server text as text', () => {
    const hostile = '<img src=x onerror="alert(1)">'
    const details = { reference: hostile, note: hostile, pixPayload: hostile } as BankDepositDetails
    const { container } = render(<BankDetails details={details} amount="1" currency="BRL" locale="en" />)
    expect(container.querySelector('img')).toBeNull()
    expect(within(container as HTMLElement).getAllByText(hostile).length).toBe(3)
  })

  it('shows the countdown it is given, after the amount and before the details', () => {
    const { container } = render(
      <BankDetails
        details={{ reference: 'R-3', iban: 'DE89370400440532013000' }}
        amount="10"
        currency="EUR"
        locale="en"
        countdown={<p class="countdown">Details valid for 29:59</p>}
      />,
    )
    const countdown = container.querySelector('.countdown')!
    const order = [...container.querySelectorAll('.copy-field, .countdown')].map((el) => (el === countdown ? 'countdown' : el.querySelector('dt')!.textContent))
    expect(order).toEqual(['Payment reference', 'Amount to send', 'countdown', 'IBAN'])
  })

  it('labels from keys', () => {
    expect(labelFromKey('beneficiaryBankAddress')).toBe('Beneficiary bank address')
    expect(labelFromKey('bank_code')).toBe('Bank code')
    expect(labelFromKey('ifsc')).toBe('Ifsc')
  })
})
