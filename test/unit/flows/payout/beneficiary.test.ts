// Issue 18: each beneficiary schema's form checks (IBAN, ABA, SWIFT, EVM address) and the rule
// that a field the schema does not define is never sent.
import { readFileSync } from 'node:fs'
import { getAddress as viemGetAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { enBeneficiary } from '../../../../src/i18n/en-beneficiary'
import { checkEvmForm, checkIban, checkRouting, checkSwift, ibanMod97 } from '../../../../src/lib/accountChecks'
import { checksumAddress, checksumProblem, withChecksums } from '../../../../src/flows/payout/bank'
import { type OfferedSchemaId, offeredSchemas } from '../../../../src/flows/payout/base'
import {
  buildBeneficiary,
  checkForm,
  initialValues,
  purposeProblem,
  schemaFor,
  schemasFor,
  validateBeneficiary,
} from '../../../../src/flows/payout/beneficiary'
import { beneficiarySchema } from '../../../../src/flows/payout/beneficiarySchemas'
import type { BeneficiarySchema } from '../../../../src/flows/payout/destination'
// @ts-expect-error: plain ESM module of the sandbox
import { RAILS, payoutRails } from '../../../sandbox/routes/reference.mjs'

const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

/** An address's checks: its form (the form's, on submit), then its checksum (the request's). */
const checkEvmAddress = (address: string) => checkEvmForm(address) ?? checksumProblem(address)
/** The beneficiary as the request sends it: the submitted form's build, then its addresses' checksums. */
function sent(schema: BeneficiarySchema, values: Record<string, string>) {
  const { problems, sending } = checkForm(schema, { values, purpose: '' })
  return sending ? withChecksums(sending) : { ok: false, problems }
}

describe('IBAN', () => {
  it.each([
    'DE89370400440532013000',
    'GB82WEST12345698765432',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
    'NO9386011117947',
    'MT84MALT011000012345MTLCAST001S',
  ])('%s is valid', (iban) => {
    expect(checkIban(iban)).toBeUndefined()
    expect(ibanMod97(iban)).toBe(1)
  })

  it('a wrong check digit is a typo', () => {
    expect(checkIban('DE88370400440532013000')).toEqual({ kind: 'ibanChecksum' })
    // Two digits swapped: the classic typo mod 97 catches.
    expect(checkIban('DE89370400440532031000')).toEqual({ kind: 'ibanChecksum' })
  })

  it('a length wrong for its country says how long it should be', () => {
    expect(checkIban('DE8937040044053201300')).toEqual({ kind: 'ibanLength', country: 'DE', length: 22, actual: 21 })
    expect(checkIban('DE893704004405320130001')).toMatchObject({ kind: 'ibanLength', actual: 23 })
  })

  it('a country outside SEPA, or no IBAN at all, is refused by name', () => {
    expect(checkIban('BR1500000000000010932840814P2')).toEqual({ kind: 'ibanCountry', country: 'BR' })
    expect(checkIban('12345678')).toEqual({ kind: 'ibanFormat' })
    expect(checkIban('DEXX370400440532013000')).toEqual({ kind: 'ibanFormat' })
  })

  it('the form accepts it with spaces and in small letters, and sends it compact', () => {
    const schema = beneficiarySchema('bank_sepa')
    const values = { name: 'Erika Mustermann', accountType: 'individual', firstName: 'Erika', lastName: 'Mustermann', IBAN: ' de89 3704 0044 0532 0130 00 ' }
    const result = buildBeneficiary(schema, values)
    expect(result).toEqual({
      ok: true,
      beneficiary: {
        schema: 'bank_sepa',
        name: 'Erika Mustermann',
        accountType: 'individual',
        firstName: 'Erika',
        lastName: 'Mustermann',
        IBAN: 'DE89370400440532013000',
      },
    })
  })
})

describe('ABA routing number', () => {
  it.each(['011000015', '021000021', '111000025', '322271627'])('%s is valid', (routing) => {
    expect(checkRouting(routing)).toBeUndefined()
  })

  it('a wrong check digit is a typo', () => {
    expect(checkRouting('021000022')).toEqual({ kind: 'routingChecksum' })
  })

  it('a checksum that adds up under a prefix no Federal Reserve district uses is refused', () => {
    expect(checkRouting('500000005')).toEqual({ kind: 'routingChecksum' })
  })

  it('anything but 9 digits is a format problem', () => {
    for (const bad of ['02100002', '0210000210', '02100002a']) expect(checkRouting(bad)).toEqual({ kind: 'routingFormat' })
  })
})

describe('SWIFT / BIC', () => {
  it('8 or 11 characters: bank, country, location, optional branch', () => {
    expect(checkSwift('DEUTDEFF')).toBeUndefined()
    expect(checkSwift('DEUTDEFF500')).toBeUndefined()
    expect(checkSwift('CHASUS33XXX')).toBeUndefined()
  })

  it.each(['DEUTDEF', 'DEUTDEFF50', 'DEUTDEFF5000', '1EUTDEFF', 'DEUT1EFF', 'DEUTDEF!'])('%s is refused', (code) => {
    expect(checkSwift(code)).toEqual({ kind: 'swift' })
  })

  it('the form takes it in small letters with spaces and sends it compact', () => {
    const schema = beneficiarySchema('bank_swift')
    const result = buildBeneficiary(schema, {
      ...initialValues(schema),
      name: 'Acme Ltd',
      accountType: 'business',
      companyName: 'Acme Ltd',
      bankName: 'Deutsche Bank',
      swiftCode: 'deut de ff',
      accountNumber: 'de89 3704 0044 0532 0130 00',
    })
    expect(result.ok && result.beneficiary).toEqual({
      schema: 'bank_swift',
      name: 'Acme Ltd',
      accountType: 'business',
      companyName: 'Acme Ltd',
      bankName: 'Deutsche Bank',
      swiftCode: 'DEUTDEFF',
      accountNumber: 'DE89370400440532013000',
      currency: 'USD',
    })
  })
})

describe('EVM address', () => {
  it('a checksummed address, or one in one case, is valid', () => {
    expect(checkEvmAddress(CHECKSUMMED)).toBeUndefined()
    expect(checkEvmAddress(CHECKSUMMED.toLowerCase())).toBeUndefined()
    expect(checkEvmAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBeUndefined()
  })

  it('a mixed-case address that does not match its checksum is a typo', () => {
    expect(checkEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toEqual({ kind: 'evmChecksum' })
  })

  it('anything but 0x and 40 hex digits is not an address', () => {
    for (const bad of [
      '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe',
      '0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      'vitalik.eth',
    ]) {
      expect(checkEvmAddress(bad)).toEqual({ kind: 'evmAddress' })
    }
  })

  it('the zero address is refused: nothing sent there can ever be spent', () => {
    const zero = `0x${'0'.repeat(40)}`
    expect(checkEvmAddress(zero)).toEqual({ kind: 'evmZero' })
    expect(validateBeneficiary(beneficiarySchema('evm'), { name: 'Me', address: ` ${zero} ` })).toEqual({ address: { kind: 'evmZero' } })
    expect(enBeneficiary['payout.problem.evmZero' as keyof typeof enBeneficiary]).toMatch(/zero address/)
  })

  it('is sent with its checksum', () => {
    const result = sent(beneficiarySchema('evm'), { name: 'Me', address: ` ${CHECKSUMMED.toLowerCase()} ` })
    expect(result).toEqual({ ok: true, beneficiary: { schema: 'evm', name: 'Me', address: CHECKSUMMED } })
  })
})

describe('validation in the buyer’s words', () => {
  it('an empty form names every required field, with its problem each', () => {
    const schema = beneficiarySchema('bank_us')
    const problems = validateBeneficiary(schema, {})
    expect(Object.keys(problems).sort()).toEqual(
      [
        'accountName',
        'accountNumber',
        'bankName',
        'beneficiaryAddress.city',
        'beneficiaryAddress.postalCode',
        'beneficiaryAddress.state',
        'beneficiaryAddress.street',
        'name',
        'routingNumber',
      ].sort(),
    )
    expect(problems.name).toEqual({ kind: 'required' })
  })

  it('a select with a value it does not offer asks to choose', () => {
    const schema = beneficiarySchema('bank_sepa')
    expect(validateBeneficiary(schema, { accountType: 'trust' }).accountType).toEqual({ kind: 'choose' })
  })

  it('too long is said with the limit', () => {
    const schema = beneficiarySchema('bank_africa')
    expect(validateBeneficiary(schema, { name: 'x'.repeat(257) }).name).toEqual({ kind: 'tooLong', max: 256 })
    expect(purposeProblem('x'.repeat(513))).toEqual({ kind: 'tooLong', max: 512 })
    expect(purposeProblem('family support')).toBeUndefined()
  })

  it('an invalid form builds nothing', () => {
    const result = buildBeneficiary(beneficiarySchema('bank_sepa'), {
      name: 'A',
      accountType: 'individual',
      firstName: 'A',
      lastName: 'B',
      IBAN: 'DE88370400440532013000',
    })
    expect(result).toEqual({ ok: false, problems: { IBAN: { kind: 'ibanChecksum' } } })
  })
})

describe('buildBeneficiary never sends a field the schema does not define', () => {
  const usValues = {
    name: 'Jane Doe',
    bankName: 'Chase',
    accountName: 'Jane Doe',
    accountNumber: '000123456789',
    routingNumber: '021000021',
    'beneficiaryAddress.street': '1 Main St',
    'beneficiaryAddress.city': 'Springfield',
    'beneficiaryAddress.state': 'IL',
    'beneficiaryAddress.postalCode': '62701',
    'beneficiaryAddress.country': 'us',
  }

  it('bank_us: the full address as an object, and nothing else', () => {
    const result = buildBeneficiary(beneficiarySchema('bank_us'), {
      ...usValues,
      // Left in the form from another schema, or typed by a hostile page: never sent.
      IBAN: 'DE89370400440532013000',
      purpose: 'gift',
      schema: 'bank_sepa',
      'beneficiaryAddress.county': 'Sangamon',
      undefinedField: undefined,
    })
    expect(result).toEqual({
      ok: true,
      beneficiary: {
        schema: 'bank_us',
        name: 'Jane Doe',
        bankName: 'Chase',
        accountName: 'Jane Doe',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        beneficiaryAddress: { street: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      },
    })
  })

  it.each(offeredSchemas)('%s: every key is a field of the schema, and no value is undefined or empty', (id) => {
    const valid: Record<string, Record<string, string>> = {
      bank_sepa: { name: 'E M', accountType: 'individual', firstName: 'E', lastName: 'M', IBAN: 'DE89370400440532013000' },
      bank_us: usValues,
      bank_swift: { name: 'A', accountType: 'business', companyName: 'A', bankName: 'B', swiftCode: 'DEUTDEFF', accountNumber: '123', currency: 'USD' },
      bank_africa: { name: 'A', financialInstitutionId: '058', accountNumber: '0123456789', accountName: 'A' },
      evm: { name: 'A', address: CHECKSUMMED },
      bank_uk: { name: 'A', sortCode: '08-99-99', accountNumber: '66374958' },
      bank_br_pix: { name: 'A', pixKey: '111.444.777-35' },
      bank_mexico: { name: 'A', clabe: '032180000118359719' },
      momo_africa: { name: 'A', walletIdentifier: '+254712345678' },
    }
    const schema = beneficiarySchema(id)
    const result = buildBeneficiary(schema, { ...valid[id], extra: 'x', 'nested.extra': 'y', constructor: 'z', __proto__: 'p' } as Record<string, string>)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    const allowed = new Set(['schema', ...schema.fields.map((f) => f.name.split('.')[0])])
    const walk = (value: unknown): void => {
      expect(value).not.toBeUndefined()
      expect(value).not.toBe('')
      if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v)
    }
    walk(result.beneficiary)
    for (const key of Object.keys(result.beneficiary)) expect(allowed.has(key), key).toBe(true)
    expect(JSON.parse(JSON.stringify(result.beneficiary))).toEqual(result.beneficiary)
    expect(result.beneficiary.schema).toBe(id)
  })

  it('all nine schemas of the contract are offered', () => {
    expect([...offeredSchemas].sort()).toEqual([
      'bank_africa',
      'bank_br_pix',
      'bank_mexico',
      'bank_sepa',
      'bank_swift',
      'bank_uk',
      'bank_us',
      'evm',
      'momo_africa',
    ])
    for (const id of offeredSchemas) expect(beneficiarySchema(id).id).toBe(id)
  })

  it('every word the form shows (schema, label, hint, option) is in the beneficiary’s English catalog', () => {
    for (const id of offeredSchemas) {
      const schema = beneficiarySchema(id)
      const words = [schema.label, ...schema.fields.flatMap((f) => [f.label, f.hint, ...(f.options ?? []).map((o) => o.label)])]
      for (const word of words.filter((w) => w !== undefined)) expect(enBeneficiary, word).toHaveProperty([word])
    }
  })

  it('every field has a label, an autocomplete hint and a limit; purpose is offered on SWIFT only', () => {
    for (const id of offeredSchemas) {
      const schema = beneficiarySchema(id)
      expect(schema.fields[0]!.name).toBe('name')
      for (const f of schema.fields) {
        expect(f.label).toMatch(/^payout\.field\./)
        expect(f.autocomplete).toBeTruthy()
        expect(f.maxLength).toBeGreaterThan(0)
      }
      expect(schema.purpose).toBe(id === 'bank_swift')
    }
    expect(beneficiarySchema('bank_us').fields.find((f) => f.name === 'routingNumber')?.inputMode).toBe('numeric')
    expect(beneficiarySchema('bank_mexico').fields.find((f) => f.name === 'clabe')?.inputMode).toBe('numeric')
    expect(beneficiarySchema('bank_uk').fields.find((f) => f.name === 'sortCode')?.inputMode).toBe('numeric')
    expect(beneficiarySchema('momo_africa').fields.find((f) => f.name === 'walletIdentifier')).toMatchObject({ inputMode: 'tel', autocomplete: 'tel' })
  })
})

describe('EIP-55 with viem’s keccak-256, fetched with the request (kept out of the payout flow’s first load)', () => {
  it('the form’s checks carry no hash: only the request’s module imports viem, with the bank’s calls (loaded by import())', () => {
    const imports = (file: string) => [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1])
    for (const file of ['flows/payout/beneficiary.ts', 'lib/accountChecks.ts', 'flows/payout/machine.ts'])
      expect(imports(`src/${file}`).filter((i) => i.startsWith('viem'))).toEqual([])
    expect(imports('src/flows/payout/bank.ts')).toContain('viem/utils')
    expect(readFileSync('src/flows/payout/PayoutFlow.tsx', 'utf8')).toMatch(/import\('\.\/bank'\)/)
  })

  it('the checksum of any address is viem’s', () => {
    for (let i = 0; i < 50; i++) {
      const lower = `0x${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, '0')).join('')}`
      expect(checksumAddress(lower)).toBe(viemGetAddress(lower))
      expect(checkEvmAddress(viemGetAddress(lower))).toBeUndefined()
    }
    const good = viemGetAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
    const flipped = good.replace(/[a-f]/, (c) => c.toUpperCase())
    expect(checkEvmAddress(flipped)).toEqual({ kind: 'evmChecksum' })
  })

  it('the form says the form of an address at once; its checksum, when the request is built', () => {
    const evm = beneficiarySchema('evm')
    expect(validateBeneficiary(evm, { name: 'Me', address: 'vitalik.eth' })).toEqual({ address: { kind: 'evmAddress' } })
    expect(validateBeneficiary(evm, { name: 'Me', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' })).toEqual({})
    expect(sent(evm, { name: 'Me', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' })).toEqual({
      ok: false,
      problems: { address: { kind: 'evmChecksum' } },
    })
  })
})

describe('the four schemas the assumed contract names', () => {
  type Case = [OfferedSchemaId, Record<string, string>, object]
  // bank_uk: the sort code typed 12-34-56 or 12 34 56 is sent as 6 digits, with the 8-digit account;
  // bank_br_pix: the key as the DICT holds it; bank_mexico: the 18 digits typed in groups; momo_africa: E.164.
  const sent: Case[] = [
    ...['08-99-99', '08 99 99', '089999'].map(
      (sortCode): Case => [
        'bank_uk',
        { name: ' Jane  Smith ', sortCode, accountNumber: '6637 4958' },
        { name: 'Jane Smith', sortCode: '089999', accountNumber: '66374958' },
      ],
    ),
    ['bank_br_pix', { name: 'Ana', pixKey: '11.222.333/0001-81' }, { name: 'Ana', pixKey: '11222333000181' }],
    ['bank_br_pix', { name: 'Ana', pixKey: '+55 11 98765 4321' }, { name: 'Ana', pixKey: '+5511987654321' }],
    ['bank_mexico', { name: 'Luis', clabe: '032 180 00011835971 9' }, { name: 'Luis', clabe: '032180000118359719' }],
    ['momo_africa', { name: 'Wanjiru', walletIdentifier: '+254 712 345 678' }, { name: 'Wanjiru', walletIdentifier: '+254712345678' }],
  ]
  it.each(sent)('%s: typed %j, sent as %j', (id, typed, beneficiary) => {
    expect(buildBeneficiary(beneficiarySchema(id), typed)).toEqual({ ok: true, beneficiary: { schema: id, ...beneficiary } })
  })

  // A CPF or CNPJ key is held to its check digits, a CLABE to its control digit.
  const refused: Case[] = [
    ['bank_uk', { name: 'J', sortCode: '08-99-9', accountNumber: '6637495' }, { sortCode: { kind: 'sortCode' }, accountNumber: { kind: 'ukAccount' } }],
    ['bank_br_pix', { name: 'Ana', pixKey: '111.444.777-53' }, { pixKey: { kind: 'cpfChecksum' } }],
    ['bank_br_pix', { name: 'Ana', pixKey: 'ana' }, { pixKey: { kind: 'pixKey' } }],
    ['bank_mexico', { name: 'Luis', clabe: '032180000118359718' }, { clabe: { kind: 'clabeChecksum' } }],
    ['momo_africa', { name: 'Wanjiru', walletIdentifier: '0712 345 678' }, { walletIdentifier: { kind: 'phone' } }],
  ]
  it.each(refused)('%s: typed %j, refused with %j', (id, typed, problems) => {
    expect(validateBeneficiary(beneficiarySchema(id), typed)).toEqual(problems)
  })
})

describe('which schemas a payout is offered, by its currency and country (assumed-contract.md)', () => {
  it.each([
    ['EUR', 'DE', 'sepa_instant', ['bank_sepa']],
    ['GBP', 'GB', 'faster_payments', ['bank_uk']],
    ['USD', 'US', 'ach', ['bank_us']],
    ['USD', 'US', 'wire', ['bank_us']],
    ['USD', 'DE', 'swift', ['bank_swift']],
    ['BRL', 'BR', 'pix', ['bank_br_pix']],
    ['MXN', 'MX', 'spei', ['bank_mexico']],
    // A rail takes one schema (the service refuses "beneficiary fields not matching the rail"):
    // mobile money is had by choosing its rail on the form.
    ['NGN', 'NG', 'nip', ['bank_africa']],
    ['KES', 'KE', 'mpesa', ['momo_africa']],
    ['GHS', 'GH', 'mobile_money', ['momo_africa']],
    ['UGX', 'UG', 'mtn_momo', ['momo_africa']],
    ['XOF', 'SN', 'orange_money', ['momo_africa']],
    ['USD', 'US', 'stablecoin', ['evm']],
  ])('%s to %s over %s: %j', (currency, country, rail, schemas) => {
    expect(schemasFor({ currency, country }, rail)).toEqual(schemas)
  })

  it('a rail we do not know still finds the schema of its currency and country', () => {
    expect(schemasFor({ currency: 'USD', country: 'US' }, 'rtp')).toEqual(['bank_us'])
    expect(schemasFor({ currency: 'USD', country: 'MX' }, 'rtp')).toEqual(['bank_swift'])
    expect(schemasFor({ currency: 'GBP', country: 'GB' }, 'bacs')).toEqual(['bank_uk'])
  })

  it('a currency the contract pairs with no schema is offered none', () => {
    expect(schemasFor({ currency: 'JPY', country: 'JP' }, 'zengin')).toEqual([])
  })

  it('every rail of the sandbox is offered exactly the one schema the sandbox takes on it', () => {
    const countries = ['DE', 'FR', 'GB', 'US', 'BR', 'MX', 'NG', 'KE']
    const asks = Object.entries(RAILS as Record<string, { currency: string; schema: string }>).flatMap(([rail, r]) =>
      countries
        .filter((country) => (payoutRails(r.currency, country) as string[]).includes(rail))
        .map((country) => ({ rail, currency: r.currency, country, schema: r.schema })),
    )
    expect(asks.length).toBeGreaterThanOrEqual(Object.keys(RAILS).length)
    for (const { rail, currency, country, schema } of asks)
      expect(schemasFor({ currency, country }, rail), `${currency} to ${country} over ${rail}`).toEqual([schema])
  })

  it('the schema chosen: the one the buyer had when still offered, else the first', () => {
    const ngn = { currency: 'NGN', country: 'NG' }
    expect(schemaFor(ngn, 'nip', undefined)).toBe('bank_africa')
    // Mobile money on a bank rail would be refused: the bank account it is.
    expect(schemaFor(ngn, 'nip', 'momo_africa')).toBe('bank_africa')
    expect(schemaFor(ngn, 'mobile_money', 'bank_africa')).toBe('momo_africa')
    expect(schemaFor({ currency: 'USD', country: 'US' }, 'ach', 'bank_us')).toBe('bank_us')
    expect(schemaFor(ngn, 'nip', 'bank_sepa')).toBe('bank_africa')
    expect(schemaFor({ currency: 'JPY', country: 'JP' }, 'zengin', 'bank_sepa')).toBeUndefined()
  })
})
