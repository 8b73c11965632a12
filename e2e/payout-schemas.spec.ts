import { expect, test } from './helpers'
import { type Ask, type FieldInput, arrangeBuyer, beneficiary, fund, quote, sandboxPayouts, usdcBalance, usdcUnits, waitSettled } from './payoutSteps'

// Issue 31: a payout to each beneficiary schema, end to end: quoted, the beneficiary typed as a
// buyer would, funded with a real transfer on anvil, and settled; the sandbox holds the beneficiary
// exactly as the contract (and assumed-contract.md) names its fields.

type Case = {
  title: string
  /** anvil's account the buyer's wallet is. */
  account: number
  ask: Ask
  /** The rail the quote names, as the quote screen shows it. */
  rail: string
  /** The kind of account the beneficiary's form names for the quote's rail. */
  paidTo: string
  fields: FieldInput[]
  /** The beneficiary as the service received it. */
  sent: Record<string, unknown>
  purpose?: string
}

const holder = { label: 'Account holder name', value: 'Ada Lovelace' }

const cases: Case[] = [
  {
    title: 'EUR to a SEPA account (bank_sepa)',
    account: 1,
    ask: { currency: 'EUR', country: 'FR', amount: '20' },
    rail: 'SEPA Instant',
    paidTo: 'Bank account in Europe (SEPA, EUR)',
    fields: [
      holder,
      { label: 'Account type', value: 'business', choose: true },
      { label: 'First name', value: 'Ada' },
      { label: 'Last name', value: 'Lovelace' },
      { label: 'IBAN', value: 'fr14 2004 1010 0505 0001 3m02 606' },
    ],
    sent: { schema: 'bank_sepa', name: 'Ada Lovelace', accountType: 'business', firstName: 'Ada', lastName: 'Lovelace', IBAN: 'FR1420041010050500013M02606' },
  },
  {
    title: 'GBP to a UK account (bank_uk)',
    account: 2,
    ask: { currency: 'GBP', country: 'GB', amount: '25' },
    rail: 'Faster Payments',
    paidTo: 'UK bank account (Faster Payments, GBP)',
    fields: [holder, { label: 'Sort code', value: '20-00-00' }, { label: 'Account number', value: '5566 7788' }],
    sent: { schema: 'bank_uk', name: 'Ada Lovelace', sortCode: '200000', accountNumber: '55667788' },
  },
  {
    title: 'USD to a US account (bank_us, domestic)',
    account: 3,
    ask: { currency: 'USD', country: 'US', amount: '30' },
    rail: 'ACH',
    paidTo: 'US bank account (ACH or wire, USD)',
    fields: [
      holder,
      { label: 'Bank name', value: 'JPMorgan Chase' },
      { label: 'Name on the account', value: 'Ada Lovelace' },
      { label: 'Account number', value: '000123456789' },
      { label: 'Routing number (ABA)', value: '021000021' },
      { label: 'Street and number', value: '270 Park Avenue' },
      { label: 'City', value: 'New York' },
      { label: 'State', value: 'NY' },
      { label: 'ZIP or postal code', value: '10017' },
    ],
    sent: {
      schema: 'bank_us',
      name: 'Ada Lovelace',
      bankName: 'JPMorgan Chase',
      accountName: 'Ada Lovelace',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      beneficiaryAddress: { street: '270 Park Avenue', city: 'New York', state: 'NY', postalCode: '10017', country: 'US' },
    },
  },
  {
    title: 'USD to a bank abroad (bank_swift)',
    account: 4,
    ask: { currency: 'USD', country: 'GB', amount: '150' },
    rail: 'SWIFT',
    paidTo: 'International bank transfer (SWIFT, USD)',
    fields: [
      holder,
      { label: 'Company name', value: 'Analytical Engines Ltd' },
      { label: 'Bank name', value: 'Barclays' },
      { label: 'SWIFT / BIC code', value: 'barc gb 22' },
      { label: 'Account number', value: 'GB33 BUKB 2020 1555 5555 55' },
      { label: 'Purpose of the payment (optional)', value: 'invoice 42' },
    ],
    sent: {
      schema: 'bank_swift',
      name: 'Ada Lovelace',
      accountType: 'individual',
      companyName: 'Analytical Engines Ltd',
      bankName: 'Barclays',
      swiftCode: 'BARCGB22',
      accountNumber: 'GB33BUKB20201555555555',
      currency: 'USD',
    },
    purpose: 'invoice 42',
  },
  {
    title: 'BRL over PIX to a CPF key (bank_br_pix)',
    account: 5,
    ask: { currency: 'BRL', country: 'BR', amount: '100' },
    rail: 'PIX',
    paidTo: 'PIX (Brazil, BRL)',
    fields: [holder, { label: 'PIX key', value: '529.982.247-25' }],
    sent: { schema: 'bank_br_pix', name: 'Ada Lovelace', pixKey: '52998224725' },
  },
  {
    title: 'MXN over SPEI to a CLABE (bank_mexico)',
    account: 6,
    ask: { currency: 'MXN', country: 'MX', amount: '400' },
    rail: 'SPEI',
    paidTo: 'SPEI (Mexico, MXN)',
    fields: [holder, { label: 'CLABE', value: '032 180 000118359719' }],
    sent: { schema: 'bank_mexico', name: 'Ada Lovelace', clabe: '032180000118359719' },
  },
  {
    title: 'NGN to a Nigerian bank account (bank_africa)',
    account: 7,
    ask: { currency: 'NGN', country: 'NG', amount: '15000' },
    rail: 'NIP',
    paidTo: 'Bank account in Africa (NGN and other currencies)',
    fields: [
      holder,
      { label: 'Bank code', value: '058' },
      { label: 'Account number', value: '0123456789' },
      { label: 'Name on the account', value: 'Ada Lovelace' },
    ],
    sent: { schema: 'bank_africa', name: 'Ada Lovelace', financialInstitutionId: '058', accountNumber: '0123456789', accountName: 'Ada Lovelace' },
  },
  {
    title: 'NGN to a mobile money wallet, the rail chosen on the form (momo_africa)',
    account: 8,
    ask: { currency: 'NGN', country: 'NG', amount: '15000', rail: 'Mobile money' },
    rail: 'Mobile money',
    paidTo: 'Mobile money',
    fields: [holder, { label: 'Mobile money number', value: '+234 (0)803 123 4567' }],
    sent: { schema: 'momo_africa', name: 'Ada Lovelace', walletIdentifier: '+2348031234567' },
  },
  {
    title: 'USD as stablecoins to a wallet, the rail chosen on the form (evm)',
    account: 9,
    ask: { currency: 'USD', country: 'US', amount: '20', rail: 'Stablecoin' },
    rail: 'Stablecoin',
    paidTo: 'Stablecoin wallet',
    fields: [
      { label: 'Name of the recipient', value: 'Ada Lovelace' },
      { label: 'Wallet address', value: '0xa0ee7a142d267c1f36714e4a8f75612f20a79720' },
    ],
    // Sent with its EIP-55 checksum.
    sent: { schema: 'evm', name: 'Ada Lovelace', address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' },
  },
]

for (const c of cases) {
  test(`payout ${c.title}: quoted, funded on anvil, settled, the beneficiary as the contract names it @extended`, async ({ page, stack }) => {
    const buyer = await arrangeBuyer(page, stack, c.account)
    await quote(buyer, c.ask, c.rail)
    await beneficiary(buyer, c.paidTo, c.fields)
    const [created] = await sandboxPayouts(buyer)
    const before = await usdcBalance(stack, buyer.account)
    await fund(buyer)
    await waitSettled(buyer)

    const payouts = await sandboxPayouts(buyer)
    expect(payouts).toHaveLength(1)
    const [payout] = payouts
    expect(payout.id).toBe(created.id)
    expect(payout.status).toBe('settled')
    expect(payout.fiatCurrency).toBe(c.ask.currency)
    expect(payout.internal.beneficiary).toEqual(c.sent)
    expect(payout.internal.purpose).toBe(c.purpose)
    // Funded by the buyer's wallet with exactly depositAmount, at the payout's own address.
    expect(payout.internal.sender?.toLowerCase()).toBe(buyer.account.toLowerCase())
    expect(before - (await usdcBalance(stack, buyer.account))).toBe(usdcUnits(payout.internal.depositAmount))
    expect(await usdcBalance(stack, payout.internal.depositAddress)).toBe(usdcUnits(payout.internal.depositAmount))
    expect(buyer.wallet.signatures()).toBe(1)
  })
}
