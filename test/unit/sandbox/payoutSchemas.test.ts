// Issue 31: every beneficiary schema the contract offers, on POST /v1/bank/payout, with the field
// names assumed-contract.md fixes for the four the contract names only in words (bank_uk,
// bank_br_pix, bank_mexico, momo_africa) and the parts of bank_us's beneficiaryAddress; quotes
// for GBP, BRL, MXN and NGN (bank and mobile money) on their rails; 422 no_route where no rail
// serves a currency and country; 400 invalid_request naming the field the service refuses.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type BankStack, startBankStack } from './bankStack'

let s: BankStack
let accountId: string
beforeAll(async () => {
  s = await startBankStack()
  accountId = (await s.onboard(s.config.accounts[6])).accountId
}, 60_000)
afterAll(() => s?.stop())
beforeEach(async () => {
  await s.reset()
})

type Ask = { fiatCurrency: string; country: string; fiatAmount: string; rail?: string }
const quote = (ask: Ask) => s.v1('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, ...ask })
async function create(ask: Ask, beneficiary: unknown) {
  const q = await quote(ask)
  expect(q.status).toBe(200)
  return s.v1('/bank/payout', { quoteId: q.body.quoteId, accountId, beneficiary })
}

const ADDRESS = { street: '1 Main St', city: 'Arlington', postalCode: '22201', state: 'VA', country: 'US' }
// One valid beneficiary per schema, with the ask whose rail takes it.
const NINE: Array<[string, Ask, Record<string, unknown>]> = [
  [
    'bank_sepa',
    { fiatCurrency: 'EUR', country: 'DE', fiatAmount: '100.00' },
    { accountType: 'individual', firstName: 'Ada', lastName: 'Lovelace', IBAN: 'DE89370400440532013000' },
  ],
  ['bank_uk', { fiatCurrency: 'GBP', country: 'GB', fiatAmount: '100.00' }, { accountNumber: '31926819', sortCode: '601613' }],
  [
    'bank_us',
    { fiatCurrency: 'USD', country: 'US', fiatAmount: '100.00' },
    { bankName: 'Sandbox Bank', accountName: 'Ada Lovelace', accountNumber: '000123456789', routingNumber: '011000015', beneficiaryAddress: ADDRESS },
  ],
  [
    'bank_swift',
    { fiatCurrency: 'USD', country: 'SG', fiatAmount: '200.00' },
    {
      accountType: 'business',
      companyName: 'Analytical Engines Pte',
      bankName: 'Sandbox Bank SG',
      swiftCode: 'DBSSSGSG',
      accountNumber: '0123456789',
      currency: 'USD',
    },
  ],
  ['bank_br_pix', { fiatCurrency: 'BRL', country: 'BR', fiatAmount: '500.00' }, { pixKey: '52998224725' }],
  ['bank_mexico', { fiatCurrency: 'MXN', country: 'MX', fiatAmount: '1000.00' }, { clabe: '032180000118359719' }],
  [
    'bank_africa',
    { fiatCurrency: 'NGN', country: 'NG', fiatAmount: '100000.00' },
    { financialInstitutionId: '058', accountNumber: '0123456789', accountName: 'Ada Lovelace' },
  ],
  ['momo_africa', { fiatCurrency: 'NGN', country: 'NG', fiatAmount: '100000.00', rail: 'mobile_money' }, { walletIdentifier: '+2348031234567' }],
  ['evm', { fiatCurrency: 'USD', country: 'US', fiatAmount: '100.00', rail: 'stablecoin' }, { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }],
]
const valid = (schema: string) => {
  const [, ask, fields] = NINE.find(([name]) => name === schema)!
  return { ask, beneficiary: { name: 'Ada Lovelace', schema, ...fields } }
}
/** The service's answer to this schema's valid beneficiary with `change` applied (undefined deletes). */
async function refused(schema: string, change: Record<string, unknown>) {
  const { ask, beneficiary } = valid(schema)
  const b: Record<string, unknown> = { ...beneficiary, ...change }
  for (const [k, v] of Object.entries(change)) if (v === undefined) delete b[k]
  const { status, body } = await create(ask, b)
  expect(status).toBe(400)
  expect(body.error.code).toBe('invalid_request')
  return body.error.message as string
}

describe('quotes on the rails of GBP, BRL, MXN and NGN', () => {
  it.each([
    ['GBP', 'GB', '100.00', 'faster_payments', 'instant'],
    ['BRL', 'BR', '500.00', 'pix', 'instant'],
    ['MXN', 'MX', '1000.00', 'spei', 'same_day'],
    ['NGN', 'NG', '100000.00', 'nip', 'same_day'],
  ])('%s to %s: priced on the cheapest rail serving the pair', async (fiatCurrency, country, fiatAmount, rail, estimatedSettlement) => {
    const { status, body } = await quote({ fiatCurrency, country, fiatAmount })
    expect(status).toBe(200)
    expect(body).toMatchObject({ fiatAmount, rail, estimatedSettlement })
  })

  it('NGN to mobile money: a rail of its own, dearer than NIP, so asked for by name', async () => {
    const { body } = await quote({ fiatCurrency: 'NGN', country: 'NG', fiatAmount: '100000.00', rail: 'mobile_money' })
    expect(body).toMatchObject({ rail: 'mobile_money', fiatAmount: '100000.00', estimatedSettlement: 'instant', providerFee: '150.00' })
    const limits = (await s.v1get('/limits?currency=NGN')).body.limits
    expect(limits.map((l: { rail: string }) => l.rail).sort()).toEqual(['mobile_money', 'nip'])
  })

  it.each([
    ['GBP', 'DE'],
    ['BRL', 'PT'],
    ['MXN', 'US'],
    ['NGN', 'GH'],
  ])('%s to %s: no rail, 422 no_route', async (fiatCurrency, country) => {
    expect(await quote({ fiatCurrency, country, fiatAmount: '100.00' })).toMatchObject({ status: 422, body: { error: { code: 'no_route' } } })
  })

  it('a rail forced on a pair it does not serve: 422 no_route', async () => {
    expect(await quote({ fiatCurrency: 'GBP', country: 'GB', fiatAmount: '100.00', rail: 'mobile_money' })).toMatchObject({
      status: 422,
      body: { error: { code: 'no_route' } },
    })
  })
})

describe('all nine schemas', () => {
  it.each(NINE.map(([schema]) => schema))('%s: a valid beneficiary on its rail creates the payout', async (schema) => {
    const { ask, beneficiary } = valid(schema)
    const { status, body } = await create(ask, beneficiary)
    expect(status).toBe(200)
    expect(body).toMatchObject({ status: 'pending', chain: 8453 })
  })

  it.each(NINE.map(([schema]) => schema))('%s: a field the schema does not define is refused by name', async (schema) => {
    expect(await refused(schema, { nickname: 'x' })).toBe('beneficiary.nickname: not a field of this beneficiary schema')
  })

  it.each(NINE.map(([schema]) => schema))('%s: on a rail that takes another schema, refused naming beneficiary.schema', async (schema) => {
    const other = schema === 'bank_sepa' ? 'bank_uk' : 'bank_sepa'
    const { beneficiary } = valid(schema)
    const { status, body } = await create(valid(other).ask, beneficiary)
    expect(status).toBe(400)
    expect(body.error.message).toMatch(new RegExp(`^beneficiary\\.schema: ${schema} does not match the quote's rail`))
  })
})

describe('bank_uk: accountNumber (8 digits) and sortCode (6 digits, digits only)', () => {
  it.each([
    [{ sortCode: '60-16-13' }, 'beneficiary.sortCode: must be 6 digits'],
    [{ sortCode: '60161' }, 'beneficiary.sortCode: must be 6 digits'],
    [{ accountNumber: '3192681' }, 'beneficiary.accountNumber: must be 8 digits'],
    [{ accountNumber: '3192681X' }, 'beneficiary.accountNumber: must be 8 digits'],
    [{ sortCode: undefined }, 'beneficiary.sortCode: required'],
    [{ accountNumber: 31926819 }, 'beneficiary.accountNumber: must be a string'],
    [{ IBAN: 'GB29NWBK60161331926819' }, 'beneficiary.IBAN: not a field of this beneficiary schema'],
  ])('%j is refused: %s', async (change, message) => {
    expect(await refused('bank_uk', change)).toBe(message)
  })
})

describe('bank_br_pix: pixKey is a CPF, a CNPJ, an e-mail, a +55 phone or a random key', () => {
  it.each([
    ['a CPF', '52998224725'],
    ['a CNPJ', '11222333000181'],
    ['an e-mail', 'ada@example.com.br'],
    ['a +55 phone', '+5511987654321'],
    ['a random key', '123e4567-e89b-42d3-a456-426614174000'],
  ])('%s is taken (%s)', async (_kind, pixKey) => {
    const { ask, beneficiary } = valid('bank_br_pix')
    expect((await create(ask, { ...beneficiary, pixKey })).status).toBe(200)
  })

  it.each([
    ['a CPF with a wrong check digit', '52998224726'],
    ['a CPF of one repeated digit', '11111111111'],
    ['a CNPJ with a wrong check digit', '11222333000182'],
    ['a formatted CPF (send digits only)', '529.982.247-25'],
    ['a phone outside Brazil', '+4915112345678'],
    ['a +55 phone too short', '+55119876'],
    ['an e-mail without a domain', 'ada@'],
    ['a word', 'my-pix-key'],
  ])('%s is refused (%s)', async (_kind, pixKey) => {
    expect(await refused('bank_br_pix', { pixKey })).toMatch(/^beneficiary\.pixKey: not a PIX key/)
  })

  it('a CLABE or an account number is not a field of bank_br_pix', async () => {
    expect(await refused('bank_br_pix', { clabe: '032180000118359719' })).toBe('beneficiary.clabe: not a field of this beneficiary schema')
  })
})

describe('bank_mexico: clabe, 18 digits with its check digit', () => {
  it.each([
    ['032180000118359718', /^beneficiary\.clabe: not a valid CLABE/],
    ['03218000011835971', /^beneficiary\.clabe: not a valid CLABE/],
    ['032 180 000118359719', /^beneficiary\.clabe: not a valid CLABE/],
  ])('%s is refused', async (clabe, message) => {
    expect(await refused('bank_mexico', { clabe })).toMatch(message)
  })
  it('a missing clabe is required', async () => {
    expect(await refused('bank_mexico', { clabe: undefined })).toBe('beneficiary.clabe: required')
  })
})

describe("momo_africa: walletIdentifier, the wallet's E.164 phone number", () => {
  it.each(['08031234567', '+234 803 123 4567', '+0348031234567', '+23480312345678901', 'wallet-42'])('%s is refused', async (walletIdentifier) => {
    expect(await refused('momo_africa', { walletIdentifier })).toMatch(/^beneficiary\.walletIdentifier: must be an E\.164 phone number/)
  })
  it('an accountNumber is not a field of momo_africa', async () => {
    expect(await refused('momo_africa', { accountNumber: '0123456789' })).toBe('beneficiary.accountNumber: not a field of this beneficiary schema')
  })
})

describe('bank_us: beneficiaryAddress is { street, city, postalCode, state, country }, all required', () => {
  it.each(['street', 'city', 'postalCode', 'state', 'country'])('without %s it is refused naming it', async (part) => {
    const { [part as keyof typeof ADDRESS]: _gone, ...rest } = ADDRESS
    expect(await refused('bank_us', { beneficiaryAddress: rest })).toBe(`beneficiary.beneficiaryAddress.${part}: required`)
  })
  it('a country that is not ISO 3166-1 alpha-2, a zip instead of postalCode, a string address', async () => {
    expect(await refused('bank_us', { beneficiaryAddress: { ...ADDRESS, country: 'USA' } })).toMatch(
      /^beneficiary\.beneficiaryAddress\.country: must be an ISO 3166-1 alpha-2 code/,
    )
    const { postalCode, ...noPostal } = ADDRESS
    expect(await refused('bank_us', { beneficiaryAddress: { ...noPostal, zip: postalCode } })).toBe(
      'beneficiary.beneficiaryAddress.zip: not a field of this beneficiary schema',
    )
    expect(await refused('bank_us', { beneficiaryAddress: '1 Main St, Arlington VA 22201' })).toBe('beneficiary.beneficiaryAddress: must be an object')
  })
  it('a beneficiaryAddress is not a field of the schemas that do not define it', async () => {
    expect(await refused('bank_uk', { beneficiaryAddress: ADDRESS })).toBe('beneficiary.beneficiaryAddress: not a field of this beneficiary schema')
  })
})
